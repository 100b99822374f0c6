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

// parseCertificate reads a DER certificate. A public key chipauth cannot use is
// not an error here (master lists carry such certificates); it is kept in keyErr
// and reported when the key is needed.
func parseCertificate(der []byte) (*certificate, error) {
	var rc rawCertificate
	rest, err := asn1.Unmarshal(der, &rc)
	if err != nil {
		return nil, fmt.Errorf("certificate: %w", err)
	}
	if len(rest) > 0 {
		return nil, errors.New("certificate: trailing data")
	}
	var tbs tbsCertificate
	if rest, err := asn1.Unmarshal(rc.TBS.FullBytes, &tbs); err != nil || len(rest) > 0 {
		return nil, fmt.Errorf("certificate: TBSCertificate: %v", err)
	}
	if tbs.Serial.Class != asn1.ClassUniversal || tbs.Serial.Tag != asn1.TagInteger || len(tbs.Serial.Bytes) == 0 {
		return nil, errors.New("certificate: malformed serial number")
	}
	c := &certificate{
		raw:         der[:len(der)-len(rest)],
		rawTBS:      rc.TBS.FullBytes,
		serial:      parseInteger(tbs.Serial.Bytes),
		notBefore:   tbs.Validity.NotBefore,
		notAfter:    tbs.Validity.NotAfter,
		sigAlg:      rc.SigAlg,
		signature:   rc.Signature.RightAlign(),
		fingerprint: sha256.Sum256(der),
	}
	if c.issuer, err = parseName(tbs.Issuer.FullBytes); err != nil {
		return nil, fmt.Errorf("certificate: issuer: %w", err)
	}
	if c.subject, err = parseName(tbs.Subject.FullBytes); err != nil {
		return nil, fmt.Errorf("certificate: subject: %w", err)
	}
	c.key, c.keyErr = parsePublicKey(tbs.PublicKey.FullBytes)
	for _, ext := range tbs.Extensions {
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
