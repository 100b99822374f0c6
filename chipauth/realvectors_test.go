package chipauth

import (
	"encoding/asn1"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// realNow lies inside every real DS's and the master list signer's validity
// window (the DE, FI and GB2023 SODs have no signing time).
func realNow() time.Time { return time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) }

// mustSignedData reads the CMS SignedData of sod (with or without its 0x77
// wrapper), failing tb when it cannot.
func mustSignedData(tb testing.TB, sod []byte) *signedData {
	tb.Helper()
	ci, err := unwrapSOD(sod)
	if err != nil {
		tb.Fatal(err)
	}
	sd, err := parseSignedData(ci)
	if err != nil {
		tb.Fatal(err)
	}
	return sd
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realTrust is the German master list (verified against the German root CSCA)
// plus the Indonesian CSCA and link certificates, loaded through LoadTrustDir.
var realTrust = sync.OnceValues(func() (*TrustStore, error) {
	dir, err := os.MkdirTemp("", "chipauth-trust")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"DE_ML_2026-05-28-08-28-45.ml", "IDN_2020-10_CSCA.cer", "IDN_2020-10_CSCA_LINK.cer"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return nil, err
		}
	}
	root, err := os.ReadFile(filepath.Join("testdata", "DE_ROOT_CA_CSCA07.cer"))
	if err != nil {
		return nil, err
	}
	return LoadTrustDir(dir, TrustOptions{MasterListRoots: [][]byte{root}, Now: realNow})
})

func mustRealTrust(t testing.TB) *TrustStore {
	t.Helper()
	ts, err := realTrust()
	if err != nil {
		t.Fatalf("LoadTrustDir: %v", err)
	}
	return ts
}

// TestRealSODs verifies the signature and DS chain of every real SOD in
// testdata (see testdata/PROVENANCE.md) and parses its hash list.
func TestRealSODs(t *testing.T) {
	ts := mustRealTrust(t)
	tests := []struct {
		file   string
		digest string
		sig    string
		key    string
		dgs    []int
		signed bool // has a signingTime attribute
	}{
		{"gmrtd_DE_EF_SOD.der", "SHA-384", "ECDSA-SHA-384", "EC brainpoolP384r1 (explicit)", []int{1, 2, 3, 14}, false},
		{"gmrtd_FI_EF_SOD.der", "SHA-512", "ECDSA-SHA-512", "EC brainpoolP512r1 (explicit)", []int{1, 2, 3, 7, 14}, false},
		{"gmrtd_FR_EF_SOD.der", "SHA-256", "RSA-PKCS1v15-SHA-256", "RSA-2048", []int{1, 2, 3, 11, 12, 13, 14}, true},
		{"gmrtd_ID_EF_SOD.der", "SHA-256", "RSASSA-PSS-SHA-256", "RSA-2048", []int{1, 2, 3, 14, 15}, true},
		{"gmrtd_NZ_EF_SOD.der", "SHA-256", "RSA-PKCS1v15-SHA-256", "RSA-2048", []int{1, 2, 12, 13, 14, 15}, true},
		{"gmrtd_PH_EF_SOD.der", "SHA-256", "RSASSA-PSS-SHA-256", "RSA-2048", []int{1, 2, 7, 11, 12, 15}, true},
		{"gmrtd_RU_EF_SOD.der", "SHA-1", "ECDSA-SHA-1", "EC P-256 (explicit)", []int{1, 2, 3, 13, 14}, true},
		{"gmrtd_SG_EF_SOD.der", "SHA-256", "RSASSA-PSS-SHA-256", "RSA-2048", []int{1, 2, 3, 4, 13, 14}, false},
		{"gmrtd_GB2023_EF_SOD.der", "SHA-256", "ECDSA-SHA-256", "EC P-256 (explicit)", []int{1, 2, 14}, false},
		{"gmrtd_US_EF_SOD.der", "SHA-256", "RSA-PKCS1v15-SHA-256", "RSA-2048", []int{1, 2, 11, 12}, true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			sod := readTestdata(t, tc.file)
			res, err := Verify(sod, nil, ts, Options{Now: realNow, WithoutDataGroups: true})
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if res.DigestAlgorithm != tc.digest || res.SignatureAlgorithm != tc.sig || res.SignerKey != tc.key {
				t.Errorf("algorithms %s %s %s, want %s %s %s", res.DigestAlgorithm, res.SignatureAlgorithm, res.SignerKey, tc.digest, tc.sig, tc.key)
			}
			if !slices.Equal(res.DataGroupsInSOD, tc.dgs) {
				t.Errorf("data groups %v, want %v", res.DataGroupsInSOD, tc.dgs)
			}
			if res.SigningTime.IsZero() == tc.signed || res.DSExpired || res.CSCAFingerprint == "" {
				t.Errorf("result %+v", res)
			}
			// Without WithoutDataGroups the missing DG1 is the (only) failure.
			if _, err := Verify(sod, nil, ts, Options{Now: realNow}); !errors.Is(err, ErrDG1Missing) {
				t.Errorf("without data groups: %v, want dg1_missing", err)
			}
			// A wrong DG1 is caught against the real hash list.
			if _, err := Verify(sod, map[int][]byte{1: []byte("not DG1")}, ts, Options{Now: realNow}); !errors.Is(err, DigestMismatch(1)) {
				t.Errorf("wrong DG1: %v, want digest_mismatch:DG1", err)
			}
		})
	}
}

// TestRealSODStripped checks the SODs without their 0x77 wrapper.
func TestRealSODStripped(t *testing.T) {
	ts := mustRealTrust(t)
	for _, name := range []string{"gmrtd_NZ_EF_SOD.der", "gmrtd_US_EF_SOD.der"} {
		e, _, err := readElement(readTestdata(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(e.content, nil, ts, Options{Now: realNow, WithoutDataGroups: true}); err != nil {
			t.Errorf("%s unwrapped: %v", name, err)
		}
	}
}

// TestRealSODWrongTrust checks that the German chain does not verify a SOD
// whose CSCA is not in the store (ID is only in the Indonesian files).
func TestRealSODWrongTrust(t *testing.T) {
	ts := NewTrustStore()
	if _, err := ts.AddCertificates(readTestdata(t, "DE_ROOT_CA_CSCA07.cer")); err != nil {
		t.Fatal(err)
	}
	_, err := Verify(readTestdata(t, "gmrtd_ID_EF_SOD.der"), nil, ts, Options{Now: realNow, WithoutDataGroups: true})
	if !errors.Is(err, ErrCSCANotFound) {
		t.Fatalf("got %v, want csca_not_found", err)
	}
}

// TestRealSODExpiry checks that a DS without signing time is judged at the clock.
func TestRealSODExpiry(t *testing.T) {
	ts := mustRealTrust(t)
	late := func() time.Time { return time.Date(2045, 1, 1, 0, 0, 0, 0, time.UTC) }
	sod := readTestdata(t, "gmrtd_GB2023_EF_SOD.der")
	res, err := Verify(sod, nil, ts, Options{Now: late, WithoutDataGroups: true})
	if !errors.Is(err, ErrDSExpired) || !res.DSExpired {
		t.Fatalf("got %v (DSExpired %v), want ds_expired", err, res.DSExpired)
	}
	res, err = Verify(sod, nil, ts, Options{Now: late, WithoutDataGroups: true, AllowExpired: true})
	if err != nil || !res.DSExpired || !res.DSExpiredNow {
		t.Fatalf("AllowExpired: %v %+v", err, res)
	}
}

// oidSecurityInfosCardSO is EF.CardSecurity's eContentType (BSI TR-03110 id-SecurityObject).
var oidSecurityInfosCardSO = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 3, 2, 1}

// TestRealCardSecurity parses EF.CardSecurity (SecurityInfos signed by the same
// DS) and checks its signature and chain with the SOD machinery.
func TestRealCardSecurity(t *testing.T) {
	ts := mustRealTrust(t)
	for _, name := range []string{"gmrtd_DE_EF_CardSecurity.der", "gmrtd_FI_EF_CardSecurity.der"} {
		sd, err := parseSignedData(readTestdata(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sd.contentType.Equal(oidSecurityInfosCardSO) || len(sd.content) == 0 {
			t.Errorf("%s: content type %v", name, sd.contentType)
		}
		sc, verr := checkSigner(sd)
		if verr != nil {
			t.Fatalf("%s: %v", name, verr)
		}
		if _, err := ts.issuerOf(sc.cert); err != nil {
			t.Errorf("%s: chain: %v", name, err)
		}
	}
}

// TestMasterList checks the German master list's contents and that it is
// refused without the right root.
func TestMasterList(t *testing.T) {
	ts := mustRealTrust(t)
	if ts.Len() != 588+2 || ts.Skipped() != 0 {
		t.Errorf("trust store has %d anchors (%d skipped), want 590", ts.Len(), ts.Skipped())
	}
	ml := readTestdata(t, "DE_ML_2026-05-28-08-28-45.ml")
	wrongRoot := readTestdata(t, "IDN_2020-10_CSCA.cer")
	_, err := NewTrustStore().AddMasterList(ml, TrustOptions{MasterListRoots: [][]byte{wrongRoot}, Now: realNow})
	if !errors.Is(err, ErrMasterListSignature) {
		t.Errorf("wrong root: %v, want master_list_signature", err)
	}
	_, err = NewTrustStore().AddMasterList(ml, TrustOptions{Now: realNow})
	if !errors.Is(err, ErrMasterListSignature) {
		t.Errorf("no root: %v, want master_list_signature", err)
	}
	tampered := slices.Clone(ml)
	tampered[len(tampered)/2] ^= 1
	root := readTestdata(t, "DE_ROOT_CA_CSCA07.cer")
	if _, err := NewTrustStore().AddMasterList(tampered, TrustOptions{MasterListRoots: [][]byte{root}, Now: realNow}); err == nil {
		t.Error("tampered master list accepted")
	}
}

// TestPEMBundle loads the PEM bundle of the CSCAs for the real SODs.
func TestPEMBundle(t *testing.T) {
	ts := NewTrustStore()
	n, err := ts.AddCertificates(readTestdata(t, "csca_for_gmrtd_sods.pem"))
	if err != nil || n != 19 {
		t.Fatalf("AddCertificates: %d, %v", n, err)
	}
	for _, name := range []string{"gmrtd_DE_EF_SOD.der", "gmrtd_SG_EF_SOD.der", "gmrtd_RU_EF_SOD.der"} {
		if _, err := Verify(readTestdata(t, name), nil, ts, Options{Now: realNow, WithoutDataGroups: true}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestLoadTrustDirRootInDir accepts a master list signed under a CSCA file of
// the same directory, without MasterListRoots.
func TestLoadTrustDirRootInDir(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"DE_ML_2026-05-28-08-28-45.ml", "DE_ROOT_CA_CSCA07.cer"} {
		if err := os.WriteFile(filepath.Join(dir, name), readTestdata(t, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := LoadTrustDir(dir, TrustOptions{Now: realNow})
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 588 { // the root is also in the list
		t.Errorf("Len = %d, want 588", ts.Len())
	}
	if _, err := Verify(readTestdata(t, "gmrtd_FI_EF_SOD.der"), nil, ts, Options{Now: realNow, WithoutDataGroups: true}); err != nil {
		t.Error(err)
	}
}
