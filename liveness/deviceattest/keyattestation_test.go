package deviceattest

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
)

const kaDir = "testdata/keyattestation"

func readChain(t testing.TB, name string) []*x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kaDir, name+".pem"))
	if err != nil {
		t.Fatal(err)
	}
	certs, err := ParseCertificatesPEM(data)
	if err != nil {
		t.Fatal(err)
	}
	return certs
}

func chainToken(certs []*x509.Certificate) string {
	ders := make([]string, len(certs))
	for i, c := range certs {
		ders[i] = base64.StdEncoding.EncodeToString(c.Raw)
	}
	js, _ := json.Marshal(ders)
	return base64.StdEncoding.EncodeToString(js)
}

// googleJSON is the subset of Google's decoded KeyDescription the tests compare.
type googleJSON struct {
	AttestationVersion       string `json:"attestationVersion"`
	AttestationSecurityLevel string `json:"attestationSecurityLevel"`
	KeyMintVersion           string `json:"keyMintVersion"`
	KeyMintSecurityLevel     string `json:"keyMintSecurityLevel"`
	AttestationChallenge     []byte `json:"attestationChallenge"`
	HardwareEnforced         struct {
		RootOfTrust *struct {
			VerifiedBootKey   []byte `json:"verifiedBootKey"`
			DeviceLocked      bool   `json:"deviceLocked"`
			VerifiedBootState string `json:"verifiedBootState"`
			VerifiedBootHash  []byte `json:"verifiedBootHash"`
		} `json:"rootOfTrust"`
		OSVersion        string `json:"osVersion"`
		OSPatchLevel     string `json:"osPatchLevel"`
		VendorPatchLevel string `json:"vendorPatchLevel"`
		BootPatchLevel   string `json:"bootPatchLevel"`
	} `json:"hardwareEnforced"`
}

func readGoogleJSON(t testing.TB, name string) *googleJSON {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kaDir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for l := range strings.SplitSeq(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines = append(lines, l)
		}
	}
	var g googleJSON
	if err := json.Unmarshal([]byte(strings.Join(lines, "\n")), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func googleLevel(s string) string {
	return map[string]string{"TRUSTED_ENVIRONMENT": "TEE", "STRONG_BOX": "STRONGBOX", "SOFTWARE": "SOFTWARE"}[s]
}

func fixedClock(s string) func() time.Time {
	ts, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return func() time.Time { return ts }
}

func newKAVerifier(t testing.TB, at string, mod ...func(*KeyAttestationConfig)) *KeyAttestationVerifier {
	t.Helper()
	cfg := KeyAttestationConfig{Now: fixedClock(at)}
	for _, m := range mod {
		m(&cfg)
	}
	v, err := NewKeyAttestationVerifier(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var keyAttestationVectors = []struct {
	name      string
	at        string
	hasJSON   bool
	chainErr  error // outcome of VerifyChain
	verifyErr error // outcome of VerifyChallenge; nil = accept
	level     string
}{
	{"tegu_sdk36_TEE_EC_2026_ROOT", "2026-02-22T00:08:00Z", true, nil, nil, "TEE"},
	{"tegu_sdk36_SB_EC_2026_ROOT", "2026-02-22T00:09:00Z", true, nil, nil, "STRONGBOX"},
	{"caiman_sdk36_TEE_EC_RKP", "2025-09-25T17:15:00Z", true, nil, nil, "TEE"},
	{"sony-xperia10-iii_sdk33_TEE_EC", "2023-08-01T00:00:00Z", true, nil, nil, "TEE"},
	{"blueline_sdk28_TEE_EC_NONE", "2019-06-01T00:00:00Z", true, nil, ErrBootNotVerified, ""},
	{"marlin_sdk29_TEE_EC_NONE", "2020-01-01T00:00:00Z", true, ErrUntrustedRoot, ErrUntrustedRoot, ""},
	{"invalid_malformed_rot_device_locked", "2023-01-01T00:00:00Z", false, nil, ErrMalformedKeyDescription, ""},
	{"invalid_tags_not_in_ascending_order", "2023-01-01T00:00:00Z", false, ErrChainSignature, ErrChainSignature, ""},
}

func TestKeyAttestationVectors(t *testing.T) {
	for _, tc := range keyAttestationVectors {
		t.Run(tc.name, func(t *testing.T) {
			chain := readChain(t, tc.name)
			v := newKAVerifier(t, tc.at)
			challenge := []byte("not the vector challenge")
			if tc.hasJSON {
				challenge = readGoogleJSON(t, tc.name).AttestationChallenge
			}

			_, err := v.VerifyChain(chain)
			if !errors.Is(err, tc.chainErr) || (tc.chainErr == nil && err != nil) {
				t.Fatalf("VerifyChain: got %v, want %v", err, tc.chainErr)
			}

			res, err := v.VerifyChallenge(context.Background(), chainToken(chain), challenge)
			if tc.verifyErr != nil {
				if !errors.Is(err, tc.verifyErr) {
					t.Fatalf("VerifyChallenge: got %v, want %v", err, tc.verifyErr)
				}
				var ve *veriland.Error
				if !errors.As(err, &ve) || ve.Meta["reason"] != Reason(tc.verifyErr) {
					t.Fatalf("error %#v lacks reason %q", err, Reason(tc.verifyErr))
				}
				return
			}
			if err != nil {
				t.Fatalf("VerifyChallenge: %v", err)
			}
			if res.Type != KeyAttestation || res.Trust != TrustStrong || res.SecurityLevel != tc.level ||
				res.VerifiedBootState != "VERIFIED" || !res.DeviceLocked || res.Platform != PlatformAndroid ||
				len(res.RootSPKISHA256) != 32 || len(res.AttestedPublicKey) == 0 {
				t.Fatalf("unexpected result %+v", res)
			}
		})
	}
}

// TestKeyDescriptionMatchesGoogle compares our parse of each leaf with Google's own
// decoding shipped beside it.
func TestKeyDescriptionMatchesGoogle(t *testing.T) {
	for _, tc := range keyAttestationVectors {
		if !tc.hasJSON {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			g := readGoogleJSON(t, tc.name)
			kd, err := KeyDescriptionFromCertificate(readChain(t, tc.name)[0])
			if err != nil {
				t.Fatal(err)
			}
			if kd.AttestationVersion != atoi(t, g.AttestationVersion) || kd.KeyMintVersion != atoi(t, g.KeyMintVersion) {
				t.Errorf("versions %d/%d, want %s/%s", kd.AttestationVersion, kd.KeyMintVersion, g.AttestationVersion, g.KeyMintVersion)
			}
			if kd.AttestationSecurityLevel.String() != googleLevel(g.AttestationSecurityLevel) ||
				kd.KeyMintSecurityLevel.String() != googleLevel(g.KeyMintSecurityLevel) {
				t.Errorf("levels %s/%s, want %s/%s", kd.AttestationSecurityLevel, kd.KeyMintSecurityLevel, g.AttestationSecurityLevel, g.KeyMintSecurityLevel)
			}
			if string(kd.AttestationChallenge) != string(g.AttestationChallenge) {
				t.Errorf("challenge %q, want %q", kd.AttestationChallenge, g.AttestationChallenge)
			}
			hw := kd.HardwareEnforced
			if hw.OSVersion != atoi(t, g.HardwareEnforced.OSVersion) || hw.OSPatchLevel != atoi(t, g.HardwareEnforced.OSPatchLevel) ||
				hw.VendorPatchLevel != atoi(t, g.HardwareEnforced.VendorPatchLevel) || hw.BootPatchLevel != atoi(t, g.HardwareEnforced.BootPatchLevel) {
				t.Errorf("os/patch levels %d %d %d %d, want %+v", hw.OSVersion, hw.OSPatchLevel, hw.VendorPatchLevel, hw.BootPatchLevel, g.HardwareEnforced)
			}
			grot := g.HardwareEnforced.RootOfTrust
			if (grot == nil) != (hw.RootOfTrust == nil) {
				t.Fatalf("root of trust presence: got %v, want %v", hw.RootOfTrust != nil, grot != nil)
			}
			if grot == nil {
				return
			}
			rot := hw.RootOfTrust
			if string(rot.VerifiedBootKey) != string(grot.VerifiedBootKey) || rot.DeviceLocked != grot.DeviceLocked ||
				rot.VerifiedBootState.String() != grot.VerifiedBootState || string(rot.VerifiedBootHash) != string(grot.VerifiedBootHash) {
				t.Errorf("root of trust %+v, want %+v", rot, grot)
			}
		})
	}
}

func TestKeyAttestationChainPolicy(t *testing.T) {
	const name, at = "tegu_sdk36_TEE_EC_2026_ROOT", "2026-02-22T00:08:00Z"
	chain := readChain(t, name)
	challenge := readGoogleJSON(t, name).AttestationChallenge
	ca1 := readChain(t, "google_root_key_attestation_ca1_p384")
	rsa := readChain(t, "google_root_rsa4096_2022-2042")

	tests := []struct {
		name  string
		at    string
		mod   func(*KeyAttestationConfig)
		chain []*x509.Certificate
		chall []byte
		want  error
	}{
		{"accepted", at, nil, chain, challenge, nil},
		{"without root certificate", at, nil, chain[:len(chain)-1], challenge, nil},
		{"challenge mismatch", at, nil, chain, []byte("6417f92c-daef-4cc1-8828-5bb39338ffd6"), ErrChallengeMismatch},
		{"empty challenge", at, nil, chain, nil, ErrChallengeMismatch},
		{"expired", "2026-11-21T00:00:00Z", nil, chain, challenge, ErrCertificateValidity},
		{"not yet valid", "2026-02-21T00:00:00Z", nil, chain, challenge, ErrCertificateValidity},
		{"only RSA root pinned", at, func(c *KeyAttestationConfig) { c.Roots = rsa }, chain, challenge, ErrUntrustedRoot},
		{"only CA1 root pinned", at, func(c *KeyAttestationConfig) { c.Roots = ca1 }, chain, challenge, nil},
		{"intermediate revoked", at, func(c *KeyAttestationConfig) {
			c.Revocations = RevocationList{chain[2].SerialNumber.Text(16): "REVOKED"}
		}, chain, challenge, ErrCertificateRevoked},
		{"other serial revoked", at, func(c *KeyAttestationConfig) {
			c.Revocations = RevocationList{"c35747a084470c3135aeefe2b8d40cd6": "REVOKED"}
		}, chain, challenge, nil},
		{"reordered chain", at, nil, []*x509.Certificate{chain[1], chain[0], chain[2], chain[3], chain[4]}, challenge, ErrChainSignature},
		{"leaf only plus root", at, nil, []*x509.Certificate{chain[0], chain[4]}, challenge, ErrChainSignature},
		{"too long", at, nil, append(append(append([]*x509.Certificate{}, chain...), chain...), chain...)[:11], challenge, ErrMalformedToken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mods []func(*KeyAttestationConfig)
			if tc.mod != nil {
				mods = append(mods, tc.mod)
			}
			v := newKAVerifier(t, tc.at, mods...)
			_, err := v.VerifyChallenge(context.Background(), chainToken(tc.chain), tc.chall)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v, want success", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if !veriland.IsCode(err, codeRejected) && !veriland.IsCode(err, codeMalformed) {
				t.Fatalf("code %s", veriland.CodeOf(err))
			}
		})
	}
}

func TestKeyAttestationMalformedTokens(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	leaf := readChain(t, "caiman_sdk36_TEE_EC_RKP")
	tests := []struct {
		name, token string
		want        error
	}{
		{"empty", "", ErrMalformedToken},
		{"not base64", "%%%%", ErrMalformedToken},
		{"not json", b64([]byte("hello")), ErrMalformedToken},
		{"json object", b64([]byte(`{"a":1}`)), ErrMalformedToken},
		{"array of numbers", b64([]byte(`[1,2]`)), ErrMalformedToken},
		{"one certificate", b64([]byte(`["` + b64(leaf[0].Raw) + `"]`)), ErrMalformedToken},
		{"certificate not base64", b64([]byte(`["!!", "!!"]`)), ErrMalformedToken},
		{"certificate not DER", b64([]byte(`["AAAA", "AAAA"]`)), ErrMalformedCertificate},
		{"huge", strings.Repeat("A", maxKeyAttestationToken+4), ErrMalformedToken},
	}
	v := newKAVerifier(t, "2025-09-25T17:15:00Z")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tc.token, [32]byte{})
			if !errors.Is(err, tc.want) || !veriland.IsCode(err, veriland.CodeValidationFailed) {
				t.Fatalf("got %v (%s), want %v", err, veriland.CodeOf(err), tc.want)
			}
		})
	}
}

func TestKeyAttestationURLSafeToken(t *testing.T) {
	const name = "caiman_sdk36_TEE_EC_RKP"
	chain := readChain(t, name)
	ders := make([]string, len(chain))
	for i, c := range chain {
		ders[i] = base64.RawURLEncoding.EncodeToString(c.Raw)
	}
	js, _ := json.Marshal(ders)
	token := base64.RawURLEncoding.EncodeToString(js)
	v := newKAVerifier(t, "2025-09-25T17:15:00Z")
	if _, err := v.VerifyChallenge(context.Background(), token, readGoogleJSON(t, name).AttestationChallenge); err != nil {
		t.Fatal(err)
	}
}

func TestParseRevocationList(t *testing.T) {
	l, err := ParseRevocationList([]byte(`{"entries": {
		"00C35747A084470C3135AEEFE2B8D40CD6": {"status": "REVOKED", "reason": "KEY_COMPROMISE"},
		"2c8cdddfd5e03bfc": {"status": "SUSPENDED", "expires": "2030-01-01"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := new(big.Int).SetString("c35747a084470c3135aeefe2b8d40cd6", 16)
	if s, ok := l.Lookup(n); !ok || s != "REVOKED" {
		t.Fatalf("lookup: %q %v", s, ok)
	}
	n.SetString("2c8cdddfd5e03bfc", 16)
	if s, ok := l.Lookup(n); !ok || s != "SUSPENDED" {
		t.Fatalf("lookup: %q %v", s, ok)
	}
	if _, ok := l.Lookup(big.NewInt(1)); ok {
		t.Fatal("unlisted serial found")
	}
	for _, bad := range []string{`[]`, `{}`, `{"entries": {"zz": {"status": "REVOKED"}}}`, `nope`} {
		if _, err := ParseRevocationList([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestGoogleAttestationRootsMatchVectors(t *testing.T) {
	roots, err := GoogleAttestationRoots()
	if err != nil {
		t.Fatal(err)
	}
	var published []string
	data, err := os.ReadFile(filepath.Join(kaDir, "google_attestation_roots.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &published); err != nil {
		t.Fatal(err)
	}
	if len(roots) != len(published) {
		t.Fatalf("%d roots, %d published", len(roots), len(published))
	}
	for i, p := range published {
		certs, err := ParseCertificatesPEM([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		if !certs[0].Equal(roots[i]) {
			t.Errorf("root %d differs from the published one", i)
		}
	}
}
