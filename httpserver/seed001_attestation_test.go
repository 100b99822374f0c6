package httpserver

import (
	"net/http"
	"strings"
	"testing"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// The attestation routes of seed 001 §4 through the real server:
// GET /attestation/:id/status (public) → {status: VALID or REVOKED}, and
// POST /attestation/:id/revoke (holder or admin; "body is an empty object") → the
// revocation result, with VALID → REVOKED the only transition (§3).
func TestSeed001AttestationStatusAndRevoke(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	wallet, _ := ethcrypto.GenerateKey()
	h.issueIdentity(t, "att-holder", wallet, "success")
	holderTok, did := h.login(t, wallet, veriland.Sandbox)
	otherWallet, _ := ethcrypto.GenerateKey()
	h.issueIdentity(t, "att-other", otherWallet, "success")
	otherTok, _ := h.login(t, otherWallet, veriland.Sandbox)
	adminTok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-1")
	verifierTok := h.token(veriland.RoleVerifier, veriland.Sandbox, "verifier-1")
	prodAdminTok := h.token(veriland.RoleAdmin, veriland.Production, "admin-1")

	status := func(id string, header map[string]string) response {
		return h.do(request{method: "GET", path: "/attestation/" + id + "/status", header: header})
	}

	t.Run("status of an issued attestation is VALID", func(t *testing.T) {
		id := h.livenessAttestation(t, did, "L2")
		// Without the header a read by id looks in both environments; with it, only in
		// the one it names.
		for _, hdr := range []map[string]string{nil, {"Veriland-Environment": "SANDBOX"}} {
			r := status(id, hdr)
			require.Equal(t, http.StatusOK, r.status, string(r.body))
			m := r.json(t)
			require.Equal(t, id, m["id"])
			require.Equal(t, "VALID", m["status"])
			require.Nil(t, m["revokedAt"])
		}
		r := status(id, map[string]string{"Veriland-Environment": "PRODUCTION"})
		require.Equal(t, http.StatusNotFound, r.status, "a SANDBOX attestation does not exist in PRODUCTION")
	})

	t.Run("status of an unknown id is 404", func(t *testing.T) {
		for _, id := range []string{"att_AAAAAAAAAAAAAAAAAAAAAAAAAA", "nope", strings.Repeat("x", 300)} {
			r := status(id, nil)
			require.Equal(t, http.StatusNotFound, r.status, id)
			require.Equal(t, "not_found", r.errorCode(t))
		}
	})

	revokeCases := []struct {
		name       string
		token      func() string
		body       any // nil: no body and no Content-Type
		wantStatus int
		wantCode   string
		wantPtr    string
	}{
		{name: "holder, empty object", token: func() string { return holderTok }, body: `{}`, wantStatus: 200},
		{name: "holder, no body at all", token: func() string { return holderTok }, body: nil, wantStatus: 200},
		{name: "holder, with a reason", token: func() string { return holderTok }, body: map[string]any{"reason": "lost my phone"}, wantStatus: 200},
		{name: "holder, reason of 500 characters", token: func() string { return holderTok }, body: map[string]any{"reason": strings.Repeat("r", 500)}, wantStatus: 200},
		{name: "admin", token: func() string { return adminTok }, body: `{}`, wantStatus: 200},
		{name: "reason of 501 characters", token: func() string { return holderTok }, body: map[string]any{"reason": strings.Repeat("r", 501)}, wantStatus: 400, wantCode: "validation_failed", wantPtr: "/reason"},
		{name: "unknown member", token: func() string { return holderTok }, body: map[string]any{"status": "VALID"}, wantStatus: 400, wantCode: "unknown_field", wantPtr: "/status"},
		{name: "not an object", token: func() string { return holderTok }, body: `[]`, wantStatus: 400, wantCode: "invalid_json"},
		{name: "another holder", token: func() string { return otherTok }, body: `{}`, wantStatus: 403, wantCode: "forbidden"},
		{name: "a verifier", token: func() string { return verifierTok }, body: `{}`, wantStatus: 403, wantCode: "forbidden"},
		{name: "no token", token: func() string { return "" }, body: `{}`, wantStatus: 401, wantCode: "unauthenticated"},
		{name: "the other environment's admin", token: func() string { return prodAdminTok }, body: `{}`, wantStatus: 404, wantCode: "not_found"},
	}
	for _, c := range revokeCases {
		t.Run("revoke: "+c.name, func(t *testing.T) {
			id := h.livenessAttestation(t, did, "L2")
			r := h.do(request{method: "POST", path: "/attestation/" + id + "/revoke", token: c.token(), body: c.body})
			require.Equal(t, c.wantStatus, r.status, string(r.body))
			if c.wantStatus != http.StatusOK {
				require.Equal(t, c.wantCode, r.errorCode(t))
				if c.wantPtr != "" {
					require.Contains(t, string(r.body), `"pointer":"`+c.wantPtr+`"`)
				}
				require.Equal(t, "VALID", status(id, nil).json(t)["status"], "a refused revocation changes nothing")
				return
			}
			m := r.json(t)
			require.Equal(t, id, m["id"])
			require.Equal(t, "REVOKED", m["status"])
			revokedAt, _ := m["revokedAt"].(string)
			require.NotEmpty(t, revokedAt)

			// The public status follows, and revoking again is a no-op 200 that keeps
			// the first revocation time.
			st := status(id, nil).json(t)
			require.Equal(t, "REVOKED", st["status"])
			require.Equal(t, revokedAt, st["revokedAt"])
			h.clock.Advance(1)
			again := h.do(request{method: "POST", path: "/attestation/" + id + "/revoke", token: c.token(), body: `{}`})
			require.Equal(t, http.StatusOK, again.status, string(again.body))
			require.Equal(t, revokedAt, again.json(t)["revokedAt"])
		})
	}

	t.Run("revoke of an unknown id is 404", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/attestation/att_AAAAAAAAAAAAAAAAAAAAAAAAAA/revoke", token: adminTok, body: `{}`})
		require.Equal(t, http.StatusNotFound, r.status)
		require.Equal(t, "not_found", r.errorCode(t))
	})

	t.Run("a body with the wrong content type is 415", func(t *testing.T) {
		id := h.livenessAttestation(t, did, "L2")
		r := h.do(request{method: "POST", path: "/attestation/" + id + "/revoke", token: holderTok, body: `{}`,
			header: map[string]string{"Content-Type": "text/plain"}, skipSpec: true})
		require.Equal(t, http.StatusUnsupportedMediaType, r.status)
	})
}
