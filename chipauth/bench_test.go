package chipauth_test

import (
	"crypto"
	"testing"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// benchmarkVerify measures one full passive authentication: SOD parse, DS
// signature, DS→CSCA signature and the DG1/DG2 hashes. The same document is
// verified over and over, so from the second one on its DS certificate comes
// from the TrustStore's signer cache, as it does in service, where one DS
// certificate signs every document of its signing period.
func benchmarkVerify(b *testing.B, p *pki, ds string, scheme sandbox.Scheme, h crypto.Hash) {
	benchmarkVerifyWith(b, p.trust, p.ds[ds], scheme, h)
}

// benchmarkVerifyNewDS is benchmarkVerify with the signer cache off: every
// document reads its DS certificate and prepares its key, as the first document
// under a DS certificate does. csca is the DS's issuer.
func benchmarkVerifyNewDS(b *testing.B, csca *sandbox.CSCA, ds *sandbox.DS, scheme sandbox.Scheme, h crypto.Hash) {
	trust := chipauth.NewTrustStore()
	if _, err := trust.AddCertificates(csca.DER); err != nil {
		b.Fatal(err)
	}
	trust.SetSignerCacheSize(0)
	benchmarkVerifyWith(b, trust, ds, scheme, h)
}

func benchmarkVerifyWith(b *testing.B, trust *chipauth.TrustStore, ds *sandbox.DS, scheme sandbox.Scheme, h crypto.Hash) {
	dgs := testDataGroups(b)
	sod, err := sandbox.BuildSOD(ds, dgs, h, scheme, sandbox.SODOptions{LDSVersion: 1})
	if err != nil {
		b.Fatal(err)
	}
	opts := chipauth.Options{Now: clock, Pepper: []byte("pepper")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := chipauth.Verify(sod, dgs, trust, opts); err != nil {
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

// samePKI is a one-level chain whose CSCA and DS keys are both of type kt, so that
// a document costs two verifications of that type (the pair scripts/bench.sh compares
// with openssl speed). Brainpool keys carry explicit parameters, as German ones do.
func samePKI(b *testing.B, kt sandbox.KeyType, h crypto.Hash) *pki {
	b.Helper()
	opts := sandbox.CertOptions{NotBefore: yearAgo, Hash: h, ExplicitParams: kt != sandbox.RSA3072 && kt != sandbox.RSA4096}
	ca, err := sandbox.NewTestCSCA(kt, opts)
	if err != nil {
		b.Fatal(err)
	}
	ds, err := ca.NewDS(kt, opts)
	if err != nil {
		b.Fatal(err)
	}
	p := &pki{cscaEC: ca, issuer: ca, ds: map[string]*sandbox.DS{string(kt): ds}, trust: chipauth.NewTrustStore()}
	if _, err := p.trust.AddCertificates(ca.DER); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkVerifyRSA3072 is an RSA-3072 PKCS#1 v1.5 document under an RSA-3072 CSCA.
func BenchmarkVerifyRSA3072(b *testing.B) {
	benchmarkVerify(b, samePKI(b, sandbox.RSA3072, crypto.SHA256), string(sandbox.RSA3072), sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyRSA4096 is an RSA-4096 PKCS#1 v1.5 document under an RSA-4096 CSCA.
func BenchmarkVerifyRSA4096(b *testing.B) {
	benchmarkVerify(b, samePKI(b, sandbox.RSA4096, crypto.SHA256), string(sandbox.RSA4096), sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyBrainpoolP256 is a brainpoolP256r1 document under a brainpoolP256r1 CSCA.
func BenchmarkVerifyBrainpoolP256(b *testing.B) {
	benchmarkVerify(b, samePKI(b, sandbox.BrainpoolP256r1, crypto.SHA256), string(sandbox.BrainpoolP256r1), sandbox.ECDSA, crypto.SHA256)
}

// BenchmarkVerifyBrainpoolP512 is a brainpoolP512r1 document under a brainpoolP512r1 CSCA.
func BenchmarkVerifyBrainpoolP512(b *testing.B) {
	benchmarkVerify(b, samePKI(b, sandbox.BrainpoolP512r1, crypto.SHA512), string(sandbox.BrainpoolP512r1), sandbox.ECDSA, crypto.SHA512)
}

// BenchmarkVerifyRSA2048NewDS is BenchmarkVerifyRSA2048 with every document under
// a DS certificate the TrustStore has not seen (signer cache off).
func BenchmarkVerifyRSA2048NewDS(b *testing.B) {
	p := mustPKI(b)
	benchmarkVerifyNewDS(b, p.cscaRSA, p.ds["RSA-2048"], sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyRSA3072NewDS is BenchmarkVerifyRSA3072 with every document under
// a DS certificate the TrustStore has not seen (signer cache off).
func BenchmarkVerifyRSA3072NewDS(b *testing.B) {
	p := samePKI(b, sandbox.RSA3072, crypto.SHA256)
	benchmarkVerifyNewDS(b, p.issuer, p.ds[string(sandbox.RSA3072)], sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyRSA4096NewDS is BenchmarkVerifyRSA4096 with every document under
// a DS certificate the TrustStore has not seen (signer cache off).
func BenchmarkVerifyRSA4096NewDS(b *testing.B) {
	p := samePKI(b, sandbox.RSA4096, crypto.SHA256)
	benchmarkVerifyNewDS(b, p.issuer, p.ds[string(sandbox.RSA4096)], sandbox.PKCS1v15, crypto.SHA256)
}

// BenchmarkVerifyBrainpoolP256NewDS is BenchmarkVerifyBrainpoolP256 with every
// document under a DS certificate the TrustStore has not seen (signer cache off).
func BenchmarkVerifyBrainpoolP256NewDS(b *testing.B) {
	p := samePKI(b, sandbox.BrainpoolP256r1, crypto.SHA256)
	benchmarkVerifyNewDS(b, p.issuer, p.ds[string(sandbox.BrainpoolP256r1)], sandbox.ECDSA, crypto.SHA256)
}
