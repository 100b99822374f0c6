package deviceattest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/veriland/veriland"
)

const testPackage = "land.veri.wallet"

// playKeys are the Play Console keys of a test app.
type playKeys struct {
	aes  []byte
	sign *ecdsa.PrivateKey
}

func newPlayKeys(t testing.TB) *playKeys {
	t.Helper()
	k := &playKeys{aes: make([]byte, 32), sign: newTestKey(t, elliptic.P256())}
	if _, err := rand.Read(k.aes); err != nil {
		t.Fatal(err)
	}
	return k
}

func (k *playKeys) decoder(t testing.TB) *OfflineDecoder {
	t.Helper()
	d, err := NewOfflineDecoder(k.aes, &k.sign.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// playPayload returns a passing verdict for challenge issued at ts.
func playPayload(challenge [32]byte, ts time.Time) map[string]any {
	return map[string]any{
		"requestDetails": map[string]any{
			"requestPackageName": testPackage,
			"nonce":              base64.RawURLEncoding.EncodeToString(challenge[:]),
			"timestampMillis":    strconv.FormatInt(ts.UnixMilli(), 10),
		},
		"appIntegrity": map[string]any{
			"appRecognitionVerdict": PlayRecognized, "packageName": testPackage,
			"certificateSha256Digest": []string{"6a6a1474b5cbbb2b1aa57e0bc3"}, "versionCode": "42",
		},
		"deviceIntegrity": map[string]any{"deviceRecognitionVerdict": []string{MeetsDeviceIntegrity}},
		"accountDetails":  map[string]any{"appLicensingVerdict": "LICENSED"},
	}
}

// seal signs payload with ES256 and encrypts it with A256KW/A256GCM, as Google does.
func (k *playKeys) seal(t testing.TB, payload any) string {
	t.Helper()
	js, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k.sign}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(js)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := jose.NewEncrypter(jose.A256GCM, jose.Recipient{Algorithm: jose.A256KW, Key: k.aes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jwe, err := enc.Encrypt([]byte(inner))
	if err != nil {
		t.Fatal(err)
	}
	out, err := jwe.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func newPlayVerifier(t testing.TB, d Decoder, now time.Time) *PlayIntegrityVerifier {
	t.Helper()
	v, err := NewPlayIntegrityVerifier(PlayIntegrityConfig{PackageName: testPackage, Decoder: d, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func set(m map[string]any, path string, value any) map[string]any {
	parts := strings.Split(path, ".")
	cur := m
	for _, p := range parts[:len(parts)-1] {
		cur = cur[p].(map[string]any)
	}
	if value == nil {
		delete(cur, parts[len(parts)-1])
	} else {
		cur[parts[len(parts)-1]] = value
	}
	return m
}

func TestPlayIntegrityOffline(t *testing.T) {
	keys := newPlayKeys(t)
	now := testEpoch
	challenge := EnrollChallenge("did:veriland:holder1", "0xABC")
	v := newPlayVerifier(t, keys.decoder(t), now)
	b64 := base64.RawURLEncoding.EncodeToString(challenge[:])

	tests := []struct {
		name  string
		p     map[string]any
		token string // overrides sealing p
		want  error
		trust Trust
	}{
		{"device integrity", playPayload(challenge, now), "", nil, TrustBasic},
		{"strong integrity", set(playPayload(challenge, now), "deviceIntegrity.deviceRecognitionVerdict",
			[]string{meetsBasicIntegrity, MeetsDeviceIntegrity, MeetsStrongIntegrity}), "", nil, TrustStrong},
		{"padded nonce", set(playPayload(challenge, now), "requestDetails.nonce", base64.URLEncoding.EncodeToString(challenge[:])), "", nil, TrustBasic},
		{"requestHash instead of nonce", set(set(playPayload(challenge, now), "requestDetails.nonce", nil), "requestDetails.requestHash", b64), "", nil, TrustBasic},
		{"numeric timestamp", set(playPayload(challenge, now), "requestDetails.timestampMillis", now.UnixMilli()), "", nil, TrustBasic},
		{"9 minutes old", playPayload(challenge, now.Add(-9*time.Minute)), "", nil, TrustBasic},

		{"wrong nonce", set(playPayload(challenge, now), "requestDetails.nonce", base64.RawURLEncoding.EncodeToString(make([]byte, 32))), "", ErrChallengeMismatch, ""},
		{"standard alphabet nonce", set(playPayload([32]byte{0xfb, 0xff}, now), "requestDetails.nonce", base64.StdEncoding.EncodeToString([]byte{0xfb, 0xff, 31: 0})), "", ErrChallengeMismatch, ""},
		{"no nonce", set(playPayload(challenge, now), "requestDetails.nonce", nil), "", ErrChallengeMismatch, ""},
		{"other request package", set(playPayload(challenge, now), "requestDetails.requestPackageName", "com.evil"), "", ErrPackageMismatch, ""},
		{"other app package", set(playPayload(challenge, now), "appIntegrity.packageName", "com.evil"), "", ErrPackageMismatch, ""},
		{"unrecognized app", set(playPayload(challenge, now), "appIntegrity.appRecognitionVerdict", "UNRECOGNIZED_VERSION"), "", ErrAppNotRecognized, ""},
		{"basic integrity only", set(playPayload(challenge, now), "deviceIntegrity.deviceRecognitionVerdict", []string{meetsBasicIntegrity}), "", ErrDeviceIntegrity, ""},
		{"no device verdict", set(playPayload(challenge, now), "deviceIntegrity", map[string]any{}), "", ErrDeviceIntegrity, ""},
		{"11 minutes old", playPayload(challenge, now.Add(-11*time.Minute)), "", ErrTokenStale, ""},
		{"from the future", playPayload(challenge, now.Add(2*time.Minute)), "", ErrTokenFromFuture, ""},
		{"testing response", set(playPayload(challenge, now), "testingDetails", map[string]any{"isTestingResponse": true}), "", ErrTestingResponse, ""},
		{"bad timestamp", set(playPayload(challenge, now), "requestDetails.timestampMillis", "soon"), "", ErrMalformedToken, ""},
		{"payload not an object", nil, keys.seal(t, []int{1}), ErrMalformedToken, ""},
		{"other encryption key", nil, (&playKeys{aes: make([]byte, 32), sign: keys.sign}).seal(t, playPayload(challenge, now)), ErrDecryption, ""},
		{"other signing key", nil, (&playKeys{aes: keys.aes, sign: newTestKey(t, elliptic.P256())}).seal(t, playPayload(challenge, now)), ErrTokenSignature, ""},
		{"not a JWE", nil, "a.b.c", ErrMalformedToken, ""},
		{"empty", nil, "", ErrMalformedToken, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token := tc.token
			if tc.p != nil {
				token = keys.seal(t, tc.p)
			}
			res, err := v.Verify(context.Background(), token, challenge)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("got %v, want %v", err, tc.want)
				}
				var ve *veriland.Error
				if !errors.As(err, &ve) || ve.Meta["reason"] != Reason(tc.want) {
					t.Fatalf("no reason in %#v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Type != PlayIntegrity || res.Trust != tc.trust || res.Platform != PlatformAndroid {
				t.Fatalf("unexpected result %+v", res)
			}
		})
	}
}

// meetsBasicIntegrity is the weakest device label; the verifier never accepts it alone.
const meetsBasicIntegrity = "MEETS_BASIC_INTEGRITY"

func TestPlayIntegrityAlgorithmsPinned(t *testing.T) {
	keys := newPlayKeys(t)
	challenge := [32]byte{7}
	js, _ := json.Marshal(playPayload(challenge, testEpoch))
	signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: keys.sign}, nil)
	jws, _ := signer.Sign(js)
	inner, _ := jws.CompactSerialize()
	// dir + A256GCM with the same key: right key, wrong algorithm.
	enc, err := jose.NewEncrypter(jose.A256GCM, jose.Recipient{Algorithm: jose.DIRECT, Key: keys.aes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jwe, _ := enc.Encrypt([]byte(inner))
	token, _ := jwe.CompactSerialize()
	_, err = newPlayVerifier(t, keys.decoder(t), testEpoch).Verify(context.Background(), token, challenge)
	if !errors.Is(err, ErrMalformedToken) {
		t.Fatalf("got %v, want ErrMalformedToken", err)
	}
}

func TestPlayIntegrityHTTPDecoder(t *testing.T) {
	challenge := [32]byte{9}
	payload, _ := json.Marshal(playPayload(challenge, testEpoch))
	var status = http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer access-token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var req struct {
			IntegrityToken string `json:"integrityToken"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || req.IntegrityToken != "opaque-token" {
			http.Error(w, "bad token", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"tokenPayloadExternal": ` + string(payload) + `}`))
	}))
	defer srv.Close()

	bearer := func(context.Context) (string, error) { return "access-token", nil }
	dec := &HTTPDecoder{URL: srv.URL + "/v1/" + testPackage + ":decodeIntegrityToken", BearerToken: bearer, Client: srv.Client()}
	v := newPlayVerifier(t, dec, testEpoch)
	ctx := context.Background()

	if res, err := v.Verify(ctx, "opaque-token", challenge); err != nil || res.Trust != TrustBasic {
		t.Fatalf("got %+v, %v", res, err)
	}
	if _, err := v.Verify(ctx, "other-token", challenge); !errors.Is(err, ErrMalformedToken) {
		t.Fatalf("refused token: got %v", err)
	}
	status = http.StatusServiceUnavailable
	if _, err := v.Verify(ctx, "opaque-token", challenge); !errors.Is(err, ErrDecoderUnavailable) || !veriland.IsCode(err, veriland.CodeUnavailable) {
		t.Fatalf("endpoint down: got %v", err)
	}
	status = http.StatusOK
	badAuth := newPlayVerifier(t, &HTTPDecoder{URL: dec.URL, BearerToken: func(context.Context) (string, error) { return "wrong", nil }, Client: srv.Client()}, testEpoch)
	if _, err := badAuth.Verify(ctx, "opaque-token", challenge); !errors.Is(err, ErrDecoderUnavailable) {
		t.Fatalf("bad credentials: got %v", err)
	}
	noBearer := newPlayVerifier(t, &HTTPDecoder{URL: dec.URL, BearerToken: func(context.Context) (string, error) { return "", errors.New("no creds") }}, testEpoch)
	if _, err := noBearer.Verify(ctx, "opaque-token", challenge); !errors.Is(err, ErrDecoderUnavailable) {
		t.Fatalf("no bearer: got %v", err)
	}
}

func TestPlayIntegrityConfig(t *testing.T) {
	keys := newPlayKeys(t)
	if _, err := NewPlayIntegrityVerifier(PlayIntegrityConfig{Decoder: keys.decoder(t)}); err == nil {
		t.Error("missing package accepted")
	}
	if _, err := NewPlayIntegrityVerifier(PlayIntegrityConfig{PackageName: testPackage}); err == nil {
		t.Error("missing decoder accepted")
	}
	if _, err := NewOfflineDecoder(make([]byte, 16), &keys.sign.PublicKey); err == nil {
		t.Error("short AES key accepted")
	}
	der, _ := x509.MarshalPKIXPublicKey(&keys.sign.PublicKey)
	if _, err := ParseOfflineDecoderKeys(base64.StdEncoding.EncodeToString(keys.aes), base64.StdEncoding.EncodeToString(der)); err != nil {
		t.Errorf("console keys: %v", err)
	}
	if _, err := ParseOfflineDecoderKeys("!!", "!!"); err == nil {
		t.Error("garbage keys accepted")
	}
}
