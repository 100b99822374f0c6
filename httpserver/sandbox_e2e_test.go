package httpserver

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
)

// sandboxState reads an account's seeded state behind the API.
func (h *harness) sandboxState(t *testing.T, account string) *sandbox.State {
	t.Helper()
	st, err := h.srv.cfg.Sandbox.State(t.Context(), account)
	require.NoError(t, err)
	return st
}

// TestSandboxSeededOnFirstUse: an account's first SANDBOX request seeds it with a
// record of every kind, in the states S10 lists, all readable by the account at once.
func TestSandboxSeededOnFirstUse(t *testing.T) {
	h := newHarness(t)
	require.Nil(t, h.sandboxState(t, "acct_test"))
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	list := dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: admin}))
	st := h.sandboxState(t, "acct_test")
	require.NotNil(t, st)
	require.Len(t, list, 5, "the first request already sees the seeded parcels")

	status := func(id string) map[string]any {
		return attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: admin}))
	}
	s := st.Seeded
	require.Equal(t, "CERTIFIED", status(s.Parcels.Certified)["status"])
	require.Equal(t, "REJECTED", status(s.Parcels.Rejected)["status"])
	require.Equal(t, "PENDING_NOTARY", status(s.Parcels.Pending)["status"])
	withTransfer := status(s.Parcels.WithOpenTransfer)
	require.Equal(t, "CERTIFIED", withTransfer["status"])
	require.Equal(t, s.Transfers.Open, withTransfer["openTransferId"])
	require.Equal(t, "PENDING_NOTARY", attrs(t, h.do(request{method: "GET", path: "/v1/transfers/" + s.Transfers.Open, token: admin}))["status"])

	approved := h.do(request{method: "GET", path: "/verify/request/" + s.VerificationRequests.Approved}).json(t)
	require.Equal(t, "APPROVED", approved["status"])
	require.Equal(t, s.Attestations.Consent, approved["attestationId"])
	require.Equal(t, "PENDING", h.do(request{method: "GET", path: "/verify/request/" + s.VerificationRequests.Pending}).json(t)["status"])
	require.Equal(t, "VALID", h.do(request{method: "GET", path: "/attestation/" + s.Attestations.Consent + "/status",
		header: sandboxHeader}).json(t)["status"])

	// The holder's throwaway key signs the pending request at once.
	key, err := crypto.HexToECDSA(strings.TrimPrefix(s.Holder.PrivateKey, "0x"))
	require.NoError(t, err)
	require.Equal(t, s.Holder.WalletAddress, crypto.PubkeyToAddress(key.PublicKey).Hex())
	f := &consentFlow{h: h}
	res := f.decide(t, s.VerificationRequests.Pending, key, crypto.PubkeyToAddress(key.PublicKey), "REJECTED", []string{})
	require.Equal(t, 200, res.status, string(res.body))
}

// TestSandboxSeedsOnceUnderConcurrency: many first requests at once seed once.
func TestSandboxSeedsOnceUnderConcurrency(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	tok := h.token(veriland.RoleVerifier, veriland.Sandbox, "agency-1", func(p *veriland.Principal) { p.Account = "acct_race" })
	var wg sync.WaitGroup
	counts := make([]int, 16)
	for i := range counts {
		wg.Go(func() {
			r := h.do(request{method: "GET", path: "/v1/parcels", token: tok})
			counts[i] = len(r.json(t)["data"].([]any))
		})
	}
	wg.Wait()
	for i, n := range counts {
		require.Equal(t, 5, n, "request %d saw %d parcels", i, n)
	}
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: tok})), 5)
}

// TestSandboxAccountsAndEnvironmentsApart: two accounts' sandboxes never see each
// other's records; PRODUCTION is never seeded.
func TestSandboxAccountsAndEnvironmentsApart(t *testing.T) {
	h := newHarness(t)
	a := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-a", func(p *veriland.Principal) { p.Account = "acct_a" })
	b := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-b", func(p *veriland.Principal) { p.Account = "acct_b" })
	prod := h.token(veriland.RoleAdmin, veriland.Production, "admin-p", func(p *veriland.Principal) { p.Account = "acct_a" })
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: a})), 5)
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: b})), 5)
	require.Empty(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: prod})))
	sa, sb := h.sandboxState(t, "acct_a").Seeded, h.sandboxState(t, "acct_b").Seeded
	for _, id := range []string{sa.Parcels.Certified, sa.Parcels.Pending, sa.Parcels.Rejected, sa.Parcels.WithOpenTransfer} {
		require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: b}).status, fmt.Sprintf("acct_b reads %s", id))
		require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: prod}).status)
	}
	require.NotEqual(t, sa.Holder.DID, sb.Holder.DID)
	require.NotEqual(t, sa.Holder.PrivateKey, sb.Holder.PrivateKey)
	// PRODUCTION requests seed nothing, and a token without an account seeds nothing.
	noAcct := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-x", func(p *veriland.Principal) { p.Account = "" })
	h.do(request{method: "GET", path: "/v1/api-keys", token: noAcct})
	require.Nil(t, h.sandboxState(t, ""))
}

// sandboxDoc reads GET /v1/sandbox/scenarios as tok.
func (h *harness) sandboxDoc(t *testing.T, tok string) map[string]any {
	t.Helper()
	r := h.do(request{method: "GET", path: "/v1/sandbox/scenarios", token: tok})
	require.Equal(t, 200, r.status, string(r.body))
	return attrs(t, r)
}

// TestSandboxReset: the reset erases exactly the account's SANDBOX records — what the
// seed made and what the account made since — re-seeds, keeps the caller's key and
// the audit log, and touches neither another account nor PRODUCTION.
func TestSandboxReset(t *testing.T) {
	h := newHarness(t)
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	other := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-o", func(p *veriland.Principal) { p.Account = "acct_other" })
	prod := h.token(veriland.RoleAdmin, veriland.Production, "admin")

	before := h.sandboxDoc(t, admin)
	seeded := before["seeded"].(map[string]any)
	require.Equal(t, "acct_test", before["account"])
	require.NotEmpty(t, before["scenarios"])
	oldParcels := seeded["parcels"].(map[string]any)

	// The account's own work since the seed, the other account's and PRODUCTION's.
	f := newParcelFlow(h, veriland.Sandbox)
	mine := f.create(t, "NOT-SBX-1")["id"].(string)
	otherDoc := h.sandboxDoc(t, other)
	otherParcel := otherDoc["seeded"].(map[string]any)["parcels"].(map[string]any)["certified"].(string)
	pf := newParcelFlow(h, veriland.Production)
	prodParcel := pf.create(t, parcelNotary)["id"].(string)
	keyID, keyTok := createKey(t, h, admin, "verifier", "verifier-before-reset")
	sess := h.do(request{method: "POST", path: "/v1/assistant/messages", token: admin, body: map[string]any{"text": "help"}})
	require.Equal(t, 201, sess.status)
	sessID := attrs(t, sess)["sessionId"].(string)

	r := h.do(request{method: "POST", path: "/v1/sandbox/reset", token: admin})
	require.Equal(t, 200, r.status, string(r.body))
	after := attrs(t, r)
	newParcels := after["seeded"].(map[string]any)["parcels"].(map[string]any)
	for role, id := range oldParcels {
		require.NotEqual(t, id, newParcels[role], role)
		require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/parcels/" + id.(string), token: admin}).status, "seeded %s survived", role)
	}
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/parcels/" + mine, token: admin}).status)
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: admin})), 5, "the new seed only")
	require.Equal(t, 404, h.do(request{method: "GET", path: "/verify/request/" + seeded["verificationRequests"].(map[string]any)["approved"].(string)}).status)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/assistant/sessions/" + sessID, token: admin}).status)
	// Keys: the one that made the call works; the others are gone and refused.
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/api-keys", token: admin}).status)
	require.Equal(t, 401, h.do(request{method: "GET", path: "/v1/parcels", token: keyTok}).status)
	require.Equal(t, 404, h.do(request{method: "DELETE", path: "/v1/api-keys/" + keyID, token: admin}).status)

	// The other account and PRODUCTION are untouched.
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/parcels/" + otherParcel, token: other}).status)
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/parcels/" + prodParcel, token: prod}).status)

	// The reset is audited, and the chain still verifies.
	audits := h.do(request{method: "GET", path: "/v1/audit?action=sandbox.reset", token: admin}).json(t)["data"].([]any)
	require.Len(t, audits, 1)
	erased := audits[0].(map[string]any)["attributes"].(map[string]any)["detail"].(map[string]any)["erased"].(map[string]any)
	require.NotZero(t, erased["parcels"])
	require.Equal(t, true, h.do(request{method: "GET", path: "/v1/audit/verify", token: admin}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)["valid"])
}

// TestSandboxRoutesRefuse: PRODUCTION tokens, tokens without an account, and holders
// (reset) are refused.
func TestSandboxRoutesRefuse(t *testing.T) {
	h := newHarness(t)
	prod := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	noAcct := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin", func(p *veriland.Principal) { p.Account = "" })
	holder := h.token(veriland.RoleHolder, veriland.Sandbox, "holder-1")
	for _, c := range []struct {
		method, path, tok string
		status            int
	}{
		{"GET", "/v1/sandbox/scenarios", prod, 403},
		{"POST", "/v1/sandbox/reset", prod, 403},
		{"GET", "/v1/sandbox/scenarios", noAcct, 403},
		{"POST", "/v1/sandbox/reset", holder, 403},
		{"GET", "/v1/sandbox/scenarios", "", 401},
	} {
		r := h.do(request{method: c.method, path: c.path, token: c.tok})
		require.Equal(t, c.status, r.status, "%s %s: %s", c.method, c.path, r.body)
	}
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/sandbox/scenarios", token: holder}).status)
}
