package sandbox

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
)

// MarshalPEM returns the certificate and its PKCS#8 private key as PEM, for an
// embedder that keeps its sandbox CSCA across restarts (the reference server
// writes it with mode 0600). Brainpool keys cannot be written: crypto/x509 has
// no PKCS#8 encoding for them, so use RSA or NIST keys for a kept CSCA.
func (c *Certificate) MarshalPEM() ([]byte, error) {
	key, err := x509.MarshalPKCS8PrivateKey(c.Key)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	out := c.PEM()
	return append(out, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key})...), nil
}

// ParseCSCA reads a CSCA written by MarshalPEM. The certificate must be one
// crypto/x509 reads: an RSA key or a NIST curve given by name (not ExplicitParams).
func ParseCSCA(data []byte) (*CSCA, error) {
	var certDER, keyDER []byte
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		switch block.Type {
		case "CERTIFICATE":
			certDER = block.Bytes
		case "PRIVATE KEY":
			keyDER = block.Bytes
		}
	}
	if certDER == nil || keyDER == nil {
		return nil, errors.New("sandbox: CERTIFICATE and PRIVATE KEY blocks required")
	}
	cert, err := x509.ParseCertificate(certDER)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	key, err := x509.ParsePKCS8PrivateKey(keyDER)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, errors.New("sandbox: key cannot sign")
	}
	pub, ok := signer.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(cert.PublicKey) {
		return nil, errors.New("sandbox: key does not match certificate")
	}
	return &CSCA{Certificate: Certificate{
		DER: certDER, Key: signer, subject: cert.RawSubject, skid: cert.SubjectKeyId, serial: cert.SerialNumber,
	}}, nil
}
