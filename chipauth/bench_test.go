package chipauth_test

import (
	"crypto"
	"testing"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// benchmarkVerify measures one full passive authentication: SOD parse, DS
// signature, DS→CSCA signature and the DG1/DG2 hashes.
func benchmarkVerify(b *testing.B, p *pki, ds string, scheme sandbox.Scheme, h crypto.Hash) {
	dgs := testDataGroups(b)
	sod, err := sandbox.BuildSOD(p.ds[ds], dgs, h, scheme, sandbox.SODOptions{LDSVersion: 1})
	if err != nil {
		b.Fatal(err)
	}
	opts := chipauth.Options{Now: clock, Pepper: []byte("pepper")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := chipauth.Verify(sod, dgs, p.trust, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyRSA2048 is an RSA-2048 PKCS#1 v1.5 document under an RSA-2048 CSCA (PSS).
func BenchmarkVerifyRSA2048(b *testing.B) {
	benchmarkVerify(b, mustPKI(b), "RSA-2048", sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyBrainpoolP384 is a brainpoolP384r1 (explicit parameters) document
// under a brainpoolP384r1 CSCA, as German passports are.
func BenchmarkVerifyBrainpoolP384(b *testing.B) {
	p, err := brainpoolPKI()
	if err != nil {
		b.Fatal(err)
	}
	benchmarkVerify(b, p, "brainpoolP384r1+explicit", sandbox.ECDSA, crypto.SHA384)
}
