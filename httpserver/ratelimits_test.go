package httpserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
)

func TestPrincipalLimit(t *testing.T) {
	const wallet = "0x00000000000000000000000000000000000000aa"
	for _, tc := range []struct {
		name       string
		p          veriland.Principal
		key        string
		walletKind bool
	}{
		{"holder with a wallet", veriland.Principal{Subject: "did:pkh:eip155:1:" + wallet, Role: veriland.RoleHolder, Wallet: wallet, TokenID: "j1"}, wallet, true},
		{"holder without a wallet", veriland.Principal{Subject: "did:veriland:abc", Role: veriland.RoleHolder, TokenID: "j2"}, "sub:did:veriland:abc", true},
		{"verifier key", veriland.Principal{Subject: "acme", Role: veriland.RoleVerifier, TokenID: "jti-1"}, "jti:jti-1", false},
		{"notary key", veriland.Principal{Subject: "NOT-ABJ-1", Role: veriland.RoleNotary, TokenID: "jti-2"}, "jti:jti-2", false},
		{"admin key", veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, TokenID: "jti-3"}, "jti:jti-3", false},
		{"admin without jti", veriland.Principal{Subject: "root", Role: veriland.RoleAdmin}, "sub:root", false},
		{"verifier carrying a wallet", veriland.Principal{Subject: "acme", Role: veriland.RoleVerifier, Wallet: wallet, TokenID: "jti-4"}, wallet, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key, walletKind := principalLimit(tc.p)
			require.Equal(t, tc.key, key)
			require.Equal(t, tc.walletKind, walletKind)
		})
	}
}

func TestRateLimitDefaults(t *testing.T) {
	rl := RateLimits{}.withDefaults()
	require.Equal(t, ratelimit.Policy{Name: "wallet", Limit: 120, Window: time.Minute, Burst: 30}, rl.Wallet)
	require.Equal(t, ratelimit.Policy{Name: "key", Limit: 100, Window: time.Second, Burst: 200}, rl.Key)
	require.Equal(t, ratelimit.Policy{Name: "ip", Limit: 600, Window: time.Minute, Burst: 120}, rl.Public)
	custom := ratelimit.Policy{Name: "key", Limit: 5, Window: time.Second, Burst: 5}
	require.Equal(t, custom, RateLimits{Key: custom}.withDefaults().Key, "a configured policy is kept")
}

// TestRateLimitKeyVersusWallet: under the default policies (SPEC S15) a verifier's
// API key making 150 requests at once is not limited, while a holder is after 30.
func TestRateLimitKeyVersusWallet(t *testing.T) {
	h := newHarness(t)
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	created := h.do(request{method: "POST", path: "/v1/api-keys", token: admin,
		body: map[string]any{"role": "verifier", "sub": "land-office", "name": "back end"}})
	require.Equal(t, http.StatusCreated, created.status, string(created.body))
	key := created.json(t)["data"].(map[string]any)["attributes"].(map[string]any)["token"].(string)

	for i := range 150 {
		r := h.do(request{method: "GET", path: "/v1/parcels", token: key})
		require.Equal(t, http.StatusOK, r.status, "request %d: %s", i+1, r.body)
		require.Equal(t, `"key";q=100;w=1`, r.header.Get("RateLimit-Policy"))
		require.Equal(t, fmt.Sprintf(`"key";r=%d;t=%d`, 199-i, 1+i/100), r.header.Get("RateLimit"), "request %d", i+1)
		require.Empty(t, r.header.Get("Retry-After"))
	}

	// Another token of the same sub is another key with its own allowance.
	minted := h.token(veriland.RoleVerifier, veriland.Sandbox, "land-office")
	r := h.do(request{method: "GET", path: "/v1/parcels", token: minted})
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, `"key";r=199;t=1`, r.header.Get("RateLimit"))

	const wallet = "0x00000000000000000000000000000000000000bb"
	holder := h.token(veriland.RoleHolder, veriland.Sandbox, "did:pkh:eip155:1:"+wallet, func(p *veriland.Principal) { p.Wallet = wallet })
	for i := range 30 {
		r := h.do(request{method: "GET", path: "/v1/parcels", token: holder})
		require.Equal(t, http.StatusOK, r.status, "request %d: %s", i+1, r.body)
		require.Equal(t, `"wallet";q=120;w=60`, r.header.Get("RateLimit-Policy"))
		require.Equal(t, fmt.Sprintf(`"wallet";r=%d;t=%d`, 29-i, (i+2)/2), r.header.Get("RateLimit"), "request %d", i+1)
	}
	r = h.do(request{method: "GET", path: "/v1/parcels", token: holder})
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, "rate_limited", r.errorCode(t))
	require.Equal(t, `"wallet";q=120;w=60`, r.header.Get("RateLimit-Policy"))
	require.Equal(t, "1", r.header.Get("Retry-After"))

	// Configurable: a smaller key policy limits the key.
	h = newHarness(t, func(c *Config) {
		c.RateLimits.Key = ratelimit.Policy{Name: "key", Limit: 10, Window: time.Second, Burst: 2}
	})
	tok := h.token(veriland.RoleNotary, veriland.Sandbox, "NOT-ABJ-1")
	for range 2 {
		require.Equal(t, http.StatusOK, h.do(request{method: "GET", path: "/v1/parcels", token: tok}).status)
	}
	r = h.do(request{method: "GET", path: "/v1/parcels", token: tok})
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, `"key";q=10;w=1`, r.header.Get("RateLimit-Policy"))
}
