package chipauth_test

import (
	"crypto"
	"sync"
	"testing"
	"time"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// testNow is the fixed clock of the synthetic tests.
var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return testNow }

// yearAgo is the notBefore of the test certificates.
var yearAgo = testNow.AddDate(-1, 0, 0)

// pki is the synthetic PKI shared by the tests of one run: generating RSA keys
// is slow, so each key is made once. The EC CSCA is P-256 because brainpool
// arithmetic in Go is generic big.Int code and slow under -race; brainpool
// CSCAs are covered by the real German vectors and the benchmark.
type pki struct {
	cscaEC, cscaRSA *sandbox.CSCA          // P-256 with explicit parameters; RSA-2048
	ds              map[string]*sandbox.DS // by key type, plus "+explicit" for explicit parameters
	issuer          *sandbox.CSCA          // samePKI's one CSCA (the issuer of its one DS)
	trust           *chipauth.TrustStore
}

var testPKI = sync.OnceValues(func() (*pki, error) {
	opts := sandbox.CertOptions{NotBefore: yearAgo, ExplicitParams: true}
	p := &pki{ds: map[string]*sandbox.DS{}}
	var err error
	if p.cscaEC, err = sandbox.NewTestCSCA(sandbox.P256, opts); err != nil {
		return nil, err
	}
	if p.cscaRSA, err = sandbox.NewTestCSCA(sandbox.RSA2048, sandbox.CertOptions{NotBefore: yearAgo, CommonName: "Sandbox CSCA RSA"}); err != nil {
		return nil, err
	}
	if p.ds["RSA-2048"], err = p.cscaRSA.NewDS(sandbox.RSA2048, sandbox.CertOptions{NotBefore: yearAgo, Scheme: sandbox.PSS, Hash: crypto.SHA256}); err != nil {
		return nil, err
	}
	for _, kt := range []sandbox.KeyType{sandbox.P256, sandbox.P384, sandbox.P521, sandbox.BrainpoolP256r1, sandbox.BrainpoolP384r1, sandbox.BrainpoolP512r1} {
		if p.ds[string(kt)], err = p.cscaEC.NewDS(kt, sandbox.CertOptions{NotBefore: yearAgo, Hash: crypto.SHA384}); err != nil {
			return nil, err
		}
		if p.ds[string(kt)+"+explicit"], err = p.cscaEC.NewDS(kt, sandbox.CertOptions{NotBefore: yearAgo, ExplicitParams: true, Hash: crypto.SHA512}); err != nil {
			return nil, err
		}
	}
	p.trust = chipauth.NewTrustStore()
	for _, ca := range []*sandbox.CSCA{p.cscaEC, p.cscaRSA} {
		if _, err := p.trust.AddCertificates(ca.PEM()); err != nil {
			return nil, err
		}
	}
	return p, nil
})

func mustPKI(t testing.TB) *pki {
	t.Helper()
	p, err := testPKI()
	if err != nil {
		t.Fatalf("test PKI: %v", err)
	}
	return p
}

// testMRZ is ICAO's specimen passport holder (Doc 9303-4 appendix).
var testMRZ = sandbox.MRZFields{
	IssuingState:   "UTO",
	Surname:        "ERIKSSON",
	GivenNames:     "ANNA MARIA",
	DocumentNumber: "L898902C3",
	BirthDate:      time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC),
	Sex:            "F",
	Expiry:         time.Date(2032, 4, 15, 0, 0, 0, 0, time.UTC),
	PersonalNumber: "ZE184226B",
}

// testDataGroups returns DG1 (the specimen MRZ) and a stand-in DG2.
func testDataGroups(t testing.TB) map[int][]byte {
	t.Helper()
	dg1, err := sandbox.BuildDG1(testMRZ)
	if err != nil {
		t.Fatal(err)
	}
	return map[int][]byte{1: dg1, 2: []byte("\x75\x05DG2..")}
}

// brainpoolPKI is a German-style chain: brainpoolP384r1 CSCA and DS, explicit parameters.
var brainpoolPKI = sync.OnceValues(func() (*pki, error) {
	p := &pki{ds: map[string]*sandbox.DS{}}
	var err error
	if p.cscaEC, err = sandbox.NewTestCSCA(sandbox.BrainpoolP384r1, sandbox.CertOptions{NotBefore: yearAgo, ExplicitParams: true, Hash: crypto.SHA384}); err != nil {
		return nil, err
	}
	if p.ds["brainpoolP384r1+explicit"], err = p.cscaEC.NewDS(sandbox.BrainpoolP384r1, sandbox.CertOptions{NotBefore: yearAgo, ExplicitParams: true, Hash: crypto.SHA384}); err != nil {
		return nil, err
	}
	p.trust = chipauth.NewTrustStore()
	if _, err := p.trust.AddCertificates(p.cscaEC.DER); err != nil {
		return nil, err
	}
	return p, nil
})
