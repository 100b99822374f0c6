package sandbox

import (
	"crypto"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// SODOptions shapes a test EF.SOD. The zero value gives an LDS v0 SOD, wrapped in
// 0x77, signer named by issuer and serial, with no signing time.
type SODOptions struct {
	SigningTime  time.Time // zero: no signingTime attribute
	LDSVersion   int       // 0 or 1 (v1 adds LDSVersionInfo "0108"/"040000")
	SubjectKeyID bool      // name the signer by subject key identifier instead of issuer and serial
	Unwrapped    bool      // omit the 0x77 application tag
	// DigestOID overrides the LDSSecurityObject hash algorithm OID (hashes are
	// still computed with the digest argument), for negative tests.
	DigestOID       asn1.ObjectIdentifier
	OmitCertificate bool // leave the DS certificate out of the SignedData
	// UnsortedAttributes writes the signed attributes in the order contentType,
	// messageDigest, signingTime instead of DER SET OF order, as some issuing
	// states do; a verifier that re-encodes them before checking then fails.
	UnsortedAttributes bool
	Rand               io.Reader // randomness; nil means crypto/rand
}

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidLDSSO         = asn1.ObjectIdentifier{2, 23, 136, 1, 1, 1}
	oidContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningTime   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
)

// BuildSOD returns an EF.SOD over dataGroups (data group number → file
// contents), hashed with digest and signed by ds under scheme (PKCS1v15 or PSS
// for RSA DS keys, ECDSA for EC ones), as ICAO Doc 9303-10 lays it out.
func BuildSOD(ds *DS, dataGroups map[int][]byte, digest crypto.Hash, scheme Scheme, opts SODOptions) ([]byte, error) {
	if ds == nil || ds.Issuer == nil {
		return nil, errors.New("sandbox: DS with issuer required")
	}
	hashOID, ok := digestOID(digest)
	if !ok {
		return nil, fmt.Errorf("sandbox: unsupported digest %v", digest)
	}
	if len(dataGroups) == 0 {
		return nil, errors.New("sandbox: no data groups")
	}
	ldsHashOID := hashOID
	if opts.DigestOID != nil {
		ldsHashOID = opts.DigestOID
	}
	var hashes [][]byte
	for _, n := range slices.Sorted(maps.Keys(dataGroups)) {
		if n < 1 || n > 16 {
			return nil, fmt.Errorf("sandbox: data group %d out of range", n)
		}
		h := digest.New()
		h.Write(dataGroups[n])
		hashes = append(hashes, tlv(0x30, mustMarshal(n), mustMarshal(h.Sum(nil))))
	}
	ldsParts := [][]byte{mustMarshal(opts.LDSVersion), tlv(0x30, mustMarshal(ldsHashOID)), tlv(0x30, hashes...)}
	if opts.LDSVersion == 1 {
		ldsParts = append(ldsParts, tlv(0x30, tlv(0x13, []byte("0108")), tlv(0x13, []byte("040000"))))
	}
	lds := tlv(0x30, ldsParts...)

	h := digest.New()
	h.Write(lds)
	attrs := [][]byte{
		tlv(0x30, mustMarshal(oidContentType), tlv(0x31, mustMarshal(oidLDSSO))),
		tlv(0x30, mustMarshal(oidMessageDigest), tlv(0x31, mustMarshal(h.Sum(nil)))),
	}
	if !opts.SigningTime.IsZero() {
		st, err := asn1.Marshal(opts.SigningTime.UTC())
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, tlv(0x30, mustMarshal(oidSigningTime), tlv(0x31, st)))
	}
	signedAttrs := derSet(attrs...)
	if opts.UnsortedAttributes {
		signedAttrs = tlv(0x31, attrs...)
	}
	sig, err := sign(ds.Key, scheme, digest, opts.Rand, signedAttrs)
	if err != nil {
		return nil, err
	}
	sigAlg, err := signatureAlgorithm(scheme, digest)
	if err != nil {
		return nil, err
	}
	var sid []byte
	version := 1
	if opts.SubjectKeyID {
		sid, version = tlv(0x80, ds.skid), 3
	} else {
		sid = tlv(0x30, ds.Issuer.subject, mustMarshal(ds.serial))
	}
	digestAlg := tlv(0x30, mustMarshal(hashOID))
	signerInfo := tlv(0x30,
		mustMarshal(version), sid, digestAlg,
		append([]byte{0xa0}, signedAttrs[1:]...), // [0] IMPLICIT SET OF Attribute
		sigAlg, mustMarshal(sig),
	)
	sdParts := [][]byte{
		mustMarshal(3), derSet(digestAlg),
		tlv(0x30, mustMarshal(oidLDSSO), tlv(0xa0, mustMarshal(lds))),
	}
	if !opts.OmitCertificate {
		sdParts = append(sdParts, tlv(0xa0, ds.DER))
	}
	sdParts = append(sdParts, tlv(0x31, signerInfo))
	ci := tlv(0x30, mustMarshal(oidSignedData), tlv(0xa0, tlv(0x30, sdParts...)))
	if opts.Unwrapped {
		return ci, nil
	}
	return tlv(0x77, ci), nil
}
