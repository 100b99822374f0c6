package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

var (
	sandboxSecret    = []byte("sandbox-secret-0123456789abcdefghijklmnop")
	productionSecret = []byte("production-secret-0123456789abcdefghijklm")
)

func newTokens(now time.Time) *Tokens {
	return &Tokens{
		Secrets: Secrets{Sandbox: sandboxSecret, Production: productionSecret},
		Now:     func() time.Time { return now },
		Rand:    rand.Reader,
	}
}

func signRaw(t *testing.T, method jwt.SigningMethod, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	require.NoError(t, err)
	return s
}

func TestMintVerifyRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tk := newTokens(now)
	raw, p, err := tk.Mint(veriland.Principal{Subject: "verifier-acme", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_1", Wallet: "0xABC"}, time.Hour)
	require.NoError(t, err)
	got, err := tk.Verify(raw)
	require.NoError(t, err)
	require.Equal(t, p, got)
	require.Equal(t, "0xabc", got.Wallet)
	require.Equal(t, now.Add(time.Hour), got.ExpiresAt)
}

func TestVerifyRefuses(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tk := newTokens(now)
	base := func() jwt.MapClaims {
		return jwt.MapClaims{"iss": "veriland", "sub": "admin", "role": "admin", "env": "SANDBOX",
			"jti": "jti_x", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	with := func(k string, v any) jwt.MapClaims { c := base(); c[k] = v; return c }
	without := func(k string) jwt.MapClaims { c := base(); delete(c, k); return c }

	none := signRaw(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "sandbox", base())
	cases := []struct {
		name  string
		token string
		code  veriland.Code
		cause error
	}{
		{"alg none", none, veriland.CodeUnauthenticated, ErrAlgorithm},
		{"RS256", signRaw(t, jwt.SigningMethodRS256, rsaKey, "sandbox", base()), veriland.CodeUnauthenticated, ErrAlgorithm},
		{"HS512", signRaw(t, jwt.SigningMethodHS512, sandboxSecret, "sandbox", base()), veriland.CodeUnauthenticated, ErrAlgorithm},
		{"wrong kid", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "staging", base()), veriland.CodeUnauthenticated, ErrKeyID},
		{"no kid", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "", base()), veriland.CodeUnauthenticated, ErrKeyID},
		{"env disagrees with kid", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", with("env", "PRODUCTION")), veriland.CodeUnauthenticated, ErrEnvMismatch},
		{"production kid, sandbox secret", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "production", with("env", "PRODUCTION")), veriland.CodeUnauthenticated, ErrSignature},
		{"expired beyond leeway", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", with("exp", now.Add(-61*time.Second).Unix())), veriland.CodeTokenExpired, ErrExpired},
		{"no exp", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", without("exp")), veriland.CodeUnauthenticated, ErrClaims},
		{"wrong iss", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", with("iss", "other")), veriland.CodeUnauthenticated, ErrClaims},
		{"bad role", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", with("role", "root")), veriland.CodeUnauthenticated, ErrClaims},
		{"no jti", signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", without("jti")), veriland.CodeUnauthenticated, ErrClaims},
		{"garbage", "not.a.token", veriland.CodeUnauthenticated, ErrMalformed},
		{"empty", "", veriland.CodeUnauthenticated, ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tk.Verify(tc.token)
			require.Error(t, err)
			require.Equal(t, tc.code, veriland.CodeOf(err))
			require.True(t, errors.Is(err, tc.cause), "got %v", err)
		})
	}

	t.Run("expired within leeway is accepted", func(t *testing.T) {
		_, err := tk.Verify(signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", with("exp", now.Add(-30*time.Second).Unix())))
		require.NoError(t, err)
	})
}

func TestMintValidates(t *testing.T) {
	tk := newTokens(time.Now())
	for _, p := range []veriland.Principal{
		{Subject: "a", Role: "root", Env: veriland.Sandbox},
		{Subject: "a", Role: veriland.RoleAdmin, Env: "STAGING"},
		{Subject: "", Role: veriland.RoleAdmin, Env: veriland.Sandbox},
	} {
		_, _, err := tk.Mint(p, time.Hour)
		require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
	}
}

func TestBearerToken(t *testing.T) {
	for in, want := range map[string]string{"Bearer abc": "abc", "bearer  abc ": "abc", "Basic abc": "", "Bearer": "", "": ""} {
		got, ok := BearerToken(in)
		require.Equal(t, want, got, in)
		require.Equal(t, want != "", ok, in)
	}
}

func FuzzVerify(f *testing.F) {
	tk := newTokens(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	good, _, _ := tk.Mint(veriland.Principal{Subject: "s", Role: veriland.RoleHolder, Env: veriland.Sandbox}, time.Hour)
	f.Add(good)
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("a.b.c")
	// A correctly signed token whose exp is a string (RFC 7519 wants a number).
	stringExp := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"iss": "veriland", "sub": "s",
		"role": "holder", "env": "SANDBOX", "jti": "jti_x", "exp": "1999999999"})
	stringExp.Header["kid"] = "sandbox"
	if seed, err := stringExp.SignedString(sandboxSecret); err == nil {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if _, err := tk.Verify(raw); err != nil && veriland.CodeOf(err) == veriland.CodeInternal {
			t.Fatalf("untyped error %v", err)
		}
	})
}

func BenchmarkVerify(b *testing.B) {
	tk := newTokens(time.Now())
	raw, _, _ := tk.Mint(veriland.Principal{Subject: "s", Role: veriland.RoleHolder, Env: veriland.Sandbox}, time.Hour)
	for b.Loop() {
		if _, err := tk.Verify(raw); err != nil {
			b.Fatal(err)
		}
	}
}
