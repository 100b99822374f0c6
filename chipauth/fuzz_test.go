package chipauth

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
)

func addSeedFiles(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s", pattern)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzVerifySOD feeds arbitrary bytes to the whole SOD path: BER reader, CMS
// reader, LDSSecurityObject, certificate and key parsers and
// signature checks. It must never panic.
func FuzzVerifySOD(f *testing.F) {
	addSeedFiles(f, "*_EF_SOD.der")
	addSeedFiles(f, "*_EF_CardSecurity.der")
	ts := NewTrustStore()
	if _, err := ts.AddCertificates(readTestdata(f, "csca_for_gmrtd_sods.pem")); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, sod []byte) {
		res, err := Verify(sod, map[int][]byte{1: sod}, ts, Options{Now: realNow, WithoutDataGroups: true})
		if (err == nil) != (res != nil && res.Verified) {
			t.Fatalf("error %v with result %+v", err, res)
		}
		if ci, err := unwrapSOD(sod); err == nil {
			_, _ = parseSignedData(ci)
		}
	})
}

// FuzzParseCertificate feeds arbitrary bytes to the certificate and
// SubjectPublicKeyInfo parsers, including explicit EC parameters.
func FuzzParseCertificate(f *testing.F) {
	addSeedFiles(f, "*.cer")
	for _, name := range []string{"gmrtd_DE_EF_SOD.der", "gmrtd_RU_EF_SOD.der", "gmrtd_ID_EF_SOD.der"} {
		for _, c := range mustSignedData(f, readTestdata(f, name)).certs {
			f.Add(c.raw)
			e, _, err := readElement(c.rawTBS)
			if err != nil {
				f.Fatal(err)
			}
			kids, _ := e.children()
			for _, k := range kids {
				if k.is(classUniversal, tagSequence) {
					f.Add(k.full) // SubjectPublicKeyInfo among the TBS fields
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, der []byte) {
		// Signatures are not checked here (FuzzVerifySOD does): generic-curve
		// arithmetic would make each run take tenths of a second.
		//
		// Whatever both this package and crypto/x509 parse, they must read alike:
		// the same fields and the same key (certificate_oracle_test.go).
		if c, err := parseCertificate(der); err == nil {
			_ = c.key.String()
			if x, err := x509.ParseCertificate(der); err == nil {
				if err := agreesWithX509(c, x); err != nil {
					t.Fatalf("certificate %x: %v", der, err)
				}
			}
		}
		if k, err := parsePublicKey(der); err == nil {
			_ = k.String()
			if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
				if err := keyAgrees(k, pub); err != nil {
					t.Fatalf("SubjectPublicKeyInfo %x: %v", der, err)
				}
			}
		}
	})
}

// FuzzParseMRZ feeds arbitrary strings to the MRZ and DG1 parsers. Whatever they
// accept must be what an independent reading of ICAO 9303 gives (mrz_oracle_test.go):
// every check digit recomputed with the 7-3-1 weights, and the same fields. A parser
// that skips or misplaces a check digit fails here on the seed corpus
// (testdata/fuzz/FuzzParseMRZ: specimens with one check digit wrong each).
func FuzzParseMRZ(f *testing.F) {
	for _, s := range []string{specimenTD1, specimenTD2, specimenTD3, specimenTD3[:44] + "\n" + specimenTD3[44:]} {
		f.Add([]byte(s))
		f.Add(append([]byte{0x61, byte(len(s) + 3), 0x5f, 0x1f, byte(len(s))}, s...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := ParseMRZ(string(b)); err == nil {
			_ = DocumentKey([]byte("k"), m)
			if err := agreesWithICAO(m, string(b)); err != nil {
				t.Fatalf("ParseMRZ(%q): %v", b, err)
			}
		}
		if m, err := ParseDG1(b); err == nil {
			if s, ok := dg1MRZ(b); ok {
				if err := agreesWithICAO(m, s); err != nil {
					t.Fatalf("ParseDG1(%x): %v", b, err)
				}
			}
		}
	})
}
