package deviceattest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veriland/veriland"
)

const testAppID = "ABCDE12345.land.veri.wallet"

// appAttestFixture is a fake Apple PKI: a root, an intermediate and a device key.
type appAttestFixture struct {
	root, inter *testCA
	key         *ecdsa.PrivateKey
}

func newAppAttestFixture(t testing.TB) *appAttestFixture {
	root := newTestRoot(t, "Test App Attestation Root CA")
	return &appAttestFixture{root: root, inter: root.intermediate(t, "Test App Attestation CA 1"), key: newTestKey(t, elliptic.P256())}
}

// appAttestParams describe one attestation; the zero value plus a challenge is valid.
type appAttestParams struct {
	challenge    [32]byte
	rawHash      []byte // when set, the clientDataHash instead of challenge
	appID        string
	aaguid       string
	counter      uint32
	fmt          string
	keyID        []byte // overrides SHA-256 of the key in the token
	credentialID []byte // overrides keyID in authData
	nonce        []byte // overrides the certificate nonce
	trailing     []byte // bytes after the COSE key
	issuer       *testCA
	notAfter     time.Time
}

func (f *appAttestFixture) token(t testing.TB, p appAttestParams) string {
	t.Helper()
	if p.appID == "" {
		p.appID = testAppID
	}
	if p.aaguid == "" {
		p.aaguid = aaguidProduction
	}
	if p.fmt == "" {
		p.fmt = appAttestFormat
	}
	if p.issuer == nil {
		p.issuer = f.inter
	}
	if p.notAfter.IsZero() {
		p.notAfter = testEpoch.Add(30 * 24 * time.Hour)
	}
	ecdhPub, _ := f.key.PublicKey.ECDH()
	point := ecdhPub.Bytes()
	keyHash := sha256.Sum256(point)
	keyID := keyHash[:]
	if p.keyID != nil {
		keyID = p.keyID
	}
	credID := keyHash[:]
	if p.credentialID != nil {
		credID = p.credentialID
	}

	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: point[1:33], -3: point[33:]})
	if err != nil {
		t.Fatal(err)
	}
	rpHash := sha256.Sum256([]byte(p.appID))
	var ad []byte
	ad = append(ad, rpHash[:]...)
	ad = append(ad, 0x40)
	ad = binary.BigEndian.AppendUint32(ad, p.counter)
	ad = append(ad, p.aaguid...)
	ad = binary.BigEndian.AppendUint16(ad, uint16(len(credID)))
	ad = append(ad, credID...)
	ad = append(ad, cose...)
	ad = append(ad, p.trailing...)

	clientDataHash := p.challenge[:]
	if p.rawHash != nil {
		clientDataHash = p.rawHash
	}
	nonce := sha256.Sum256(append(append([]byte{}, ad...), clientDataHash...))
	n := nonce[:]
	if p.nonce != nil {
		n = p.nonce
	}
	ext, err := asn1.Marshal(struct {
		Nonce []byte `asn1:"explicit,tag:1"`
	}{n})
	if err != nil {
		t.Fatal(err)
	}
	leaf := issue(t, &x509.Certificate{
		SerialNumber:    big.NewInt(7),
		Subject:         pkix.Name{CommonName: base64.StdEncoding.EncodeToString(keyHash[:])},
		NotBefore:       testEpoch.Add(-time.Hour),
		NotAfter:        p.notAfter,
		KeyUsage:        x509.KeyUsageDigitalSignature,
		ExtraExtensions: []pkix.Extension{{Id: asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 8, 2}, Value: ext}},
	}, &f.key.PublicKey, p.issuer)

	obj := map[string]any{
		"fmt":      p.fmt,
		"attStmt":  map[string]any{"x5c": [][]byte{leaf.Raw, p.issuer.cert.Raw}, "receipt": []byte("receipt")},
		"authData": ad,
	}
	cb, err := cbor.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(appAttestToken{
		KeyID:       base64.StdEncoding.EncodeToString(keyID),
		Attestation: base64.StdEncoding.EncodeToString(cb),
	})
	return base64.StdEncoding.EncodeToString(js)
}

func (f *appAttestFixture) verifier(t testing.TB, dev bool) *AppAttestVerifier {
	t.Helper()
	v, err := NewAppAttestVerifier(AppAttestConfig{
		AppID:       testAppID,
		Development: dev,
		Roots:       []*x509.Certificate{f.root.cert},
		Now:         func() time.Time { return testEpoch },
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAppAttestAccepts(t *testing.T) {
	f := newAppAttestFixture(t)
	challenge := EnrollChallenge("did:veriland:holder1", "0xAbC0000000000000000000000000000000000001")
	for _, tc := range []struct {
		name string
		dev  bool
		p    appAttestParams
	}{
		{"production", false, appAttestParams{challenge: challenge}},
		{"development", true, appAttestParams{challenge: challenge, aaguid: aaguidDevelopment}},
		{"trailing bytes after key", false, appAttestParams{challenge: challenge, trailing: []byte{0xa1, 0x01, 0x02, 0xff}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := f.verifier(t, tc.dev).Verify(context.Background(), f.token(t, tc.p), challenge)
			if err != nil {
				t.Fatal(err)
			}
			if res.Type != AppAttest || res.Trust != TrustStrong || res.Platform != PlatformIOS ||
				len(res.KeyID) != 32 || string(res.Receipt) != "receipt" || res.Development != tc.dev {
				t.Fatalf("unexpected result %+v", res)
			}
		})
	}
}

// TestAppAttestVerifyClientDataHash checks the raw-bytes entry point with
// clientDataHash values that are not 32 bytes long, as in Apple's guide vector (24
// bytes), and that a different raw value is refused.
func TestAppAttestVerifyClientDataHash(t *testing.T) {
	f := newAppAttestFixture(t)
	v := f.verifier(t, false)
	for _, tc := range []struct {
		name    string
		signed  []byte
		checked []byte
		want    error
	}{
		{"24 bytes", []byte("apple guide 24-byte hash"), []byte("apple guide 24-byte hash"), nil},
		{"1 byte", []byte{0x01}, []byte{0x01}, nil},
		{"64 bytes", make([]byte, 64), make([]byte, 64), nil},
		{"other value", []byte("apple guide 24-byte hash"), []byte("apple guide 24-byte HASH"), ErrNonceMismatch},
		{"truncated", []byte("apple guide 24-byte hash"), []byte("apple guide 24-byte has"), ErrNonceMismatch},
		{"empty", []byte("apple guide 24-byte hash"), nil, ErrNonceMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			token := f.token(t, appAttestParams{rawHash: tc.signed})
			res, err := v.VerifyClientDataHash(context.Background(), token, tc.checked)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if tc.want == nil && (res == nil || res.Type != AppAttest) {
				t.Fatalf("unexpected result %+v", res)
			}
			if tc.want != nil && res != nil {
				t.Fatalf("result %+v alongside error", res)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := v.VerifyClientDataHash(ctx, f.token(t, appAttestParams{rawHash: []byte{1}}), []byte{1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: got %v", err)
	}
}

func TestAppAttestRejects(t *testing.T) {
	f := newAppAttestFixture(t)
	challenge := EnrollChallenge("did:veriland:holder1", "0xabc")
	other := newTestRoot(t, "Impostor Root").intermediate(t, "Impostor CA")
	tests := []struct {
		name      string
		p         appAttestParams
		challenge [32]byte
		dev       bool
		want      error
		code      veriland.Code
	}{
		{"wrong challenge", appAttestParams{challenge: challenge}, [32]byte{1}, false, ErrNonceMismatch, codeRejected},
		{"wrong nonce", appAttestParams{challenge: challenge, nonce: make([]byte, 32)}, challenge, false, ErrNonceMismatch, codeRejected},
		{"wrong app id", appAttestParams{challenge: challenge, appID: "ABCDE12345.land.veri.other"}, challenge, false, ErrAppIDMismatch, codeRejected},
		{"development AAGUID in production", appAttestParams{challenge: challenge, aaguid: aaguidDevelopment}, challenge, false, ErrAAGUIDMismatch, codeRejected},
		{"production AAGUID in development", appAttestParams{challenge: challenge}, challenge, true, ErrAAGUIDMismatch, codeRejected},
		{"counter not zero", appAttestParams{challenge: challenge, counter: 1}, challenge, false, ErrCounterNotZero, codeRejected},
		{"key id mismatch", appAttestParams{challenge: challenge, keyID: make([]byte, 32)}, challenge, false, ErrKeyIDMismatch, codeRejected},
		{"credential id mismatch", appAttestParams{challenge: challenge, credentialID: make([]byte, 32)}, challenge, false, ErrCredentialIDMismatch, codeRejected},
		{"untrusted root", appAttestParams{challenge: challenge, issuer: other}, challenge, false, ErrUntrustedRoot, codeRejected},
		{"expired credential certificate", appAttestParams{challenge: challenge, notAfter: testEpoch.Add(-time.Minute)}, challenge, false, ErrCertificateValidity, codeRejected},
		{"wrong format", appAttestParams{challenge: challenge, fmt: "packed"}, challenge, false, ErrWrongFormat, codeRejected},
		{"short key id", appAttestParams{challenge: challenge, keyID: make([]byte, 31)}, challenge, false, ErrMalformedToken, codeMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.verifier(t, tc.dev).Verify(context.Background(), f.token(t, tc.p), tc.challenge)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if veriland.CodeOf(err) != tc.code {
				t.Fatalf("code %s, want %s", veriland.CodeOf(err), tc.code)
			}
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Meta["reason"] != Reason(tc.want) {
				t.Fatalf("reason missing in %#v", err)
			}
		})
	}
}

func TestAppAttestMalformed(t *testing.T) {
	f := newAppAttestFixture(t)
	v := f.verifier(t, false)
	b64 := base64.StdEncoding.EncodeToString
	keyID := b64(make([]byte, 32))
	tok := func(att []byte) string {
		js, _ := json.Marshal(appAttestToken{KeyID: keyID, Attestation: b64(att)})
		return b64(js)
	}
	cb := func(v any) []byte { b, _ := cbor.Marshal(v); return b }
	for name, token := range map[string]string{
		"empty":             "",
		"not base64":        "***",
		"not json":          b64([]byte("[]")),
		"unknown member":    b64([]byte(`{"keyId":"` + keyID + `","attestation":"AA==","extra":1}`)),
		"attestation empty": tok(nil),
		"not cbor":          tok([]byte{0xff, 0x00}),
		"cbor array":        tok(cb([]int{1, 2})),
		"no authData":       tok(cb(map[string]any{"fmt": appAttestFormat})),
		"short authData":    tok(cb(map[string]any{"fmt": appAttestFormat, "authData": make([]byte, 40)})),
		"no AT flag":        tok(cb(map[string]any{"fmt": appAttestFormat, "authData": make([]byte, 80)})),
		"duplicate keys":    tok([]byte{0xa2, 0x63, 'f', 'm', 't', 0x61, 'a', 0x63, 'f', 'm', 't', 0x61, 'b'}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), token, [32]byte{})
			if !veriland.IsCode(err, codeMalformed) && !errors.Is(err, ErrWrongFormat) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestAppleAppAttestRoot(t *testing.T) {
	r, err := AppleAppAttestRoot()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject.CommonName != "Apple App Attestation Root CA" {
		t.Fatalf("subject %s", r.Subject)
	}
	if err := r.CheckSignatureFrom(r); err != nil {
		t.Fatalf("self-signature: %v", err)
	}
	if _, err := NewAppAttestVerifier(AppAttestConfig{AppID: testAppID}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewAppAttestVerifier(AppAttestConfig{AppID: "nodot"}); err == nil {
		t.Fatal("app id without team accepted")
	}
}
