package chipauth_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth"
)

func writeFiles(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadTrustDir(t *testing.T) {
	p := mustPKI(t)
	dir := writeFiles(t, map[string][]byte{
		"ec.pem":     p.cscaEC.PEM(),
		"rsa.cer":    p.cscaRSA.DER,
		"README.txt": []byte("ignored"),
	})
	ts, err := chipauth.LoadTrustDir(dir, chipauth.TrustOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 2 {
		t.Errorf("Len = %d, want 2", ts.Len())
	}
	if n, err := ts.AddCertificates(p.cscaEC.DER); err != nil || n != 0 {
		t.Errorf("re-adding a CSCA: %d %v, want 0 new", n, err)
	}
}

func TestLoadTrustDirErrors(t *testing.T) {
	p := mustPKI(t)
	ml, err := os.ReadFile(filepath.Join("testdata", "DE_ML_2026-05-28-08-28-45.ml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		files map[string][]byte
		want  error
	}{
		"bad certificate":              {map[string][]byte{"bad.pem": []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")}, chipauth.ErrTrustStore},
		"truncated DER":                {map[string][]byte{"bad.der": p.cscaRSA.DER[:100]}, chipauth.ErrTrustStore},
		"master list without its root": {map[string][]byte{"de.ml": ml, "ec.pem": p.cscaEC.PEM()}, chipauth.ErrMasterListSignature},
		"not a master list":            {map[string][]byte{"x.ml": p.cscaRSA.DER}, chipauth.ErrTrustStore},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := chipauth.LoadTrustDir(writeFiles(t, tc.files), chipauth.TrustOptions{Now: clock})
			if !errors.Is(err, tc.want) || !veriland.IsCode(err, veriland.CodeValidationFailed) {
				t.Errorf("err = %v, want %v with validation_failed", err, tc.want)
			}
		})
	}
	if _, err := chipauth.LoadTrustDir(filepath.Join(t.TempDir(), "missing"), chipauth.TrustOptions{}); !errors.Is(err, chipauth.ErrTrustStore) {
		t.Errorf("missing dir: %v", err)
	}
}
