package chipauth

import (
	"crypto/sha256"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// certificate is an X.509 certificate read by chipauth itself (see publicKey for why).
type certificate struct {
	raw          []byte // the whole DER certificate
	rawTBS       []byte // the signed TBSCertificate, exactly as encoded
	serial       *big.Int
	issuer       name
	subject      name
	notBefore    time.Time
	notAfter     time.Time
	key          publicKey
	keyErr       error // why the key could not be parsed, if it could not
	sigAlg       algorithmIdentifier
	signature    []byte
	subjectKeyID []byte
	authorityKID []byte
	keyUsage     int  // bit i set = KeyUsage bit i (0 digitalSignature, 5 keyCertSign)
	hasKeyUsage  bool // the keyUsage extension is present
	fingerprint  [32]byte
}

const (
	keyUsageDigitalSignature = 1 << 0
	keyUsageCertSign         = 1 << 5
)

var (
	oidSubjectKeyID   = asn1.ObjectIdentifier{2, 5, 29, 14}
	oidKeyUsage       = asn1.ObjectIdentifier{2, 5, 29, 15}
	oidAuthorityKeyID = asn1.ObjectIdentifier{2, 5, 29, 35}
)

type rawCertificate struct {
	TBS       asn1.RawValue
	SigAlg    algorithmIdentifier
	Signature asn1.BitString
}

type tbsCertificate struct {
	Version    int `asn1:"explicit,optional,default:0,tag:0"`
	Serial     asn1.RawValue
	SigAlg     algorithmIdentifier
	Issuer     asn1.RawValue
	Validity   validity
	Subject    asn1.RawValue
	PublicKey  asn1.RawValue
	IssuerUID  asn1.BitString `asn1:"optional,tag:1"`
	SubjectUID asn1.BitString `asn1:"optional,tag:2"`
	Extensions []extension    `asn1:"explicit,optional,tag:3"`
}

type validity struct {
	NotBefore, NotAfter time.Time
}

type extension struct {
	ID       asn1.ObjectIdentifier
	Critical bool `asn1:"optional"`
	Value    []byte
}

type authorityKeyID struct {
	ID []byte `asn1:"optional,tag:0"`
}

// certificateFields are the parts of a certificate read from its DER before
// they are interpreted; both certificate readers produce them.
type certificateFields struct {
	rawTBS     []byte
	serial     []byte // INTEGER content octets
	sigAlg     algorithmIdentifier
	signature  []byte
	issuer     []byte // DER Name
	subject    []byte // DER Name
	notBefore  time.Time
	notAfter   time.Time
	publicKey  []byte // DER SubjectPublicKeyInfo
	extensions []extension
}

// parseCertificate reads a DER certificate. A public key chipauth cannot use is
// not an error here (master lists carry such certificates); it is kept in keyErr
// and reported when the key is needed.
//
// Certificates in plain DER of the usual shape are read by readCertificateDER
// (cryptobyte, no reflection); anything else goes to readCertificateASN1
// (encoding/asn1), which decides what is accepted: the first reads a subset of
// what the second accepts, into the same fields (certificate_der_test.go
// checks both on real and fuzzed certificates).
func parseCertificate(der []byte) (*certificate, error) {
	f, n, ok := readCertificateDER(der)
	if !ok {
		var err error
		if f, n, err = readCertificateASN1(der); err != nil {
			return nil, err
		}
	}
	return newCertificate(der[:n], f)
}

// readCertificateASN1 reads a certificate with encoding/asn1. n is the length
// of the certificate in der.
func readCertificateASN1(der []byte) (f certificateFields, n int, err error) {
	var rc rawCertificate
	rest, err := asn1.Unmarshal(der, &rc)
	if err != nil {
		return f, 0, fmt.Errorf("certificate: %w", err)
	}
	if len(rest) > 0 {
		return f, 0, errors.New("certificate: trailing data")
	}
	var tbs tbsCertificate
	if rest, err := asn1.Unmarshal(rc.TBS.FullBytes, &tbs); err != nil || len(rest) > 0 {
		return f, 0, fmt.Errorf("certificate: TBSCertificate: %v", err)
	}
	if tbs.Serial.Class != asn1.ClassUniversal || tbs.Serial.Tag != asn1.TagInteger || len(tbs.Serial.Bytes) == 0 {
		return f, 0, errors.New("certificate: malformed serial number")
	}
	return certificateFields{
		rawTBS:     rc.TBS.FullBytes,
		serial:     tbs.Serial.Bytes,
		sigAlg:     rc.SigAlg,
		signature:  rc.Signature.RightAlign(),
		issuer:     tbs.Issuer.FullBytes,
		subject:    tbs.Subject.FullBytes,
		notBefore:  tbs.Validity.NotBefore,
		notAfter:   tbs.Validity.NotAfter,
		publicKey:  tbs.PublicKey.FullBytes,
		extensions: tbs.Extensions,
	}, len(der) - len(rest), nil
}

// newCertificate interprets the fields of the certificate der.
func newCertificate(der []byte, f certificateFields) (*certificate, error) {
	c := &certificate{
		raw:         der,
		rawTBS:      f.rawTBS,
		serial:      parseInteger(f.serial),
		notBefore:   f.notBefore,
		notAfter:    f.notAfter,
		sigAlg:      f.sigAlg,
		signature:   f.signature,
		fingerprint: sha256.Sum256(der),
	}
	var err error
	if c.issuer, err = parseName(f.issuer); err != nil {
		return nil, fmt.Errorf("certificate: issuer: %w", err)
	}
	if c.subject, err = parseName(f.subject); err != nil {
		return nil, fmt.Errorf("certificate: subject: %w", err)
	}
	c.key, c.keyErr = parsePublicKey(f.publicKey)
	for _, ext := range f.extensions {
		switch {
		case ext.ID.Equal(oidSubjectKeyID):
			var id []byte
			if _, err := asn1.Unmarshal(ext.Value, &id); err == nil {
				c.subjectKeyID = id
			}
		case ext.ID.Equal(oidAuthorityKeyID):
			var aki authorityKeyID
			if _, err := asn1.Unmarshal(ext.Value, &aki); err == nil {
				c.authorityKID = aki.ID
			}
		case ext.ID.Equal(oidKeyUsage):
			var bits asn1.BitString
			if _, err := asn1.Unmarshal(ext.Value, &bits); err != nil {
				return nil, errors.New("certificate: malformed key usage")
			}
			c.hasKeyUsage = true
			for i := 0; i < bits.BitLength && i < 16; i++ {
				if bits.At(i) == 1 {
					c.keyUsage |= 1 << i
				}
			}
		}
	}
	return c, nil
}

// parseInteger reads two's-complement INTEGER content octets, tolerating the
// non-minimal encodings some issuing states put in serial numbers.
func parseInteger(b []byte) *big.Int {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(b)*8)))
	}
	return n
}

// validAt reports whether t lies inside the certificate's validity period.
func (c *certificate) validAt(t time.Time) bool {
	return !t.Before(c.notBefore) && !t.After(c.notAfter)
}

// checkSignatureFrom verifies that issuer's key signed c's TBSCertificate.
func (c *certificate) checkSignatureFrom(issuer *certificate) error {
	if issuer.keyErr != nil {
		return issuer.keyErr
	}
	alg, err := parseSignatureAlgorithm(c.sigAlg, 0)
	if err != nil {
		return err
	}
	return issuer.key.verify(alg, c.rawTBS, c.signature)
}
