package chipauth

import (
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
)

var (
	oidSignedData        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidAttrContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidAttrMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidAttrSigningTime   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
	oidLDSSecurityObject = asn1.ObjectIdentifier{2, 23, 136, 1, 1, 1}
	oidCscaMasterList    = asn1.ObjectIdentifier{2, 23, 136, 1, 1, 2}
)

// signedData is a CMS SignedData (RFC 5652) as passive authentication needs it.
type signedData struct {
	contentType asn1.ObjectIdentifier
	content     []byte
	certs       []*certificate
	signers     []signerInfo
}

// signerInfo is one CMS SignerInfo. Its signed attributes are kept as the exact
// bytes the signer signed.
type signerInfo struct {
	issuer       name     // issuerAndSerialNumber, when the signer is named that way
	serial       *big.Int // nil when the signer is named by subject key identifier
	subjectKeyID []byte
	digestAlg    algorithmIdentifier
	signedAttrs  []byte // original [0] IMPLICIT bytes re-tagged as SET (0x31); nil if absent
	sigAlg       algorithmIdentifier
	signature    []byte

	contentType   asn1.ObjectIdentifier
	messageDigest []byte
	signingTime   time.Time // zero when absent
}

// parseSignedData reads a CMS ContentInfo holding SignedData, once, with
// chipauth's own reader: it reads certificates with explicit EC parameters
// (which crypto/x509, and so github.com/digitorus/pkcs7, refuse), keeps signed
// attributes as the exact bytes signed, and knows signers by subject key
// identifier as well as by issuer and serial number. The tests check that it
// agrees with digitorus/pkcs7 on every envelope pkcs7 can read.
func parseSignedData(b []byte) (*signedData, error) {
	return parseSignedDataWith(b, nil)
}

// parseSignedDataWith is parseSignedData taking the embedded certificates from
// signers when it holds them (see signerCache); signers may be nil.
func parseSignedDataWith(b []byte, signers *signerCache) (*signedData, error) {
	ci, rest, err := readElement(b)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, errors.New("trailing data after ContentInfo")
	}
	if err := ci.expect(classUniversal, tagSequence, true, "ContentInfo SEQUENCE"); err != nil {
		return nil, err
	}
	ci.markDefinite()
	parts, err := ci.children()
	if err != nil {
		return nil, err
	}
	if len(parts) != 2 || !parts[1].is(classContext, 0) || !parts[1].constructed {
		return nil, errors.New("ContentInfo: expected contentType and [0] content")
	}
	var ct asn1.ObjectIdentifier
	if err := unmarshalElement(parts[0], &ct); err != nil || !ct.Equal(oidSignedData) {
		return nil, errors.New("ContentInfo: content type is not SignedData")
	}
	inner, err := parts[1].children()
	if err != nil || len(inner) != 1 {
		return nil, errors.New("ContentInfo: malformed [0] content")
	}
	sd, err := readSignedData(inner[0], signers)
	if err != nil {
		return nil, err
	}
	return sd, nil
}

func readSignedData(e element, signers *signerCache) (*signedData, error) {
	if err := e.expect(classUniversal, tagSequence, true, "SignedData SEQUENCE"); err != nil {
		return nil, err
	}
	f, err := e.children()
	if err != nil {
		return nil, err
	}
	if len(f) < 4 {
		return nil, errors.New("SignedData: too few fields")
	}
	// f[0] version, f[1] digestAlgorithms, f[2] encapContentInfo, then optional
	// [0] certificates and [1] crls, then signerInfos.
	if err := f[0].expect(classUniversal, tagInteger, false, "SignedData version"); err != nil {
		return nil, err
	}
	if err := f[1].expect(classUniversal, tagSet, true, "digestAlgorithms SET"); err != nil {
		return nil, err
	}
	sd := &signedData{}
	if sd.contentType, sd.content, err = readEncapContent(f[2]); err != nil {
		return nil, err
	}
	i := 3
	if i < len(f) && f[i].is(classContext, 0) {
		if sd.certs, err = readCertificates(f[i], signers); err != nil {
			return nil, err
		}
		i++
	}
	if i < len(f) && f[i].is(classContext, 1) {
		i++ // CRLs are not used: ICAO revocation is out of scope.
	}
	if i != len(f)-1 {
		return nil, errors.New("SignedData: unexpected fields")
	}
	if err := f[i].expect(classUniversal, tagSet, true, "signerInfos SET"); err != nil {
		return nil, err
	}
	infos, err := f[i].children()
	if err != nil {
		return nil, err
	}
	for _, si := range infos {
		s, err := readSignerInfo(si)
		if err != nil {
			return nil, err
		}
		sd.signers = append(sd.signers, s)
	}
	if len(sd.signers) == 0 {
		return nil, errors.New("SignedData: no SignerInfo")
	}
	return sd, nil
}

func readEncapContent(e element) (asn1.ObjectIdentifier, []byte, error) {
	if err := e.expect(classUniversal, tagSequence, true, "EncapsulatedContentInfo"); err != nil {
		return nil, nil, err
	}
	f, err := e.children()
	if err != nil {
		return nil, nil, err
	}
	if len(f) != 2 || !f[1].is(classContext, 0) || !f[1].constructed {
		return nil, nil, errors.New("EncapsulatedContentInfo: content missing")
	}
	var ct asn1.ObjectIdentifier
	if err := unmarshalElement(f[0], &ct); err != nil {
		return nil, nil, fmt.Errorf("eContentType: %w", err)
	}
	oct, err := f[1].children()
	if err != nil || len(oct) != 1 {
		return nil, nil, errors.New("EncapsulatedContentInfo: malformed eContent")
	}
	content, err := oct[0].octets()
	if err != nil {
		return nil, nil, err
	}
	return ct, content, nil
}

func readCertificates(e element, signers *signerCache) ([]*certificate, error) {
	items, err := e.children()
	if err != nil {
		return nil, err
	}
	var out []*certificate
	for _, it := range items {
		if !it.is(classUniversal, tagSequence) {
			continue // attribute and other certificate formats are not used
		}
		der, err := it.der()
		if err != nil {
			return nil, err
		}
		c, err := signers.parse(der)
		if err != nil {
			return nil, fmt.Errorf("embedded %w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

func readSignerInfo(e element) (signerInfo, error) {
	var si signerInfo
	if err := e.expect(classUniversal, tagSequence, true, "SignerInfo SEQUENCE"); err != nil {
		return si, err
	}
	f, err := e.children()
	if err != nil {
		return si, err
	}
	if len(f) < 5 {
		return si, errors.New("SignerInfo: too few fields")
	}
	switch {
	case f[1].is(classUniversal, tagSequence) && f[1].constructed: // issuerAndSerialNumber
		ias, err := f[1].children()
		if err != nil || len(ias) != 2 || !ias[1].is(classUniversal, tagInteger) || len(ias[1].content) == 0 {
			return si, errors.New("SignerInfo: malformed issuerAndSerialNumber")
		}
		der, err := ias[0].der()
		if err != nil {
			return si, err
		}
		if si.issuer, err = parseName(der); err != nil {
			return si, fmt.Errorf("SignerInfo issuer: %w", err)
		}
		si.serial = parseInteger(ias[1].content)
	case f[1].is(classContext, 0): // [0] IMPLICIT SubjectKeyIdentifier
		if f[1].constructed {
			return si, errors.New("SignerInfo: malformed subjectKeyIdentifier")
		}
		si.subjectKeyID = f[1].content
	default:
		return si, errors.New("SignerInfo: unknown signer identifier")
	}
	if si.digestAlg, err = parseAlgorithmIdentifier(f[2]); err != nil {
		return si, err
	}
	i := 3
	if f[i].is(classContext, 0) {
		if !f[i].constructed {
			return si, errors.New("SignerInfo: malformed signedAttrs")
		}
		raw, err := f[i].der()
		if err != nil {
			return si, err
		}
		// The signature covers the DER SET OF; only the tag byte differs from the
		// [0] IMPLICIT encoding, so the original bytes are re-tagged, not re-encoded.
		si.signedAttrs = append([]byte{0x31}, raw[1:]...)
		if err := si.readSignedAttrs(f[i]); err != nil {
			return si, err
		}
		i++
	}
	if i+1 >= len(f) {
		return si, errors.New("SignerInfo: signature missing")
	}
	if si.sigAlg, err = parseAlgorithmIdentifier(f[i]); err != nil {
		return si, err
	}
	if si.signature, err = f[i+1].octets(); err != nil {
		return si, fmt.Errorf("SignerInfo signature: %w", err)
	}
	if len(f) > i+2 && !(len(f) == i+3 && f[i+2].is(classContext, 1)) {
		return si, errors.New("SignerInfo: unexpected fields")
	}
	return si, nil
}

func (si *signerInfo) readSignedAttrs(e element) error {
	attrs, err := e.children()
	if err != nil {
		return err
	}
	// Attribute types are told apart by their OID content octets, which are
	// unique: both OID readers refuse non-minimal encodings.
	seen := make(map[string]bool, len(attrs))
	for _, a := range attrs {
		f, err := a.children()
		if err != nil || len(f) != 2 || !f[1].is(classUniversal, tagSet) {
			return errors.New("signed attribute: malformed")
		}
		var typ asn1.ObjectIdentifier
		if err := unmarshalElement(f[0], &typ); err != nil {
			return fmt.Errorf("signed attribute type: %w", err)
		}
		if seen[string(f[0].content)] {
			return fmt.Errorf("signed attribute %s repeated", typ)
		}
		seen[string(f[0].content)] = true
		vals, err := f[1].children()
		if err != nil {
			return err
		}
		switch {
		case typ.Equal(oidAttrContentType):
			if len(vals) != 1 || unmarshalElement(vals[0], &si.contentType) != nil {
				return errors.New("contentType attribute: malformed")
			}
		case typ.Equal(oidAttrMessageDigest):
			if len(vals) != 1 {
				return errors.New("messageDigest attribute: malformed")
			}
			if si.messageDigest, err = vals[0].octets(); err != nil {
				return errors.New("messageDigest attribute: malformed")
			}
		case typ.Equal(oidAttrSigningTime):
			if len(vals) != 1 || unmarshalElement(vals[0], &si.signingTime) != nil {
				return errors.New("signingTime attribute: malformed")
			}
		}
	}
	return nil
}

// unmarshalElement decodes e with encoding/asn1, rejecting trailing data.
// Object identifiers and times in plain DER, the values every SOD carries, are
// read without reflection first (readObjectIdentifierDER, readTimeDER accept
// a subset of what encoding/asn1 does, into the same values).
func unmarshalElement(e element, v any) error {
	der, err := e.der()
	if err != nil {
		return err
	}
	s := cryptobyte.String(der)
	switch p := v.(type) {
	case *asn1.ObjectIdentifier:
		if readObjectIdentifierDER(&s, p) && len(s) == 0 {
			return nil
		}
	case *time.Time:
		if readTimeDER(&s, p) && len(s) == 0 {
			return nil
		}
	}
	rest, err := asn1.Unmarshal(der, v)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return errors.New("trailing data")
	}
	return nil
}
