package deviceattest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"
)

// testCA is a throwaway certificate authority for building attestation chains.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

var testEpoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newTestKey(t testing.TB, c elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func issue(t testing.TB, tmpl *x509.Certificate, pub crypto.PublicKey, parent *testCA) *x509.Certificate {
	t.Helper()
	parentCert, signer := tmpl, crypto.Signer(nil)
	if parent != nil {
		parentCert, signer = parent.cert, parent.key
	}
	if signer == nil {
		t.Fatal("self-signed certificates go through newTestRoot")
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parentCert, pub, signer)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func caTemplate(cn string, serial int64) *x509.Certificate {
	return &x509.Certificate{
		SerialNumber:          big.NewInt(serial),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             testEpoch.Add(-24 * time.Hour),
		NotAfter:              testEpoch.Add(365 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
}

func newTestRoot(t testing.TB, cn string) *testCA {
	t.Helper()
	key := newTestKey(t, elliptic.P384())
	tmpl := caTemplate(cn, 1)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: c, key: key}
}

func (ca *testCA) intermediate(t testing.TB, cn string) *testCA {
	t.Helper()
	key := newTestKey(t, elliptic.P256())
	return &testCA{cert: issue(t, caTemplate(cn, 2), &key.PublicKey, ca), key: key}
}
