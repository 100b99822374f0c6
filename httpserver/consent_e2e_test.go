package httpserver

import (
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/httpserver/webhook"
)

// receiver is a verifier's callback endpoint that records what it gets.
type receiver struct {
	mu       sync.Mutex
	requests []receivedHook
	srv      *httptest.Server
	fail     int // answer 500 to this many requests first
}

type receivedHook struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.requests = append(rc.requests, receivedHook{header: r.Header.Clone(), body: body})
		if rc.fail > 0 {
			rc.fail--
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(204)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) got() []receivedHook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receivedHook(nil), rc.requests...)
}

// signConsent plays the holder's wallet: it completes the typed data the consent
// context returned, hashes it with go-ethereum's own EIP-712 code, and signs.
func signConsent(t testing.TB, ctxBody map[string]any, key *ecdsa.PrivateKey, decision string, disclosed []string) string {
	t.Helper()
	raw, err := json.Marshal(ctxBody["typedData"])
	require.NoError(t, err)
	var td apitypes.TypedData
	require.NoError(t, json.Unmarshal(raw, &td))
	items := make([]byte, 0, 32*len(disclosed))
	for _, d := range disclosed {
		items = append(items, crypto.Keccak256([]byte(d))...)
	}
	td.Message["decision"] = decision
	td.Message["disclosedScopeHash"] = hexutil.Encode(crypto.Keccak256(items))
	digest, _, err := apitypes.TypedDataAndHash(td)
	require.NoError(t, err)
	sig, err := crypto.Sign(digest, key)
	require.NoError(t, err)
	sig[64] += 27
	return hexutil.Encode(sig)
}

type consentFlow struct {
	h           *harness
	verifierTok string
	adminTok    string
	wallet      *ecdsa.PrivateKey
	did         string
	rc          *receiver
}

func newConsentFlow(t *testing.T, h *harness) *consentFlow {
	f := &consentFlow{h: h, rc: newReceiver(t)}
	f.adminTok = h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	_, f.verifierTok = createNamedKey(t, h, f.adminTok, "verifier", "verifier-acme-bank", "Acme Bank")
	f.wallet, _ = crypto.GenerateKey()
	f.did = h.issueIdentity(t, "customer-"+t.Name(), f.wallet, "success")["did"].(string)
	return f
}

// createNamedKey creates an API key with the given display name and returns its id
// and token.
func createNamedKey(t testing.TB, h *harness, adminTok, role, sub, name string) (string, string) {
	t.Helper()
	r := h.do(request{method: "POST", path: "/v1/api-keys", token: adminTok, body: map[string]any{"role": role, "sub": sub, "name": name}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	data := r.json(t)["data"].(map[string]any)
	return data["id"].(string), data["attributes"].(map[string]any)["token"].(string)
}

// request creates a verification request of f's verifier (the seed's body with
// extra's members set, a nil value removing one) and returns its id.
func (f *consentFlow) request(t *testing.T, extra map[string]any) string {
	return f.requestAs(t, f.verifierTok, extra)
}

func (f *consentFlow) requestAs(t *testing.T, tok string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"subjectRef": f.did, "scope": []string{"is_adult", "nationality"}, "reason": "account opening",
		"callbackUrl": f.rc.srv.URL + "/hooks"}
	for k, v := range extra {
		if v == nil {
			delete(body, k)
			continue
		}
		body[k] = v
	}
	r := f.h.do(request{method: "POST", path: "/verify/request", token: tok, body: body})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	m := r.json(t)
	require.Equal(t, "PENDING", m["status"])
	require.Equal(t, "http://veriland.test/consent/"+m["requestId"].(string), m["consentUrl"])
	return m["requestId"].(string)
}

func (f *consentFlow) decide(t *testing.T, id string, key *ecdsa.PrivateKey, holder common.Address, decision string, disclosed []string) response {
	t.Helper()
	ctx := f.h.do(request{method: "GET", path: "/consent/" + id})
	require.Equal(t, 200, ctx.status, string(ctx.body))
	sig := signConsent(t, ctx.json(t), key, decision, disclosed)
	return f.h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{
		"holderAddress": holder.Hex(), "decision": decision, "disclosedScope": disclosed, "holderSignature": sig}})
}

func TestConsentFlowEndToEnd(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	holderAddr := crypto.PubkeyToAddress(f.wallet.PublicKey)

	id := f.request(t, nil)
	ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
	require.Equal(t, "Acme Bank", ctx["verifier"].(map[string]any)["name"])

	ok := f.decide(t, id, f.wallet, holderAddr, "APPROVED", []string{"is_adult", "nationality"})
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))
	res := ok.json(t)
	require.Equal(t, "APPROVED", res["status"])
	attJSON, err := json.Marshal(res["attestation"])
	require.NoError(t, err)

	// The offline verifier accepts the attestation with only the issuer's address.
	var att attestation.Attestation
	require.NoError(t, json.Unmarshal(attJSON, &att))
	issuer := h.do(request{method: "GET", path: "/attestation/issuer"}).json(t)
	trusted := common.HexToAddress(issuer["address"].(string))
	require.NoError(t, attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: h.clock.Now()}))

	// The request shows the decision; a second decision is refused.
	st := h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)
	require.Equal(t, "APPROVED", st["status"])
	require.Equal(t, att.ID, st["attestationId"])
	again := f.decide(t, id, f.wallet, holderAddr, "REJECTED", []string{})
	require.Equal(t, http.StatusConflict, again.status)
	require.Equal(t, "invalid_state", again.errorCode(t))

	// The verifier and the subject may read the attestation; another verifier may not.
	require.Equal(t, 200, h.do(request{method: "GET", path: "/attestation/" + att.ID, token: f.verifierTok}).status)
	_, otherVerifier := createKey(t, h, f.adminTok, "verifier", "verifier-other")
	require.Equal(t, 403, h.do(request{method: "GET", path: "/attestation/" + att.ID, token: otherVerifier}).status)

	// The verifier's callback got a signed verification.approved it can verify.
	f.deliverAll(t)
	hooks := f.rc.got()
	require.Len(t, hooks, 1)
	secret := f.webhookSecret(t)
	require.NoError(t, webhook.Verify(hooks[0].header, hooks[0].body, []webhook.Secret{secret}, h.clock.Now()))
	var payload map[string]any
	require.NoError(t, json.Unmarshal(hooks[0].body, &payload))
	require.Equal(t, "verification.approved", payload["type"])
	data := payload["data"].(map[string]any)
	require.Equal(t, id, data["requestId"])
	require.Equal(t, "APPROVED", data["status"])
	require.Equal(t, att.ID, data["attestationId"])
	// The attestation rides along, facts and signature included: the verifier needs no
	// second call, and verifies it offline.
	hooked, err := json.Marshal(data["attestation"])
	require.NoError(t, err)
	var hookedAtt attestation.Attestation
	require.NoError(t, json.Unmarshal(hooked, &hookedAtt))
	require.Equal(t, att.Signature, hookedAtt.Signature)
	require.NoError(t, attestation.Verify(&hookedAtt, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: h.clock.Now()}))
	require.Equal(t, map[string]any{"is_adult": true, "nationality": "verified"}, withoutConsent(data["attestation"].(map[string]any)["claims"]))
	requireSchema(t, "VerificationWebhook", payload)

	// The holder signs in with the same wallet and revokes.
	holderTok, did := h.login(t, f.wallet, veriland.Sandbox)
	require.Equal(t, f.did, did)
	rv := h.do(request{method: "POST", path: "/attestation/" + att.ID + "/revoke", token: holderTok, body: map[string]any{"reason": "changed my mind"}})
	require.Equal(t, 200, rv.status, string(rv.body))
	require.Equal(t, "REVOKED", rv.json(t)["status"])
	require.Equal(t, 200, h.do(request{method: "POST", path: "/attestation/" + att.ID + "/revoke", token: holderTok, body: `{}`}).status, "revoking again is a no-op")
	require.Equal(t, "REVOKED", h.do(request{method: "GET", path: "/attestation/" + att.ID + "/status"}).json(t)["status"])

	// The signed revocation list makes the offline verifier refuse it.
	rl := h.do(request{method: "GET", path: "/attestation/revocations", header: sandboxHeader})
	require.Equal(t, 200, rl.status)
	var list attestation.RevocationList
	require.NoError(t, json.Unmarshal(rl.body, &list))
	err = attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: h.clock.Now(), Revocations: &list})
	require.ErrorIs(t, err, attestation.ErrRevoked)

	// The verifier hears of the revocation too.
	f.deliverAll(t)
	hooks = f.rc.got()
	require.Len(t, hooks, 2)
	require.Contains(t, string(hooks[1].body), `"attestation.revoked"`)

	// The audit chain recorded it all and still verifies.
	rep := h.do(request{method: "GET", path: "/v1/audit/verify", token: f.adminTok}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, true, rep["valid"])
}

// requireSchema checks v against a schema of the OpenAPI document's components (for
// what the document describes but the harness does not see, like webhook payloads).
func requireSchema(t *testing.T, name string, v any) {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDocument)
	require.NoError(t, err)
	ref, ok := doc.Components.Schemas[name]
	require.True(t, ok, "no schema %s", name)
	require.NoError(t, ref.Value.VisitJSON(v, openapi3.MultiErrors()), "%s: %v", name, v)
}

// withoutConsent returns the facts of a CONSENT attestation's claims: every member
// but the bookkeeping one.
func withoutConsent(claims any) map[string]any {
	out := map[string]any{}
	for k, v := range claims.(map[string]any) {
		if k != "consent" {
			out[k] = v
		}
	}
	return out
}

// deliverAll runs the webhook worker once over everything due now.
func (f *consentFlow) deliverAll(t *testing.T) {
	t.Helper()
	_, err := f.h.srv.cfg.Outbox.RunOnce(t.Context())
	require.NoError(t, err)
}

func (f *consentFlow) webhookSecret(t *testing.T) webhook.Secret {
	t.Helper()
	r := f.h.do(request{method: "GET", path: "/v1/webhooks/secret", token: f.verifierTok})
	require.Equal(t, 200, r.status, string(r.body))
	s, err := webhook.ParseSecret(r.json(t)["data"].(map[string]any)["attributes"].(map[string]any)["secret"].(string))
	require.NoError(t, err)
	return s
}

func TestConsentOutcomes(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	holderAddr := crypto.PubkeyToAddress(f.wallet.PublicKey)

	t.Run("rejected", func(t *testing.T) {
		id := f.request(t, nil)
		r := f.decide(t, id, f.wallet, holderAddr, "REJECTED", []string{})
		require.Equal(t, 200, r.status, string(r.body))
		require.Equal(t, "REJECTED", r.json(t)["status"])
		require.Nil(t, r.json(t)["attestation"])
	})
	t.Run("signed by another wallet", func(t *testing.T) {
		id := f.request(t, nil)
		other, _ := crypto.GenerateKey()
		r := f.decide(t, id, other, holderAddr, "APPROVED", []string{"is_adult", "nationality"})
		require.Equal(t, 422, r.status)
		require.Equal(t, "invalid_signature", r.errorCode(t))
		// The other wallet claiming to be itself is not the subject's wallet either.
		r = f.decide(t, id, other, crypto.PubkeyToAddress(other.PublicKey), "APPROVED", []string{"is_adult", "nationality"})
		require.Equal(t, 422, r.status)
	})
	t.Run("cancelled", func(t *testing.T) {
		id := f.request(t, nil)
		c := h.do(request{method: "POST", path: "/verify/request/" + id + "/cancel", token: f.verifierTok, body: `{}`})
		require.Equal(t, 200, c.status, string(c.body))
		require.Equal(t, "CANCELLED", c.json(t)["status"])
		r := f.decide(t, id, f.wallet, holderAddr, "APPROVED", []string{"is_adult", "nationality"})
		require.Equal(t, 409, r.status)
		require.Equal(t, 409, h.do(request{method: "POST", path: "/verify/request/" + id + "/cancel", token: f.verifierTok, body: `{}`}).status)
	})
	t.Run("expired", func(t *testing.T) {
		id := f.request(t, map[string]any{"expiresInSeconds": 60})
		h.clock.Advance(61 * time.Second)
		require.Equal(t, "EXPIRED", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])
		ctx := h.do(request{method: "GET", path: "/consent/" + id})
		require.Equal(t, "EXPIRED", ctx.json(t)["status"])
	})
	t.Run("did:pkh subject", func(t *testing.T) {
		pkhWallet, _ := crypto.GenerateKey()
		addr := crypto.PubkeyToAddress(pkhWallet.PublicKey)
		pkh := "did:pkh:eip155:1:" + strings.ToLower(addr.Hex())
		r := h.do(request{method: "POST", path: "/verify/request", token: f.verifierTok, body: map[string]any{
			"subjectRef": pkh, "scope": []string{"liveness"}, "reason": "login"}})
		require.Equal(t, 201, r.status, string(r.body))
		id := r.json(t)["requestId"].(string)
		// A wallet has no identity facts; its liveness pass is one.
		no := f.decide(t, id, pkhWallet, addr, "APPROVED", []string{"liveness"})
		require.Equal(t, 422, no.status, string(no.body))
		require.Equal(t, "claim_unavailable", no.errorCode(t))
		h.livenessAttestation(t, pkh, "L1")
		ok := f.decide(t, id, pkhWallet, addr, "APPROVED", []string{"liveness"})
		require.Equal(t, 201, ok.status, string(ok.body))
		require.Equal(t, map[string]any{"liveness": "verified"}, withoutConsent(ok.json(t)["attestation"].(map[string]any)["claims"]))
	})
	t.Run("validation", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/verify/request", token: f.verifierTok, body: map[string]any{
			"subjectRef": "nobody", "scope": []string{}, "reason": "", "expiresInSeconds": 5, "callbackUrl": "ftp://x"}})
		require.Equal(t, 400, r.status)
		require.GreaterOrEqual(t, len(r.json(t)["errors"].([]any)), 3)
	})
	t.Run("PRODUCTION refuses loopback callbacks", func(t *testing.T) {
		prodAdmin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
		_, prodVerifier := createKey(t, h, prodAdmin, "verifier", "verifier-prod")
		for _, u := range []string{"http://127.0.0.1/x", "https://127.0.0.1/x", "https://[::1]/x", "https://10.0.0.1/x", "https://169.254.169.254/latest"} {
			r := h.do(request{method: "POST", path: "/verify/request", token: prodVerifier, body: map[string]any{
				"subjectRef": f.did, "scope": []string{"is_adult"}, "reason": "x", "callbackUrl": u}})
			require.Equal(t, 400, r.status, u)
		}
	})
}
