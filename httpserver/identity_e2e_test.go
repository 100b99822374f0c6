package httpserver

import (
	"crypto/ecdsa"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
)

var sandboxHeader = map[string]string{headerEnvironment: "SANDBOX"}

// issueIdentity issues a sandbox identity bound to wallet and returns its DID.
func (h *harness) issueIdentity(t testing.TB, subjectRef string, wallet *ecdsa.PrivateKey, scenario string) map[string]any {
	t.Helper()
	body := map[string]any{"subjectRef": subjectRef, "countryCode": "NG", "payload": map[string]any{"scenario": scenario, "fullName": "Ada Obi"}}
	if wallet != nil {
		body["walletAddress"] = crypto.PubkeyToAddress(wallet.PublicKey).Hex()
	}
	r := h.do(request{method: "POST", path: "/identity/issue", body: body, header: sandboxHeader})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	return r.json(t)
}

// login signs in with the wallet through SIWE and returns the holder token and DID.
func (h *harness) login(t testing.TB, wallet *ecdsa.PrivateKey, env veriland.Environment) (string, string) {
	t.Helper()
	n := h.do(request{method: "POST", path: "/auth/siwe/nonce", body: map[string]any{"environment": env}})
	require.Equal(t, http.StatusCreated, n.status, string(n.body))
	msg := siwe.Message{
		Domain: "veriland.test", Address: crypto.PubkeyToAddress(wallet.PublicKey).Hex(),
		Statement: "Sign in to veriland", URI: "http://veriland.test/login", Version: "1", ChainID: 1,
		Nonce: n.json(t)["nonce"].(string), IssuedAt: h.clock.Now(),
	}
	text := msg.String()
	sig, err := ethsig.Sign(wallet, ethsig.PersonalDigest([]byte(text)))
	require.NoError(t, err)
	r := h.do(request{method: "POST", path: "/auth/siwe", body: map[string]any{"message": text, "signature": hexutil.Encode(sig), "environment": env}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	m := r.json(t)
	return m["token"].(string), m["did"].(string)
}

func TestIdentityRoutes(t *testing.T) {
	h := newHarness(t)
	wallet, _ := crypto.GenerateKey()

	issued := h.issueIdentity(t, "customer-42", wallet, "success")
	did := issued["did"].(string)
	require.Equal(t, "ACTIVE", issued["status"])
	require.True(t, strings.HasPrefix(did, "did:veriland:"))

	st := h.do(request{method: "GET", path: "/identity/" + did + "/status"})
	require.Equal(t, 200, st.status)
	require.Equal(t, true, st.json(t)["walletBound"])
	require.NotContains(t, string(st.body), "Ada Obi")

	// The same subject again: 409 with the existing DID.
	dup := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
		body: map[string]any{"subjectRef": "customer-42", "countryCode": "NG"}})
	require.Equal(t, 409, dup.status)
	require.Equal(t, "already_exists", dup.errorCode(t))
	require.Equal(t, did, dup.json(t)["errors"].([]any)[0].(map[string]any)["meta"].(map[string]any)["did"])

	// The sandbox identity is invisible from PRODUCTION.
	prodAdmin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	require.Equal(t, 404, h.do(request{method: "GET", path: "/identity/" + did + "/status", token: prodAdmin}).status)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/identity/" + did + "/status", header: map[string]string{headerEnvironment: "PRODUCTION"}}).status)

	// PRODUCTION has no KYC provider configured in the harness: 503, not a sandbox pass.
	prod := h.do(request{method: "POST", path: "/identity/issue", body: map[string]any{"subjectRef": "p-1", "countryCode": "NG"}})
	require.Equal(t, 503, prod.status, string(prod.body))

	t.Run("refusal says why PRODUCTION", func(t *testing.T) {
		first := func(r response) map[string]any {
			require.Equal(t, 503, r.status, string(r.body))
			require.Equal(t, "unavailable", r.errorCode(t))
			return r.json(t)["errors"].([]any)[0].(map[string]any)
		}
		// No token, no header: PRODUCTION by default, and the detail says so, names
		// the header the sandbox needs, and still says how to configure a provider.
		e := first(prod)
		detail := e["detail"].(string)
		require.Contains(t, detail, "went to PRODUCTION because it carried no Veriland-Environment header")
		require.Contains(t, detail, "Veriland-Environment: SANDBOX")
		require.Contains(t, detail, "no KYC provider is configured for PRODUCTION")
		require.Contains(t, detail, "-kyc-url")

		// A caller that asked for PRODUCTION, by header or by token, gets the
		// configuration advice without the sandbox hint.
		asked := []request{
			{method: "POST", path: "/identity/issue", header: map[string]string{headerEnvironment: "PRODUCTION"},
				body: map[string]any{"subjectRef": "p-2", "countryCode": "NG"}},
			{method: "POST", path: "/identity/issue", token: h.token(veriland.RoleVerifier, veriland.Production, "agency-1"),
				body: map[string]any{"subjectRef": "p-3", "countryCode": "NG"}},
		}
		for _, req := range asked {
			e := first(h.do(req))
			detail := e["detail"].(string)
			require.NotContains(t, detail, "Veriland-Environment: SANDBOX")
			require.Contains(t, detail, "no KYC provider is configured for PRODUCTION")
			require.NotContains(t, detail, "went to PRODUCTION because")
		}

		// The same request with the header is served by the sandbox.
		ok := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: map[string]any{"subjectRef": "p-1", "countryCode": "NG"}})
		require.Equal(t, 201, ok.status, string(ok.body))
	})

	t.Run("validation", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: map[string]any{"subjectRef": "", "countryCode": "ng", "walletAddress": "0xAbC"}})
		require.Equal(t, 400, r.status)
		require.GreaterOrEqual(t, len(r.json(t)["errors"].([]any)), 3)
	})

	t.Run("review", func(t *testing.T) {
		rev := h.issueIdentity(t, "customer-review", nil, "review")
		require.Equal(t, "PENDING_REVIEW", rev["status"])
		id := rev["reviewId"].(string)
		g := h.do(request{method: "GET", path: "/identity/review/" + id})
		require.Equal(t, 200, g.status)
		require.Equal(t, "OPEN", g.json(t)["status"])
		admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
		d := h.do(request{method: "POST", path: "/identity/review/" + id + "/decision", token: admin, body: map[string]any{"decision": "APPROVED"}})
		require.Equal(t, 200, d.status, string(d.body))
		require.Equal(t, "APPROVED", d.json(t)["status"])
		again := h.do(request{method: "POST", path: "/identity/review/" + id + "/decision", token: admin, body: map[string]any{"decision": "REJECTED"}})
		require.Equal(t, 409, again.status)
		st := h.do(request{method: "GET", path: "/identity/" + rev["did"].(string) + "/status"}).json(t)
		require.Equal(t, "ACTIVE", st["status"])
	})
}

func TestWalletLogin(t *testing.T) {
	h := newHarness(t)
	wallet, _ := crypto.GenerateKey()
	did := h.issueIdentity(t, "customer-7", wallet, "success")["did"].(string)

	tok, gotDID := h.login(t, wallet, veriland.Sandbox)
	require.Equal(t, did, gotDID)
	p, err := h.tokens.Verify(tok)
	require.NoError(t, err)
	require.Equal(t, veriland.RoleHolder, p.Role)
	require.Equal(t, veriland.Sandbox, p.Env)
	require.Equal(t, strings.ToLower(crypto.PubkeyToAddress(wallet.PublicKey).Hex()), p.Wallet)

	// A wallet with no identity signs in as its did:pkh.
	other, _ := crypto.GenerateKey()
	_, pkh := h.login(t, other, veriland.Sandbox)
	require.Equal(t, "did:pkh:eip155:1:"+strings.ToLower(crypto.PubkeyToAddress(other.PublicKey).Hex()), pkh)

	t.Run("refusals", func(t *testing.T) {
		n := h.do(request{method: "POST", path: "/auth/siwe/nonce", body: map[string]any{"environment": "SANDBOX"}}).json(t)["nonce"].(string)
		msg := siwe.Message{Domain: "evil.test", Address: crypto.PubkeyToAddress(wallet.PublicKey).Hex(), URI: "http://evil.test/",
			Version: "1", ChainID: 1, Nonce: n, IssuedAt: h.clock.Now()}
		sig, _ := ethsig.Sign(wallet, ethsig.PersonalDigest([]byte(msg.String())))
		r := h.do(request{method: "POST", path: "/auth/siwe", body: map[string]any{"message": msg.String(), "signature": hexutil.Encode(sig), "environment": "SANDBOX"}})
		require.Equal(t, 401, r.status)

		r = h.do(request{method: "POST", path: "/auth/siwe", body: map[string]any{"message": "hello", "signature": "0x00", "environment": "SANDBOX"}})
		require.Equal(t, 400, r.status)
	})
}
