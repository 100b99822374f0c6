package sandbox

import (
	"crypto"
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/digitorus/pkcs7"
)

// TestCertificatesParseWithX509 cross-checks the certificate writer against
// crypto/x509 for the keys it can read (RSA, named NIST curves).
func TestCertificatesParseWithX509(t *testing.T) {
	csca, err := NewTestCSCA(P384, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(csca.DER)
	if err != nil {
		t.Fatalf("CSCA: %v", err)
	}
	if !caCert.IsCA || caCert.KeyUsage&x509.KeyUsageCertSign == 0 {
		t.Errorf("CSCA is not a CA: %+v", caCert)
	}
	for _, kt := range []KeyType{RSA2048, P256, P521} {
		ds, err := csca.NewDS(kt, CertOptions{Hash: crypto.SHA512})
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(ds.DER)
		if err != nil {
			t.Fatalf("%s: %v", kt, err)
		}
		if err := c.CheckSignatureFrom(caCert); err != nil {
			t.Errorf("%s: %v", kt, err)
		}
		if c.KeyUsage != x509.KeyUsageDigitalSignature {
			t.Errorf("%s: key usage %v", kt, c.KeyUsage)
		}
	}
}

// TestSODVerifiesWithPKCS7 cross-checks the SOD writer against digitorus/pkcs7.
func TestSODVerifiesWithPKCS7(t *testing.T) {
	csca, err := NewTestCSCA(RSA2048, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := csca.NewDS(RSA2048, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, unsorted := range []bool{false, true} {
		sod, err := BuildSOD(ds, map[int][]byte{1: []byte("dg1"), 2: []byte("dg2")}, crypto.SHA256, PKCS1v15,
			SODOptions{Unwrapped: true, SigningTime: time.Now().Add(-time.Minute), LDSVersion: 1, UnsortedAttributes: unsorted})
		if err != nil {
			t.Fatal(err)
		}
		p7, err := pkcs7.Parse(sod)
		if err != nil {
			t.Fatal(err)
		}
		// pkcs7 re-encodes (and so re-sorts) signed attributes before checking
		// them: it verifies DER-ordered ones and fails on the others, which is why
		// chipauth verifies the original bytes.
		if err := p7.Verify(); (err == nil) == unsorted {
			t.Errorf("unsorted=%v: pkcs7 Verify: %v", unsorted, err)
		}
	}
}

func TestBuildMRZ(t *testing.T) {
	mrz, err := BuildMRZ(MRZFields{
		IssuingState: "UTO", Surname: "Eriksson", GivenNames: "Anna Maria", DocumentNumber: "L898902C3",
		BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC), Sex: "F",
		Expiry: time.Date(2012, 4, 15, 0, 0, 0, 0, time.UTC), PersonalNumber: "ZE184226B",
	})
	if err != nil {
		t.Fatal(err)
	}
	// ICAO Doc 9303-4 specimen.
	want := "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<" + "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
	if mrz != want {
		t.Errorf("got  %s\nwant %s", mrz, want)
	}
	if _, err := BuildMRZ(MRZFields{IssuingState: "UTO", DocumentNumber: strings.Repeat("1", 10)}); err == nil {
		t.Error("incomplete fields accepted")
	}
}

func TestBuildSODRejects(t *testing.T) {
	csca, err := NewTestCSCA(P256, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := csca.NewDS(P256, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dgs := map[int][]byte{1: []byte("dg1")}
	if _, err := BuildSOD(ds, dgs, crypto.SHA256, PSS, SODOptions{}); err == nil {
		t.Error("PSS with an EC key accepted")
	}
	if _, err := BuildSOD(ds, dgs, crypto.MD5, ECDSA, SODOptions{}); err == nil {
		t.Error("MD5 accepted")
	}
	if _, err := BuildSOD(ds, map[int][]byte{17: nil}, crypto.SHA256, ECDSA, SODOptions{}); err == nil {
		t.Error("DG17 accepted")
	}
	if _, err := BuildSOD(nil, dgs, crypto.SHA256, ECDSA, SODOptions{}); err == nil {
		t.Error("nil DS accepted")
	}
}

func TestCSCARoundTrip(t *testing.T) {
	csca, err := NewTestCSCA(P256, CertOptions{ExplicitParams: false})
	if err != nil {
		t.Fatal(err)
	}
	b, err := csca.MarshalPEM()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseCSCA(b)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := back.NewDS(P256, CertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(ds.DER)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(csca.DER)
	if err := c.CheckSignatureFrom(ca); err != nil {
		t.Error(err)
	}
	if _, err := ParseCSCA(csca.PEM()); err == nil {
		t.Error("certificate without key accepted")
	}
}
