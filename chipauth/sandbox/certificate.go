package sandbox

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"time"
)

// CertOptions shapes a test certificate. Zero values take the defaults noted.
type CertOptions struct {
	Country    string    // two-letter country of the subject; default "UT" (ICAO's Utopia)
	CommonName string    // default "Sandbox CSCA" / "Sandbox Document Signer"
	NotBefore  time.Time // default: now - 1 hour (now from Now)
	NotAfter   time.Time // default: NotBefore + 10 years (CSCA) or + 5 years (DS)
	// ExplicitParams writes EC keys with explicit domain parameters instead of a
	// named curve, as ICAO Doc 9303-12 asks (and crypto/x509 cannot parse).
	ExplicitParams bool
	// Scheme and Hash are how the issuer signs the certificate; defaults: the
	// issuer key's natural scheme (PKCS1v15 for RSA) and SHA-256.
	Scheme Scheme
	Hash   crypto.Hash
	// OmitKeyUsage leaves out the keyUsage extension (for negative tests).
	OmitKeyUsage bool
	Now          func() time.Time // clock; nil means time.Now
	Rand         io.Reader        // randomness; nil means crypto/rand
}

// Certificate is an issued test certificate and its private key.
type Certificate struct {
	DER []byte        // the certificate
	Key crypto.Signer // its private key

	subject []byte // DER Name
	skid    []byte
	serial  *big.Int
}

// PEM returns the certificate PEM-encoded.
func (c *Certificate) PEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.DER})
}

// CSCA is a test Country Signing CA.
type CSCA struct{ Certificate }

// DS is a test Document Signer issued by a CSCA.
type DS struct {
	Certificate
	Issuer *CSCA // the CSCA that issued it
}

// NewTestCSCA creates a self-signed test CSCA with a new key of type kt.
func NewTestCSCA(kt KeyType, opts CertOptions) (*CSCA, error) {
	key, err := GenerateKey(kt, opts.Rand)
	if err != nil {
		return nil, err
	}
	if opts.CommonName == "" {
		opts.CommonName = "Sandbox CSCA"
	}
	c, err := issue(key, key, nil, nil, opts, true)
	if err != nil {
		return nil, err
	}
	return &CSCA{Certificate: *c}, nil
}

// NewDS issues a Document Signer certificate for a new key of type kt.
func (ca *CSCA) NewDS(kt KeyType, opts CertOptions) (*DS, error) {
	key, err := GenerateKey(kt, opts.Rand)
	if err != nil {
		return nil, err
	}
	if opts.CommonName == "" {
		opts.CommonName = "Sandbox Document Signer"
	}
	c, err := issue(key, ca.Key, ca.subject, ca.skid, opts, false)
	if err != nil {
		return nil, err
	}
	return &DS{Certificate: *c, Issuer: ca}, nil
}

var (
	oidSubjectKeyID   = asn1.ObjectIdentifier{2, 5, 29, 14}
	oidKeyUsage       = asn1.ObjectIdentifier{2, 5, 29, 15}
	oidBasicConstr    = asn1.ObjectIdentifier{2, 5, 29, 19}
	oidAuthorityKeyID = asn1.ObjectIdentifier{2, 5, 29, 35}
)

// issue writes and signs a certificate for key; issuerName nil means self-signed.
func issue(key, issuerKey crypto.Signer, issuerName, issuerSKID []byte, opts CertOptions, ca bool) (*Certificate, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if opts.Country == "" {
		opts.Country = "UT"
	}
	if opts.NotBefore.IsZero() {
		opts.NotBefore = now().Add(-time.Hour)
	}
	if opts.NotAfter.IsZero() {
		years := 5
		if ca {
			years = 10
		}
		opts.NotAfter = opts.NotBefore.AddDate(years, 0, 0)
	}
	if opts.Hash == 0 {
		opts.Hash = crypto.SHA256
	}
	if opts.Scheme == "" {
		opts.Scheme = naturalScheme(issuerKey)
	}
	subject, err := asn1.Marshal(pkix.Name{Country: []string{opts.Country}, CommonName: opts.CommonName}.ToRDNSequence())
	if err != nil {
		return nil, err
	}
	spki, err := marshalPublicKey(key.Public(), opts.ExplicitParams)
	if err != nil {
		return nil, err
	}
	skid := subjectKeyID(spki)
	if issuerName == nil {
		issuerName, issuerSKID = subject, skid
	}
	random := opts.Rand
	if random == nil {
		random = rand.Reader
	}
	serial, err := rand.Int(random, new(big.Int).Lsh(big.NewInt(1), 63))
	if err != nil {
		return nil, err
	}
	sigAlg, err := signatureAlgorithm(opts.Scheme, opts.Hash)
	if err != nil {
		return nil, err
	}
	var exts [][]byte
	exts = append(exts, extension(oidSubjectKeyID, false, mustMarshal(skid)))
	exts = append(exts, extension(oidAuthorityKeyID, false, tlv(0x30, tlv(0x80, issuerSKID))))
	if !opts.OmitKeyUsage {
		usage := asn1.BitString{Bytes: []byte{0x80}, BitLength: 1} // digitalSignature
		if ca {
			usage = asn1.BitString{Bytes: []byte{0x06}, BitLength: 7} // keyCertSign, cRLSign
		}
		exts = append(exts, extension(oidKeyUsage, true, mustMarshal(usage)))
	}
	if ca {
		exts = append(exts, extension(oidBasicConstr, true, mustMarshal(struct {
			CA      bool
			PathLen int
		}{true, 0})))
	}
	validity, err := asn1.Marshal(struct{ NotBefore, NotAfter time.Time }{opts.NotBefore.UTC(), opts.NotAfter.UTC()})
	if err != nil {
		return nil, err
	}
	tbs := tlv(0x30,
		tlv(0xa0, mustMarshal(2)),
		mustMarshal(serial),
		sigAlg,
		issuerName,
		validity,
		subject,
		spki,
		tlv(0xa3, tlv(0x30, exts...)),
	)
	sig, err := sign(issuerKey, opts.Scheme, opts.Hash, opts.Rand, tbs)
	if err != nil {
		return nil, fmt.Errorf("sandbox: signing certificate: %w", err)
	}
	bits := mustMarshal(asn1.BitString{Bytes: sig, BitLength: 8 * len(sig)})
	return &Certificate{DER: tlv(0x30, tbs, sigAlg, bits), Key: key, subject: subject, skid: skid, serial: serial}, nil
}

func extension(oid asn1.ObjectIdentifier, critical bool, value []byte) []byte {
	parts := [][]byte{mustMarshal(oid)}
	if critical {
		parts = append(parts, mustMarshal(true))
	}
	return tlv(0x30, append(parts, mustMarshal(value))...)
}

func naturalScheme(key crypto.Signer) Scheme {
	if _, ok := key.Public().(*rsa.PublicKey); ok {
		return PKCS1v15
	}
	return ECDSA
}
