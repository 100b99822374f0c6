package chipauth

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/digitorus/pkcs7"
)

// parseEnvelopePKCS7 runs digitorus/pkcs7 on untrusted bytes; a panic in the
// third-party parser is turned into an error so that the fuzz targets can use it.
func parseEnvelopePKCS7(b []byte) (p7 *pkcs7.PKCS7, err error) {
	defer func() {
		if r := recover(); r != nil {
			p7, err = nil, fmt.Errorf("pkcs7: %v", r)
		}
	}()
	return pkcs7.Parse(b)
}

// envelopeAgreement compares chipauth's reading of a ContentInfo with
// digitorus/pkcs7's. It reports whether pkcs7 could read it and, if both
// could, an error when they disagree on the content or the certificates.
func envelopeAgreement(ci []byte) (pkcs7Read bool, err error) {
	p7, perr := parseEnvelopePKCS7(ci)
	if perr != nil {
		return false, nil
	}
	sd, err := parseSignedData(ci)
	if err != nil {
		// pkcs7 is more lenient in places (signer infos, trailing data);
		// only envelopes both read are compared.
		return true, nil
	}
	if !bytes.Equal(p7.Content, sd.content) {
		return true, fmt.Errorf("content: pkcs7 read %d bytes, chipauth %d", len(p7.Content), len(sd.content))
	}
	if len(p7.Certificates) != len(sd.certs) {
		return true, fmt.Errorf("certificates: pkcs7 read %d, chipauth %d", len(p7.Certificates), len(sd.certs))
	}
	for i, c := range p7.Certificates {
		if !bytes.Equal(c.Raw, sd.certs[i].raw) {
			return true, fmt.Errorf("certificate %d differs", i)
		}
	}
	return true, nil
}

// TestEnvelopeAgreesWithPKCS7 checks chipauth's CMS reader against
// digitorus/pkcs7 on every real SOD and EF.CardSecurity: pkcs7 reads exactly
// the ones without explicit EC parameters, and where it does, both agree.
func TestEnvelopeAgreesWithPKCS7(t *testing.T) {
	tests := []struct {
		file  string
		pkcs7 bool // digitorus/pkcs7 (crypto/x509) can read the embedded certificates
	}{
		{"gmrtd_DE_EF_SOD.der", false},
		{"gmrtd_FI_EF_SOD.der", false},
		{"gmrtd_FR_EF_SOD.der", true},
		{"gmrtd_ID_EF_SOD.der", true},
		{"gmrtd_NZ_EF_SOD.der", true},
		{"gmrtd_PH_EF_SOD.der", true},
		{"gmrtd_RU_EF_SOD.der", false},
		{"gmrtd_SG_EF_SOD.der", true},
		{"gmrtd_GB2023_EF_SOD.der", false},
		{"gmrtd_US_EF_SOD.der", true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			ci, err := unwrapSOD(readTestdata(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := parseSignedData(ci); err != nil {
				t.Fatalf("chipauth reader: %v", err)
			}
			read, err := envelopeAgreement(ci)
			if err != nil {
				t.Fatalf("readers disagree: %v", err)
			}
			if read != tc.pkcs7 {
				t.Errorf("pkcs7 read it: %v, want %v", read, tc.pkcs7)
			}
		})
	}
}

// FuzzEnvelopeAgreesWithPKCS7 checks that on any input both CMS readers
// accept, they read the same content and certificates.
func FuzzEnvelopeAgreesWithPKCS7(f *testing.F) {
	addSeedFiles(f, "*_EF_SOD.der")
	addSeedFiles(f, "*_EF_CardSecurity.der")
	f.Fuzz(func(t *testing.T, sod []byte) {
		ci, err := unwrapSOD(sod)
		if err != nil {
			return
		}
		if _, err := envelopeAgreement(ci); err != nil {
			t.Fatalf("readers disagree: %v", err)
		}
	})
}
