package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// kaDir holds the real Android key attestation chains of the shared vectors
// (/work/shared/vectors/liveness, from github.com/android/keyattestation; see its
// PROVENANCE.md), byte for byte.
const kaDir = "../../liveness/deviceattest/testdata/keyattestation"

// The vectors' app (attestationApplicationId) and its signing digest.
const (
	vectorPackage = "com.google.android.attestation"
	vectorDigest  = "EDk47kU35Z6O55L2VFBPuDRvxrNG0LvEQV/DOfz8jsE="
)

func playKeys(t *testing.T) (dec, ver string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)), base64.StdEncoding.EncodeToString(der)
}

func TestProductionFlagRefusals(t *testing.T) {
	dec, ver := playKeys(t)
	rpc, key, addr := []string{"-eth-rpc", "https://node.example/v3/k"}, []string{"-anchor-key", "/k"}, []string{"-anchor-address", "0x00000000000000000000000000000000000000a1"}
	cat := func(parts ...[]string) []string { return slicesOf(parts) }
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad package", []string{"-android-package", "wallet"}, "Android application id"},
		{"digest without package", []string{"-android-signing-digest", vectorDigest}, "needs -android-package"},
		{"bad digest", []string{"-android-package", vectorPackage, "-android-signing-digest", "abcd"}, "SHA-256"},
		{"play decryption key alone", []string{"-android-package", vectorPackage, "-play-integrity-decryption-key", dec}, "go together"},
		{"play verification key alone", []string{"-android-package", vectorPackage, "-play-integrity-verification-key", ver}, "go together"},
		{"play without package", []string{"-play-integrity-decryption-key", dec, "-play-integrity-verification-key", ver}, "needs -android-package"},
		{"play keys swapped", []string{"-android-package", vectorPackage, "-play-integrity-decryption-key", ver, "-play-integrity-verification-key", dec}, "Play Console"},
		{"apple app id without team", []string{"-apple-app-id", "com.example.wallet"}, "TEAMID"},
		{"development without app id", []string{"-app-attest-development"}, "needs -apple-app-id"},
		{"rpc alone", rpc, "go together"},
		{"contract without rpc", []string{"-land-title-contract", "0x00000000000000000000000000000000000000a1"}, "need -eth-rpc"},
		{"address without rpc", addr, "need -eth-rpc"},
		{"key and address", cat(key, addr), "go together"},
		{"http rpc on a public host", cat([]string{"-eth-rpc", "http://node.example:8545"}, key, addr), "https or wss"},
		{"rpc not a URL", cat([]string{"-eth-rpc", "node.example"}, key, addr), "https or wss"},
		{"zero address", cat(rpc, key, []string{"-anchor-address", "0x0000000000000000000000000000000000000000"}), "not zero"},
		{"zero contract", cat(rpc, key, []string{"-land-title-contract", "0x0000000000000000000000000000000000000000"}), "not zero"},
		{"address without 0x", cat(rpc, key, []string{"-anchor-address", "00000000000000000000000000000000000000a1"}), "0x address"},
		{"short address", cat(rpc, key, []string{"-anchor-address", "0xa1"}), "0x address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseFlags(c.args, io.Discard)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.NotContains(t, err.Error(), dec[:12], "a key is never repeated")
			require.NotContains(t, err.Error(), ver[:40], "a key is never repeated")
			require.Equal(t, 2, run(t.Context(), append([]string{"-data", t.TempDir()}, c.args...), io.Discard, io.Discard))
		})
	}
	for _, ok := range [][]string{
		{"-android-package", vectorPackage, "-android-signing-digest", vectorDigest + ",10:39:38:ee:45:37:e5:9e:8e:e7:92:f6:54:50:4f:b8:34:6f:c6:b3:46:d0:bb:c4:41:5f:c3:39:fc:fc:8e:c1"},
		{"-android-package", vectorPackage, "-play-integrity-decryption-key", dec, "-play-integrity-verification-key", ver},
		{"-apple-app-id", "ABCDE12345.com.example.wallet", "-app-attest-development"},
		cat([]string{"-eth-rpc", "ws://127.0.0.1:8546"}, key, addr),
	} {
		_, err := parseFlags(ok, io.Discard)
		require.NoError(t, err, ok)
	}
}

func slicesOf(parts [][]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func writeAnchorKey(t *testing.T, mode os.FileMode, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "anchor.key")
	require.NoError(t, os.WriteFile(p, []byte(text), mode))
	require.NoError(t, os.Chmod(p, mode))
	return p
}

func TestReadAnchorKey(t *testing.T) {
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	good := hex.EncodeToString(crypto.FromECDSA(k))
	cases := []struct {
		name, text string
		mode       os.FileMode
		want       string // error substring; "" accepts
	}{
		{"hex", good + "\n", 0o600, ""},
		{"0x hex", "0x" + good, 0o400, ""},
		{"readable by others", good, 0o644, "chmod 600"},
		{"group readable", good, 0o640, "chmod 600"},
		{"not hex", "not a key", 0o600, "64 hex digits"},
		{"short", good[:62], 0o600, "64 hex digits"},
		{"zero key", strings.Repeat("0", 64), 0o600, "valid secp256k1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAnchorKey(writeAnchorKey(t, c.mode, c.text))
			if c.want != "" {
				require.ErrorContains(t, err, c.want)
				require.NotContains(t, err.Error(), good[:16], "the key is never repeated")
				return
			}
			require.NoError(t, err)
			require.Equal(t, crypto.PubkeyToAddress(k.PublicKey), crypto.PubkeyToAddress(got.PublicKey))
		})
	}
	_, err = readAnchorKey(filepath.Join(t.TempDir(), "missing"))
	require.ErrorContains(t, err, "-anchor-key")
}

func TestSummary(t *testing.T) {
	dec, ver := playKeys(t)
	cases := []struct {
		name       string
		args       []string
		sandbox    []string // substrings of the SANDBOX line
		production []string // substrings of the PRODUCTION line
		absent     []string // in neither line
	}{
		{"defaults", nil,
			[]string{"device_attestation=KEY_ATTESTATION,MOCK", "kyc=\"sandbox provider\"", "chain=\"simulated (in-process, empty at each start)\"",
				"land_titles=\"LandTitle 0x", "metrics=public", "APP_ATTEST: -apple-app-id"},
			[]string{"device_attestation=KEY_ATTESTATION ", "kyc=\"none (issuance answers 503)\"", "chain=\"off (land titles DISABLED, anchors DISABLED)\"",
				"KYC: -kyc-url -kyc-secret", "chain: -eth-rpc -anchor-key -chain-id", "APP_ATTEST: -apple-app-id",
				"PLAY_INTEGRITY: -android-package -play-integrity-decryption-key -play-integrity-verification-key",
				"KEY_ATTESTATION bound to your app: -android-package", "assistant model: -llm-url", "metrics protection: -metrics-token"},
			[]string{"MOCK,KEY"}},
		{"everything", []string{"-android-package", vectorPackage, "-apple-app-id", "ABCDE12345.com.example.wallet",
			"-play-integrity-decryption-key", dec, "-play-integrity-verification-key", ver,
			"-kyc-url", "https://kyc.example/check?key=s3cret", "-kyc-secret", testKYCSecret,
			"-eth-rpc", "NODE", "-anchor-key", "KEYFILE", "-chain-id", "1337",
			"-llm-url", "http://127.0.0.1:9/v1", "-llm-model", "qwen", "-transcriber-url", "http://127.0.0.1:9/v1", "-metrics-token", "t0ken"},
			[]string{"device_attestation=APP_ATTEST,KEY_ATTESTATION,MOCK,PLAY_INTEGRITY", "to_enable=\"nothing: every feature is live\""},
			[]string{"device_attestation=APP_ATTEST,KEY_ATTESTATION,PLAY_INTEGRITY android_app=com.google.android.attestation apple_app=ABCDE12345.com.example.wallet kyc=\"HTTP provider at https://kyc.example\"",
				"chain=\"ethereum via http://127.0.0.1:", "(chain id 1337)", "land_titles=\"LandTitle 0x", "anchoring=\"from 0x",
				"assistant_model=\"qwen at http://127.0.0.1:9\"", "transcriber=\"whisper-1 at http://127.0.0.1:9\"", "metrics=\"bearer token required\"",
				"to_enable=\"nothing: every feature is live\""},
			[]string{"s3cret", "t0ken", dec[:12]}},
	}
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	keyFile := writeAnchorKey(t, 0o600, hex.EncodeToString(crypto.FromECDSA(k)))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, a := range c.args {
				switch a {
				case "KEYFILE":
					c.args[i] = keyFile
				case "NODE":
					c.args[i] = simulatedNode(t, k)
				}
			}
			_, logs := startServerLogs(t, c.args...)
			var sandbox, production string
			for _, line := range strings.Split(logs.String(), "\n") {
				switch {
				case strings.Contains(line, "msg=features env=SANDBOX"):
					require.Empty(t, sandbox, "logged once")
					sandbox = line
				case strings.Contains(line, "msg=features env=PRODUCTION"):
					require.Empty(t, production, "logged once")
					production = line
				}
			}
			for _, want := range c.sandbox {
				require.Contains(t, sandbox, want)
			}
			for _, want := range c.production {
				require.Contains(t, production, want)
			}
			for _, no := range c.absent {
				require.NotContains(t, sandbox+production, no)
			}
			if c.args != nil {
				require.Contains(t, production, crypto.PubkeyToAddress(k.PublicKey).Hex(), "the anchor key's address")
			} else if os.Getenv("CI") == "true" || strings.Contains(production, `transcriber="embedded PocketSphinx (English)"`) {
				// CI installs PocketSphinx: the default build uses it without a flag.
				require.Contains(t, production, `transcriber="embedded PocketSphinx (English)"`)
				require.NotContains(t, production, "transcriber: -transcriber-url")
			} else {
				require.Contains(t, production, "transcriber: -transcriber-url (or apt-get install pocketsphinx")
			}
		})
	}
}

// startServerLogs is startServer that also returns the server's stderr.
func startServerLogs(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"-data", t.TempDir(), "-addr", "127.0.0.1:0"}, args...), &out, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("no graceful shutdown")
		}
	})
	var base string
	require.Eventually(t, func() bool {
		s := errOut.String()
		if i := strings.Index(s, "listening on "); i >= 0 {
			base = strings.Fields(s[i+len("listening on "):])[0]
		}
		select {
		case code := <-done:
			t.Fatalf("server exited with %d: %s", code, s)
		default:
		}
		return base != ""
	}, 20*time.Second, 20*time.Millisecond, errOut.String())
	return base, &errOut
}

func TestAnchorKeyReadableByOthersIsRefused(t *testing.T) {
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	p := writeAnchorKey(t, 0o644, hex.EncodeToString(crypto.FromECDSA(k)))
	var errOut bytes.Buffer
	code := run(t.Context(), []string{"-data", t.TempDir(), "-addr", "127.0.0.1:0", "-eth-rpc", "http://127.0.0.1:1",
		"-anchor-key", p, "-anchor-address", "0x00000000000000000000000000000000000000a1"}, io.Discard, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "chmod 600")
}

// vectorChallenge stands in for the one thing a recorded chain cannot carry: the
// server's enrolment challenge. A real device would put
// deviceattest.EnrollChallenge(holder, publicKey) (SHA-256 of
// "veriland-enroll:<holder>:<publicKey>") in attestationChallenge; the vectors carry
// the UUID their app passed to KeyStore. It records the challenge the server asked
// for (the test checks it is the enrolment challenge of the posted holder and key) and,
// when substitute is set, hands the vector's own challenge bytes to the server's
// KEY_ATTESTATION verifier (the embedded Google roots, the chain, validity, device
// policy and -android-package checks all run unchanged); otherwise it passes the
// server's challenge through.
type vectorChallenge struct {
	inner interface {
		VerifyChallenge(ctx context.Context, token string, challenge []byte) (*deviceattest.Result, error)
	}
	mu         sync.Mutex
	substitute []byte
	seen       [32]byte
}

func (v *vectorChallenge) Verify(ctx context.Context, token string, challenge [32]byte) (*deviceattest.Result, error) {
	v.mu.Lock()
	v.seen = challenge
	use := challenge[:]
	if v.substitute != nil {
		use = v.substitute
	}
	v.mu.Unlock()
	return v.inner.VerifyChallenge(ctx, token, use)
}

// deviceClock is the clock the test gives the server's device verifiers.
type deviceClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *deviceClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *deviceClock) set(at time.Time) {
	c.mu.Lock()
	c.at = at
	c.mu.Unlock()
}

func readVector(t *testing.T, name string) (token string, certs []*x509.Certificate, challenge []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kaDir, name+".pem"))
	require.NoError(t, err)
	certs, err = deviceattest.ParseCertificatesPEM(data)
	require.NoError(t, err)
	if js, err := os.ReadFile(filepath.Join(kaDir, name+".json")); err == nil {
		var g struct {
			AttestationChallenge []byte `json:"attestationChallenge"`
		}
		var lines []string // Google's files may start with // comments
		for l := range strings.SplitSeq(string(js), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "//") {
				lines = append(lines, l)
			}
		}
		require.NoError(t, json.Unmarshal([]byte(strings.Join(lines, "\n")), &g))
		challenge = g.AttestationChallenge
	}
	return chainToken(certs), certs, challenge
}

func chainToken(certs []*x509.Certificate) string {
	ders := make([]string, len(certs))
	for i, c := range certs {
		ders[i] = base64.StdEncoding.EncodeToString(c.Raw)
	}
	js, _ := json.Marshal(ders)
	return base64.StdEncoding.EncodeToString(js)
}

// tamper returns the chain's token with one byte of the leaf's signature changed.
func tamper(certs []*x509.Certificate) string {
	leaf := bytes.Clone(certs[0].Raw)
	leaf[len(leaf)-3] ^= 0x01
	ders := []string{base64.StdEncoding.EncodeToString(leaf)}
	for _, c := range certs[1:] {
		ders = append(ders, base64.StdEncoding.EncodeToString(c.Raw))
	}
	js, _ := json.Marshal(ders)
	return base64.StdEncoding.EncodeToString(js)
}

func mintProductionHolder(t *testing.T, dir, did string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"-data", dir, "-mint-token", "-role", "holder", "-env", "PRODUCTION", "-sub", did, "-ttl", "1h"}, &out, &errOut), errOut.String())
	return strings.TrimSpace(out.String())
}

func enroll(t *testing.T, base, token, publicKey, attType, attToken string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"platform": "ANDROID", "publicKey": publicKey,
		"attestation": map[string]string{"type": attType, "token": attToken}})
	req, _ := http.NewRequest("POST", base+"/liveness/device/enroll", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var m map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return resp.StatusCode, m
}

func errorOf(t *testing.T, m map[string]any) (code, reason string) {
	t.Helper()
	list, ok := m["errors"].([]any)
	require.True(t, ok, "%v", m)
	e := list[0].(map[string]any)
	meta, _ := e["meta"].(map[string]any)
	r, _ := meta["reason"].(string)
	return e["code"].(string), r
}

// TestProductionEnrolsRealKeyAttestation starts the reference server with PRODUCTION
// settings (-android-package of the vectors' app and its signing digest, no test
// roots: the embedded Google roots) and enrols real Android key attestation chains
// through POST /liveness/device/enroll with a PRODUCTION holder token. The device
// verifiers' clock is set to each chain's recorded time (its RKP certificates live for
// days) and the vector's challenge stands in for the enrolment challenge (see
// vectorChallenge); everything else is the server's own wiring.
func TestProductionEnrolsRealKeyAttestation(t *testing.T) {
	clock := &deviceClock{at: time.Now()}
	var vc *vectorChallenge
	hooks.deviceClock = clock.now
	hooks.wrapDevice = func(vs deviceattest.Verifiers) deviceattest.Verifiers {
		app, ok := vs[deviceattest.KeyAttestation].(*androidApp)
		require.True(t, ok, "KEY_ATTESTATION is registered by default")
		require.NotNil(t, app.ka)
		vc = &vectorChallenge{inner: app}
		vs[deviceattest.KeyAttestation] = vc
		return vs
	}
	t.Cleanup(func() { hooks.deviceClock, hooks.wrapDevice = nil, nil })

	start := func(pkg string) (string, string, *vectorChallenge) {
		dir := t.TempDir()
		base, _ := startServerLogs(t, "-data", dir, "-android-package", pkg, "-android-signing-digest", vectorDigest)
		return base, dir, vc // set by wrapDevice before the server listens
	}
	base, dir, vcBase := start(vectorPackage)
	otherApp, otherDir, vcOther := start("com.example.wallet")

	cases := []struct {
		name       string
		vector     string
		at         string
		tampered   bool
		substitute bool // the vector's challenge for the server's
		other      bool // the server bound to another app
		status     int
		reason     string
	}{
		{"Pixel 9 Pro, RKP chain under the RSA-4096 root", "caiman_sdk36_TEE_EC_RKP", "2025-09-25T17:15:00Z", false, true, false, 201, ""},
		{"Pixel 9a, chain under Key Attestation CA1", "tegu_sdk36_TEE_EC_2026_ROOT", "2026-02-22T00:08:00Z", false, true, false, 201, ""},
		{"Pixel 9a StrongBox", "tegu_sdk36_SB_EC_2026_ROOT", "2026-02-22T00:09:00Z", false, true, false, 201, ""},
		{"tampered leaf signature", "caiman_sdk36_TEE_EC_RKP", "2025-09-25T17:15:00Z", true, true, false, 422, "chain_signature_invalid"},
		{"tampered, CA1 chain", "tegu_sdk36_TEE_EC_2026_ROOT", "2026-02-22T00:08:00Z", true, true, false, 422, "chain_signature_invalid"},
		{"server's own challenge", "caiman_sdk36_TEE_EC_RKP", "2025-09-25T17:15:00Z", false, false, false, 422, "challenge_mismatch"},
		{"today: the RKP certificates have expired", "caiman_sdk36_TEE_EC_RKP", "", false, true, false, 422, "certificate_not_valid_now"},
		{"software attestation root", "marlin_sdk29_TEE_EC_NONE", "2020-01-01T00:00:00Z", false, true, false, 422, "untrusted_root"},
		{"server bound to another app", "caiman_sdk36_TEE_EC_RKP", "2025-09-25T17:15:00Z", false, true, true, 422, "package_mismatch"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := time.Now()
			if c.at != "" {
				var err error
				at, err = time.Parse(time.RFC3339, c.at)
				require.NoError(t, err)
			}
			clock.set(at)
			token, certs, challenge := readVector(t, c.vector)
			if c.tampered {
				token = tamper(certs)
			}
			srv, data, vc := base, dir, vcBase
			if c.other {
				srv, data, vc = otherApp, otherDir, vcOther
			}
			vc.mu.Lock()
			vc.substitute = nil
			if c.substitute {
				vc.substitute = challenge
			}
			vc.mu.Unlock()

			k, err := crypto.GenerateKey()
			require.NoError(t, err)
			publicKey := crypto.PubkeyToAddress(k.PublicKey).Hex()
			did := "did:pkh:eip155:1:" + strings.ToLower(crypto.PubkeyToAddress(k.PublicKey).Hex())
			holder := mintProductionHolder(t, data, did)

			status, m := enroll(t, srv, holder, publicKey, "KEY_ATTESTATION", token)
			require.Equal(t, c.status, status, "case %d: %v", i, m)
			vc.mu.Lock()
			seen := vc.seen
			vc.mu.Unlock()
			require.Equal(t, deviceattest.EnrollChallenge(did, publicKey), seen, "the server asks for the enrolment challenge of the holder and key")
			if c.status == 201 {
				require.Equal(t, "KEY_ATTESTATION", m["attestationType"])
				require.Equal(t, "STRONG", m["trust"])
				require.Equal(t, strings.ToLower(publicKey), strings.ToLower(m["publicKey"].(string)))
				// The same key again: 200 with the stored record.
				again, _ := enroll(t, srv, holder, publicKey, "KEY_ATTESTATION", token)
				require.Equal(t, 200, again)
				return
			}
			code, reason := errorOf(t, m)
			require.Equal(t, "invalid_signature", code, "%v", m)
			require.Equal(t, c.reason, reason, "%v", m)
		})
	}

	t.Run("MOCK is SANDBOX only", func(t *testing.T) {
		k, _ := crypto.GenerateKey()
		publicKey := crypto.PubkeyToAddress(k.PublicKey).Hex()
		status, m := enroll(t, base, mintProductionHolder(t, dir, "did:example:mock"), publicKey, "MOCK", "mock-token-ok")
		require.Equal(t, 422, status, "%v", m)
		code, _ := errorOf(t, m)
		require.Equal(t, "attestation_unsupported", code)
	})
	t.Run("APP_ATTEST needs -apple-app-id", func(t *testing.T) {
		k, _ := crypto.GenerateKey()
		publicKey := crypto.PubkeyToAddress(k.PublicKey).Hex()
		body := `{"platform":"IOS","publicKey":"` + publicKey + `","attestation":{"type":"APP_ATTEST","token":"AAAAAAAAAAAA"}}`
		req, _ := http.NewRequest("POST", base+"/liveness/device/enroll", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+mintProductionHolder(t, dir, "did:example:ios"))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		resp.Body.Close()
		require.Equal(t, 422, resp.StatusCode, "%v", m)
		code, reason := errorOf(t, m)
		require.Equal(t, "attestation_unsupported", code)
		require.Equal(t, deviceattest.Reason(deviceattest.ErrTypeNotConfigured), reason)
	})
}

// TestAndroidAppBinding checks the -android-package and -android-signing-digest
// checks of the KEY_ATTESTATION verifier on a real chain, at its recorded time.
func TestAndroidAppBinding(t *testing.T) {
	token, _, challenge := readVector(t, "caiman_sdk36_TEE_EC_RKP")
	at, _ := time.Parse(time.RFC3339, "2025-09-25T17:15:00Z")
	ka, err := deviceattest.NewKeyAttestationVerifier(deviceattest.KeyAttestationConfig{Now: func() time.Time { return at }})
	require.NoError(t, err)
	digest, err := parseDigests(vectorDigest)
	require.NoError(t, err)
	other, err := parseDigests(strings.Repeat("ab", 32))
	require.NoError(t, err)
	cases := []struct {
		name    string
		pkg     string
		digests [][]byte
		reason  string // "" accepts
	}{
		{"no binding", "", nil, ""},
		{"package", vectorPackage, nil, ""},
		{"package and digest", vectorPackage, digest, ""},
		{"one of two digests", vectorPackage, append(other, digest...), ""},
		{"other package", "com.example.wallet", nil, "package_mismatch"},
		{"other signing key", vectorPackage, other, "signing_digest_mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := (&androidApp{ka: ka, pkg: c.pkg, digests: c.digests}).VerifyChallenge(t.Context(), token, challenge)
			if c.reason == "" {
				require.NoError(t, err)
				require.Equal(t, deviceattest.TrustStrong, res.Trust)
				return
			}
			var ve *veriland.Error
			require.ErrorAs(t, err, &ve)
			require.Equal(t, veriland.CodeInvalidSignature, ve.Code)
			require.Equal(t, c.reason, ve.Meta["reason"])
		})
	}
	_, err = (&androidApp{ka: ka, pkg: vectorPackage}).VerifyChallenge(t.Context(), token, []byte("another challenge"))
	require.Equal(t, "challenge_mismatch", deviceattest.Reason(err), "the device checks run first")
}
