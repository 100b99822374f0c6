package siwe_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"math/big"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage/bolt"
)

const origin = "https://veriland.example"

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newService(t testing.TB) (*siwe.Service, *clock) {
	t.Helper()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "siwe.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return &siwe.Service{Store: store, Origin: origin, ChainID: 1, Now: c.Now}, c
}

func testKey(t testing.TB, seed byte) *ecdsa.PrivateKey {
	t.Helper()
	b := make([]byte, 32)
	b[31] = seed
	b[0] = 0x11
	key, err := crypto.ToECDSA(b)
	require.NoError(t, err)
	return key
}

// message returns a valid sign-in message for key with nonce, issued at now.
func message(key *ecdsa.PrivateKey, nonce string, now time.Time) *siwe.Message {
	return &siwe.Message{
		Domain:         "veriland.example",
		Address:        crypto.PubkeyToAddress(key.PublicKey).Hex(),
		Statement:      "Sign in to veriland.",
		URI:            "https://veriland.example/auth/siwe",
		Version:        "1",
		ChainID:        1,
		Nonce:          nonce,
		IssuedAt:       now,
		ExpirationTime: now.Add(10 * time.Minute),
	}
}

// sign returns r ‖ s ‖ v with v 0 or 1 (go-ethereum's form), hex with 0x.
func sign(t testing.TB, key *ecdsa.PrivateKey, msg string) []byte {
	t.Helper()
	d := ethsig.PersonalDigest([]byte(msg))
	sig, err := crypto.Sign(d[:], key)
	require.NoError(t, err)
	return sig
}

func hex0x(b []byte) string { return "0x" + hex.EncodeToString(b) }

// highS returns the malleable twin of sig: s' = n - s, v flipped. It recovers to the
// same key under go-ethereum's recovery alone.
func highS(sig []byte) []byte {
	out := append([]byte(nil), sig...)
	s := new(big.Int).SetBytes(out[32:64])
	s.Sub(crypto.S256().Params().N, s)
	s.FillBytes(out[32:64])
	out[64] ^= 1
	return out
}

func TestVerify(t *testing.T) {
	key, other := testKey(t, 1), testKey(t, 2)
	type tc struct {
		name    string
		edit    func(m *siwe.Message)                 // changes the message before signing
		text    func(s string) string                 // changes the text after building it (before signing)
		sig     func(t *testing.T, sig []byte) string // turns the signature into what is sent
		tamper  func(s string) string                 // changes the text after signing
		advance time.Duration                         // clock moves before Verify
		code    veriland.Code
		cause   error
		pointer string
	}
	v27 := func(_ *testing.T, sig []byte) string { s := append([]byte(nil), sig...); s[64] += 27; return hex0x(s) }
	tests := []tc{
		{name: "v 0/1"},
		{name: "v 27/28", sig: v27},
		{name: "no 0x on the signature", sig: func(_ *testing.T, sig []byte) string { return hex.EncodeToString(sig) }},
		{name: "upper-case hex signature", sig: func(_ *testing.T, sig []byte) string { return "0x" + strings.ToUpper(hex.EncodeToString(sig)) }},
		{name: "no statement, no expiry", edit: func(m *siwe.Message) { m.Statement, m.ExpirationTime = "", time.Time{} }},
		{name: "scheme given", edit: func(m *siwe.Message) { m.Scheme = "https" }},
		{name: "default port spelled out", edit: func(m *siwe.Message) {
			m.Domain, m.URI = "veriland.example:443", "https://veriland.example:443/auth/siwe"
		}},
		{name: "upper-case host", edit: func(m *siwe.Message) { m.Domain = "Veriland.Example" }},
		{name: "issued within skew", edit: func(m *siwe.Message) { m.IssuedAt = m.IssuedAt.Add(30 * time.Second) }},
		{name: "not before passed", edit: func(m *siwe.Message) { m.NotBefore = m.IssuedAt }, advance: time.Second},
		{name: "resources and request id", edit: func(m *siwe.Message) {
			m.RequestID, m.Resources = "req-1", []string{"https://veriland.example/consent/vrq_1"}
		}},

		{name: "wrong domain", edit: func(m *siwe.Message) { m.Domain = "evil.example" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrDomainMismatch},
		{name: "look-alike domain", edit: func(m *siwe.Message) { m.Domain = "veriland.example.evil.example" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrDomainMismatch},
		{name: "other port", edit: func(m *siwe.Message) { m.Domain = "veriland.example:8443" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrDomainMismatch},
		{name: "userinfo in domain", edit: func(m *siwe.Message) { m.Domain = "evil@veriland.example" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrDomainMismatch},
		{name: "wrong scheme", edit: func(m *siwe.Message) { m.Scheme = "http" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrDomainMismatch},
		{name: "wrong URI host", edit: func(m *siwe.Message) { m.URI = "https://evil.example/auth/siwe" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrURIMismatch},
		{name: "wrong URI scheme", edit: func(m *siwe.Message) { m.URI = "http://veriland.example/auth/siwe" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrURIMismatch},
		{name: "wrong URI port", edit: func(m *siwe.Message) { m.URI = "https://veriland.example:8443/" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrURIMismatch},
		{name: "URI with userinfo", edit: func(m *siwe.Message) { m.URI = "https://evil@veriland.example/" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrURIMismatch},
		{name: "URI not http", edit: func(m *siwe.Message) { m.URI = "did:web:veriland.example" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrURIMismatch},
		{name: "wrong chain", edit: func(m *siwe.Message) { m.ChainID = 137 }, code: veriland.CodeUnauthenticated, cause: siwe.ErrChainMismatch},
		{name: "expired", advance: 10 * time.Minute, code: veriland.CodeUnauthenticated, cause: siwe.ErrExpired},
		{name: "not yet valid", edit: func(m *siwe.Message) { m.NotBefore = m.IssuedAt.Add(2 * time.Minute) }, code: veriland.CodeUnauthenticated, cause: siwe.ErrNotYetValid},
		{name: "issued in the future", edit: func(m *siwe.Message) { m.IssuedAt = m.IssuedAt.Add(2 * time.Minute) }, code: veriland.CodeUnauthenticated, cause: siwe.ErrIssuedInFuture},
		{name: "high s", sig: func(_ *testing.T, sig []byte) string { return hex0x(highS(sig)) }, code: veriland.CodeUnauthenticated, cause: ethsig.ErrHighS},
		{name: "high s, v 27/28", sig: func(t *testing.T, sig []byte) string { return v27(t, highS(sig)) }, code: veriland.CodeUnauthenticated, cause: ethsig.ErrHighS},
		{name: "v 29", sig: func(_ *testing.T, sig []byte) string { s := append([]byte(nil), sig...); s[64] = 29; return hex0x(s) }, code: veriland.CodeUnauthenticated, cause: siwe.ErrBadSignature},
		{name: "zero signature", sig: func(_ *testing.T, sig []byte) string { return hex0x(make([]byte, 65)) }, code: veriland.CodeUnauthenticated, cause: siwe.ErrBadSignature},
		{name: "wrong signer", edit: func(m *siwe.Message) { m.Address = crypto.PubkeyToAddress(other.PublicKey).Hex() }, code: veriland.CodeUnauthenticated, cause: siwe.ErrSignerMismatch},
		{name: "message changed after signing", tamper: func(s string) string { return strings.Replace(s, "Sign in to veriland.", "Sign in to veriland!", 1) }, code: veriland.CodeUnauthenticated, cause: siwe.ErrSignerMismatch},
		{name: "unknown nonce", edit: func(m *siwe.Message) { m.Nonce = "abcdefgh12345678" }, code: veriland.CodeUnauthenticated, cause: siwe.ErrUnknownNonce},
		{name: "expired nonce", edit: func(m *siwe.Message) { m.ExpirationTime = time.Time{} }, advance: siwe.NonceTTL, code: veriland.CodeUnauthenticated, cause: siwe.ErrNonceExpired},

		{name: "short signature", sig: func(_ *testing.T, sig []byte) string { return hex0x(sig[:64]) }, code: veriland.CodeValidationFailed, cause: siwe.ErrInvalidSigEnc, pointer: "/signature"},
		{name: "long signature", sig: func(_ *testing.T, sig []byte) string { return hex0x(append(sig, 0)) }, code: veriland.CodeValidationFailed, cause: siwe.ErrInvalidSigEnc, pointer: "/signature"},
		{name: "empty signature", sig: func(*testing.T, []byte) string { return "" }, code: veriland.CodeValidationFailed, cause: siwe.ErrInvalidSigEnc, pointer: "/signature"},
		{name: "non-hex signature", sig: func(_ *testing.T, sig []byte) string { return "0x" + strings.Repeat("zz", 65) }, code: veriland.CodeValidationFailed, cause: siwe.ErrInvalidSigEnc, pointer: "/signature"},
		{name: "malformed message", text: func(s string) string { return s + "\n" }, code: veriland.CodeValidationFailed, pointer: "/message"},
		{name: "address without checksum", text: func(s string) string {
			lines := strings.SplitN(s, "\n", 3)
			lines[1] = strings.ToLower(lines[1])
			return strings.Join(lines, "\n")
		}, code: veriland.CodeValidationFailed, pointer: "/message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, clk := newService(t)
			ctx := context.Background()
			nonce, expiresAt, err := svc.NewNonce(ctx)
			require.NoError(t, err)
			require.Equal(t, clk.Now().Add(siwe.NonceTTL), expiresAt)

			m := message(key, nonce, clk.Now())
			if tt.edit != nil {
				tt.edit(m)
			}
			text := m.String()
			if tt.text != nil {
				text = tt.text(text)
			}
			raw := sign(t, key, text)
			sig := hex0x(raw)
			if tt.sig != nil {
				sig = tt.sig(t, raw)
			}
			if tt.tamper != nil {
				text = tt.tamper(text)
			}
			clk.Advance(tt.advance)

			login, err := svc.Verify(ctx, veriland.Sandbox, text, sig)
			if tt.code == "" {
				require.NoError(t, err)
				require.Equal(t, strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()), login.Address)
				require.Equal(t, uint64(1), login.ChainID)
				require.Equal(t, nonce, login.Nonce)
				require.True(t, m.IssuedAt.Equal(login.IssuedAt))
				require.True(t, m.ExpirationTime.Equal(login.ExpiresAt))
				// The nonce is spent.
				_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
				require.ErrorIs(t, err, siwe.ErrUnknownNonce)
				return
			}
			require.Nil(t, login)
			require.Equal(t, tt.code, veriland.CodeOf(err), "%v", err)
			var verr *veriland.Error
			require.ErrorAs(t, err, &verr)
			require.Equal(t, tt.pointer, verr.Pointer)
			if tt.cause != nil {
				require.ErrorIs(t, err, tt.cause)
			}
		})
	}
}

func TestVerifyNonceLifecycle(t *testing.T) {
	key := testKey(t, 1)
	ctx := context.Background()
	signed := func(t *testing.T, svc *siwe.Service, nonce string, now time.Time) (string, string) {
		text := message(key, nonce, now).String()
		return text, hex0x(sign(t, key, text))
	}

	t.Run("reused nonce", func(t *testing.T) {
		svc, clk := newService(t)
		nonce, _, err := svc.NewNonce(ctx)
		require.NoError(t, err)
		text, sig := signed(t, svc, nonce, clk.Now())
		_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
		require.NoError(t, err)
		// A fresh message with the same nonce fails too.
		clk.Advance(time.Second)
		text2, sig2 := signed(t, svc, nonce, clk.Now())
		_, err = svc.Verify(ctx, veriland.Sandbox, text2, sig2)
		require.ErrorIs(t, err, siwe.ErrUnknownNonce)
	})
	t.Run("a refused login does not spend the nonce", func(t *testing.T) {
		svc, clk := newService(t)
		nonce, _, err := svc.NewNonce(ctx)
		require.NoError(t, err)
		m := message(key, nonce, clk.Now())
		m.ChainID = 5
		_, err = svc.Verify(ctx, veriland.Sandbox, m.String(), hex0x(sign(t, key, m.String())))
		require.ErrorIs(t, err, siwe.ErrChainMismatch)
		text, sig := signed(t, svc, nonce, clk.Now())
		_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
		require.NoError(t, err)
	})
	t.Run("expired nonce is deleted", func(t *testing.T) {
		svc, clk := newService(t)
		nonce, _, err := svc.NewNonce(ctx)
		require.NoError(t, err)
		clk.Advance(siwe.NonceTTL - time.Second)
		text, sig := signed(t, svc, nonce, clk.Now())
		clk.Advance(time.Second)
		_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
		require.ErrorIs(t, err, siwe.ErrNonceExpired)
		_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
		require.ErrorIs(t, err, siwe.ErrUnknownNonce)
	})
	t.Run("a nonce is good for either environment, once", func(t *testing.T) {
		for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
			svc, clk := newService(t)
			nonce, _, err := svc.NewNonce(ctx)
			require.NoError(t, err)
			text, sig := signed(t, svc, nonce, clk.Now())
			_, err = svc.Verify(ctx, env, text, sig)
			require.NoError(t, err, env)
			// Spent in one environment: gone for both.
			for _, other := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
				_, err = svc.Verify(ctx, other, text, sig)
				require.ErrorIs(t, err, siwe.ErrUnknownNonce, "%s then %s", env, other)
			}
		}
	})
	t.Run("concurrent use logs in once", func(t *testing.T) {
		svc, clk := newService(t)
		nonce, _, err := svc.NewNonce(ctx)
		require.NoError(t, err)
		text, sig := signed(t, svc, nonce, clk.Now())
		const n = 16
		errs := make(chan error, n)
		for range n {
			go func() { _, err := svc.Verify(ctx, veriland.Sandbox, text, sig); errs <- err }()
		}
		var ok int
		for range n {
			if err := <-errs; err == nil {
				ok++
			} else {
				require.ErrorIs(t, err, siwe.ErrUnknownNonce)
			}
		}
		require.Equal(t, 1, ok)
	})
	t.Run("purge", func(t *testing.T) {
		svc, clk := newService(t)
		var nonces []string
		for range 10 {
			nonce, _, err := svc.NewNonce(ctx)
			require.NoError(t, err)
			nonces = append(nonces, nonce)
		}
		n, err := svc.PurgeExpiredNonces(ctx, 100)
		require.NoError(t, err)
		require.Zero(t, n)
		clk.Advance(siwe.NonceTTL + time.Second)
		// Each new nonce removes a few expired ones on the way.
		_, _, err = svc.NewNonce(ctx)
		require.NoError(t, err)
		n, err = svc.PurgeExpiredNonces(ctx, 100)
		require.NoError(t, err)
		require.Equal(t, 10-4, n)
		text, sig := signed(t, svc, nonces[9], clk.Now())
		_, err = svc.Verify(ctx, veriland.Sandbox, text, sig)
		require.ErrorIs(t, err, siwe.ErrUnknownNonce)
	})
}

func TestVerifyConfiguration(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	for _, o := range []string{"", "veriland.example", "ftp://veriland.example", "https://u@veriland.example", "https://veriland.example/path", "https://veriland.example?x"} {
		bad := *svc
		bad.Origin = o
		_, err := bad.Verify(ctx, veriland.Sandbox, full, "0x")
		require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err), o)
	}
	noChain := *svc
	noChain.ChainID = 0
	_, err := noChain.Verify(ctx, veriland.Sandbox, full, "0x")
	require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))

	_, err = svc.Verify(ctx, "STAGING", full, "0x")
	require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
	noStore := *svc
	noStore.Store = nil
	_, _, err = noStore.NewNonce(ctx)
	require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))

	// A local origin with a port, as the reference server runs.
	local := *svc
	local.Origin = "http://127.0.0.1:8080/"
	key := testKey(t, 3)
	nonce, _, err := local.NewNonce(ctx)
	require.NoError(t, err)
	m := message(key, nonce, local.Now())
	m.Domain, m.URI = "127.0.0.1:8080", "http://127.0.0.1:8080/auth/siwe"
	_, err = local.Verify(ctx, veriland.Sandbox, m.String(), hex0x(sign(t, key, m.String())))
	require.NoError(t, err)
	require.False(t, errors.Is(err, siwe.ErrDomainMismatch))
}
