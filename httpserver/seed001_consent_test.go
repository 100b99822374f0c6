package httpserver

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
)

// issueIdentityWith issues a sandbox identity bound to wallet, with the given KYC
// payload (the sandbox provider reads scenario and is_adult), and returns its DID.
func (h *harness) issueIdentityWith(t testing.TB, subjectRef string, wallet *ecdsa.PrivateKey, payload map[string]any) string {
	t.Helper()
	r := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader, body: map[string]any{
		"subjectRef": subjectRef, "countryCode": "NG", "walletAddress": crypto.PubkeyToAddress(wallet.PublicKey).Hex(), "payload": payload}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	require.Equal(t, "ACTIVE", r.json(t)["status"])
	return r.json(t)["did"].(string)
}

func noRateLimits(c *Config) { c.RateLimits.Disabled = true }

// consentFirstError returns the first error object of an error document.
func consentFirstError(t testing.TB, r response) map[string]any {
	t.Helper()
	errs := r.json(t)["errors"].([]any)
	require.NotEmpty(t, errs)
	return errs[0].(map[string]any)
}

// TestSeed001VerifyRequest posts seed 001 §2's verification request body — every
// member, every enum value, both edges of every bound of §8 — and checks the seed's
// 201 {requestId, status: PENDING, message} (plus consentUrl and expiresAt) and what
// GET /verify/request/{id} and GET /consent/{id} then show.
func TestSeed001VerifyRequest(t *testing.T) {
	h := newHarness(t, noRateLimits) // one verifier makes many requests here
	f := newConsentFlow(t, h)
	holderTok, _ := h.login(t, f.wallet, veriland.Sandbox)
	pkh := "did:pkh:eip155:1:" + strings.ToLower(crypto.PubkeyToAddress(f.wallet.PublicKey).Hex())

	// seed is the seed's body with every member; mut changes it (nil removes a member).
	seed := func() map[string]any {
		return map[string]any{
			"subjectRef": f.did, "scope": []string{"identity", "is_adult"}, "reason": "Opening a savings account",
			"mode": "PROOF_ONLY", "callbackUrl": f.rc.srv.URL + "/hooks",
			"requireLiveness": map[string]any{"minLevel": "L2", "maxAgeDays": 30},
		}
	}
	live := func(level string, days any) map[string]any {
		m := map[string]any{"minLevel": level}
		if days != nil {
			m["maxAgeDays"] = days
		}
		return m
	}
	tests := []struct {
		name     string
		set      map[string]any // members to set; a nil value removes the member
		token    string         // "" = the verifier's API key
		status   int
		code     string
		pointers []string
		// For 201: what the views must show.
		mode     string
		liveness map[string]any // nil: requireLiveness is null
	}{
		{name: "every member, PROOF_ONLY", status: 201, mode: "PROOF_ONLY", liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "every member, SELECTIVE", set: map[string]any{"mode": "SELECTIVE"}, status: 201, mode: "SELECTIVE",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "required members only: defaults", set: map[string]any{"mode": nil, "callbackUrl": nil, "requireLiveness": nil},
			status: 201, mode: "PROOF_ONLY"},
		{name: "the seed's example scope identity in SELECTIVE", set: map[string]any{"scope": []string{"identity"}, "mode": "SELECTIVE"},
			status: 201, mode: "SELECTIVE", liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "every scope item", set: map[string]any{"scope": consent.Vocabulary(nil), "requireLiveness": nil}, status: 201, mode: "PROOF_ONLY"},
		{name: "minLevel L1", set: map[string]any{"requireLiveness": live("L1", nil)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L1", "maxAgeDays": float64(30)}},
		{name: "minLevel L2", set: map[string]any{"requireLiveness": live("L2", nil)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "minLevel L3", set: map[string]any{"requireLiveness": live("L3", nil)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L3", "maxAgeDays": float64(30)}},
		{name: "maxAgeDays 1", set: map[string]any{"requireLiveness": live("L2", 1)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(1)}},
		{name: "maxAgeDays 365", set: map[string]any{"requireLiveness": live("L2", 365)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(365)}},
		{name: "maxAgeDays is a number: 1.5", set: map[string]any{"requireLiveness": live("L2", 1.5)}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": 1.5}},
		{name: "maxAgeDays 0", set: map[string]any{"requireLiveness": live("L2", 0)}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness/maxAgeDays"}},
		{name: "maxAgeDays 366", set: map[string]any{"requireLiveness": live("L2", 366)}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness/maxAgeDays"}},
		{name: "maxAgeDays as a string", set: map[string]any{"requireLiveness": live("L2", "30")}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness/maxAgeDays"}},
		{name: "minLevel missing", set: map[string]any{"requireLiveness": map[string]any{"maxAgeDays": 30}}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness/minLevel"}},
		{name: "minLevel L4", set: map[string]any{"requireLiveness": live("L4", nil)}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness/minLevel"}},
		{name: "requireLiveness as the old boolean", set: map[string]any{"requireLiveness": true}, status: 400, code: "validation_failed",
			pointers: []string{"/requireLiveness"}},
		{name: "requireLiveness with an unknown member", set: map[string]any{"requireLiveness": map[string]any{"minLevel": "L2", "fresh": true}},
			status: 400, code: "unknown_field", pointers: []string{"/requireLiveness/fresh"}},
		{name: "top-level minLevel is gone", set: map[string]any{"minLevel": "L2"}, status: 400, code: "unknown_field", pointers: []string{"/minLevel"}},
		{name: "top-level maxAgeDays is gone", set: map[string]any{"maxAgeDays": 30}, status: 400, code: "unknown_field", pointers: []string{"/maxAgeDays"}},
		{name: "a request cannot choose its verifierName", set: map[string]any{"verifierName": "Totally Legit Bank"}, status: 400,
			code: "unknown_field", pointers: []string{"/verifierName"}},
		{name: "mode FULL is gone", set: map[string]any{"mode": "FULL"}, status: 400, code: "validation_failed", pointers: []string{"/mode"}},
		{name: "mode in lower case", set: map[string]any{"mode": "proof_only"}, status: 400, code: "validation_failed", pointers: []string{"/mode"}},
		{name: "scope []", set: map[string]any{"scope": []string{}}, status: 400, code: "validation_failed", pointers: []string{"/scope"}},
		{name: "scope missing", set: map[string]any{"scope": nil}, status: 400, code: "validation_failed", pointers: []string{"/scope"}},
		{name: "unknown scope items", set: map[string]any{"scope": []string{"is_adult", "full_name", "date_of_birth"}}, status: 400,
			code: "validation_failed", pointers: []string{"/scope/1", "/scope/2"}},
		{name: "repeated scope item", set: map[string]any{"scope": []string{"is_adult", "is_adult"}}, status: 400,
			code: "validation_failed", pointers: []string{"/scope/1"}},
		{name: "reason missing", set: map[string]any{"reason": nil}, status: 400, code: "validation_failed", pointers: []string{"/reason"}},
		{name: "subjectRef missing", set: map[string]any{"subjectRef": nil}, status: 400, code: "validation_failed", pointers: []string{"/subjectRef"}},
		{name: "callbackUrl not a URL", set: map[string]any{"callbackUrl": "hooks"}, status: 400, code: "validation_failed", pointers: []string{"/callbackUrl"}},
		{name: "expiresInSeconds 60", set: map[string]any{"expiresInSeconds": 60}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "expiresInSeconds 604800", set: map[string]any{"expiresInSeconds": 604800}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "expiresInSeconds 59", set: map[string]any{"expiresInSeconds": 59}, status: 400, code: "validation_failed", pointers: []string{"/expiresInSeconds"}},
		{name: "expiresInSeconds 604801", set: map[string]any{"expiresInSeconds": 604801}, status: 400, code: "validation_failed", pointers: []string{"/expiresInSeconds"}},
		{name: "several wrong members at once", set: map[string]any{"mode": "FULL", "scope": []string{}, "requireLiveness": live("L9", 0)},
			status: 400, code: "validation_failed", pointers: []string{"/mode", "/scope", "/requireLiveness/minLevel", "/requireLiveness/maxAgeDays"}},
		{name: "a did:pkh subject on the configured chain", set: map[string]any{"subjectRef": pkh}, status: 201, mode: "PROOF_ONLY",
			liveness: map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}},
		{name: "a did:pkh subject on another chain", set: map[string]any{"subjectRef": strings.Replace(pkh, ":1:", ":5:", 1)}, status: 400,
			code: "validation_failed", pointers: []string{"/subjectRef"}},
		{name: "an identity that does not exist", set: map[string]any{"subjectRef": "did:veriland:" + strings.Repeat("z", 22)}, status: 422,
			code: "unknown_subject", pointers: []string{"/subjectRef"}},
		{name: "personal data as subjectRef", set: map[string]any{"subjectRef": "Jane Doe"}, status: 400, code: "validation_failed", pointers: []string{"/subjectRef"}},
		{name: "a holder may not ask", token: holderTok, status: 403, code: "forbidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := seed()
			for k, v := range tc.set {
				if v == nil {
					delete(body, k)
				} else {
					body[k] = v
				}
			}
			tok := tc.token
			if tok == "" {
				tok = f.verifierTok
			}
			r := h.do(request{method: "POST", path: "/verify/request", token: tok, body: body})
			require.Equal(t, tc.status, r.status, string(r.body))
			if tc.status != http.StatusCreated {
				require.Equal(t, tc.code, r.errorCode(t))
				if tc.pointers != nil {
					require.Equal(t, tc.pointers, errorPointers(t, r))
				}
				return
			}
			created := r.json(t)
			require.Equal(t, []string{"consentUrl", "expiresAt", "message", "requestId", "status"}, members(created))
			require.Equal(t, "PENDING", created["status"])
			require.NotEmpty(t, created["message"])
			id := created["requestId"].(string)
			require.True(t, strings.HasPrefix(id, "vrq_"))
			require.Equal(t, "http://veriland.test/consent/"+id, created["consentUrl"])

			st := h.do(request{method: "GET", path: "/verify/request/" + id})
			require.Equal(t, 200, st.status, string(st.body))
			sum := st.json(t)
			require.Equal(t, []string{"createdAt", "expiresAt", "mode", "reason", "requestId", "requireLiveness", "scope", "status", "subjectRef", "verifier"}, members(sum))
			require.Equal(t, "PENDING", sum["status"])
			require.Equal(t, tc.mode, sum["mode"])
			require.Equal(t, "verifier-acme-bank", sum["verifier"])
			require.Equal(t, created["expiresAt"], sum["expiresAt"])
			require.ElementsMatch(t, body["scope"], sum["scope"])

			ctx := h.do(request{method: "GET", path: "/consent/" + id})
			require.Equal(t, 200, ctx.status, string(ctx.body))
			view := ctx.json(t)
			require.Equal(t, []string{"expiresAt", "mode", "presets", "reason", "requestId", "requireLiveness", "scope", "status", "subjectRef", "typedData", "verifier"}, members(view))
			require.Equal(t, tc.mode, view["mode"])
			require.Equal(t, map[string]any{"id": "verifier-acme-bank", "name": "Acme Bank"}, view["verifier"])
			require.Equal(t, body["reason"], view["reason"])
			if tc.liveness == nil {
				require.Nil(t, sum["requireLiveness"])
				require.Nil(t, view["requireLiveness"])
			} else {
				require.Equal(t, tc.liveness, sum["requireLiveness"])
				require.Equal(t, tc.liveness, view["requireLiveness"])
			}
			if secs, ok := body["expiresInSeconds"].(int); ok {
				exp, err := time.Parse(time.RFC3339, created["expiresAt"].(string))
				require.NoError(t, err)
				require.True(t, h.clock.Now().Truncate(time.Second).Add(time.Duration(secs)*time.Second).Equal(exp), "expiresAt %s", exp)
			}
		})
	}
}

// TestSeed001ConsentDecision posts seed 001 §2's consent decision in both modes and
// checks the seed's statuses (201 with the attestation for APPROVED, 200 with the
// decision for REJECTED) and what the verifier learns: in PROOF_ONLY only true or
// "verified", in SELECTIVE exactly the values of what the holder disclosed.
func TestSeed001ConsentDecision(t *testing.T) {
	h := newHarness(t, noRateLimits)
	f := newConsentFlow(t, h)
	holder := crypto.PubkeyToAddress(f.wallet.PublicKey)
	minorKey, _ := crypto.GenerateKey()
	minor := h.issueIdentityWith(t, "minor", minorKey, map[string]any{"scenario": "success", "is_adult": false})
	trusted := common.HexToAddress(h.do(request{method: "GET", path: "/attestation/issuer"}).json(t)["address"].(string))

	tests := []struct {
		name      string
		subject   string // "" = the adult holder
		mode      string
		scope     []string
		decision  string
		disclosed []string
		status    int
		facts     map[string]any // APPROVED: the attestation's facts
		code      string         // refused: the error code, item, reason and pointer
		item      string
		reason    string
		pointer   string
	}{
		{name: "PROOF_ONLY approve, nothing disclosed", mode: "PROOF_ONLY", scope: []string{"identity", "is_adult", "nationality"},
			decision: "APPROVED", disclosed: []string{}, status: 201,
			facts: map[string]any{"identity": "verified", "is_adult": true, "nationality": "verified"}},
		{name: "PROOF_ONLY approve, the whole scope", mode: "PROOF_ONLY", scope: []string{"identity", "is_adult", "nationality"},
			decision: "APPROVED", disclosed: []string{"nationality", "identity", "is_adult"}, status: 201,
			facts: map[string]any{"identity": "verified", "is_adult": true, "nationality": "verified"}},
		{name: "SELECTIVE approve a subset", mode: "SELECTIVE", scope: []string{"identity", "is_adult", "nationality"},
			decision: "APPROVED", disclosed: []string{"nationality", "identity"}, status: 201,
			facts: map[string]any{"nationality": "NG", "identity": map[string]any{"status": "ACTIVE", "level": "KYC", "country": "NG"}}},
		{name: "SELECTIVE approve one item", mode: "SELECTIVE", scope: []string{"identity", "is_adult"},
			decision: "APPROVED", disclosed: []string{"is_adult"}, status: 201, facts: map[string]any{"is_adult": true}},
		{name: "SELECTIVE discloses a false predicate's value", subject: minor, mode: "SELECTIVE", scope: []string{"is_adult"},
			decision: "APPROVED", disclosed: []string{"is_adult"}, status: 201, facts: map[string]any{"is_adult": false}},
		{name: "PROOF_ONLY states only facts that hold", subject: minor, mode: "PROOF_ONLY", scope: []string{"identity", "is_adult"},
			decision: "APPROVED", disclosed: []string{"identity", "is_adult"}, status: 422,
			code: "claim_unavailable", item: "is_adult", reason: "does_not_hold", pointer: "/disclosedScope/1"},
		{name: "PROOF_ONLY item without a fact", mode: "PROOF_ONLY", scope: []string{"is_adult", "document_type"},
			decision: "APPROVED", disclosed: []string{}, status: 422, code: "claim_unavailable", item: "document_type", reason: "missing"},
		{name: "SELECTIVE item without a fact", mode: "SELECTIVE", scope: []string{"document_type", "is_adult"},
			decision: "APPROVED", disclosed: []string{"document_type"}, status: 422,
			code: "claim_unavailable", item: "document_type", reason: "missing", pointer: "/disclosedScope/0"},
		{name: "SELECTIVE item without a fact, not disclosed", mode: "SELECTIVE", scope: []string{"document_type", "is_adult"},
			decision: "APPROVED", disclosed: []string{"is_adult"}, status: 201, facts: map[string]any{"is_adult": true}},
		{name: "liveness without a pass", mode: "PROOF_ONLY", scope: []string{"liveness"},
			decision: "APPROVED", disclosed: []string{}, status: 422, code: "claim_unavailable", item: "liveness", reason: "missing"},
		{name: "PROOF_ONLY reject", mode: "PROOF_ONLY", scope: []string{"identity", "is_adult"}, decision: "REJECTED", disclosed: []string{}, status: 200},
		{name: "SELECTIVE reject", mode: "SELECTIVE", scope: []string{"identity", "is_adult"}, decision: "REJECTED", disclosed: []string{}, status: 200},
		{name: "a reject needs no fact", subject: minor, mode: "PROOF_ONLY", scope: []string{"is_adult"}, decision: "REJECTED", disclosed: []string{}, status: 200},
		{name: "PROOF_ONLY partial disclosure", mode: "PROOF_ONLY", scope: []string{"identity", "is_adult"},
			decision: "APPROVED", disclosed: []string{"is_adult"}, status: 400, code: "validation_failed", pointer: "/disclosedScope"},
		{name: "SELECTIVE empty disclosure", mode: "SELECTIVE", scope: []string{"identity", "is_adult"},
			decision: "APPROVED", disclosed: []string{}, status: 400, code: "validation_failed", pointer: "/disclosedScope"},
		{name: "disclosedScope outside the scope", mode: "SELECTIVE", scope: []string{"identity"},
			decision: "APPROVED", disclosed: []string{"nationality"}, status: 400, code: "validation_failed", pointer: "/disclosedScope/0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			subject, key, addr := f.did, f.wallet, holder
			if tc.subject == minor {
				subject, key, addr = minor, minorKey, crypto.PubkeyToAddress(minorKey.PublicKey)
			}
			id := f.request(t, map[string]any{"subjectRef": subject, "scope": tc.scope, "mode": tc.mode})
			r := f.decide(t, id, key, addr, tc.decision, tc.disclosed)
			require.Equal(t, tc.status, r.status, string(r.body))
			st := h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)
			switch {
			case tc.status == 200:
				require.Equal(t, map[string]any{"requestId": id, "status": "REJECTED", "decision": "REJECTED"}, r.json(t))
				require.Equal(t, "REJECTED", st["status"])
				require.NotContains(t, st, "attestationId")
				require.Contains(t, st, "decidedAt")
			case tc.status == 201:
				res := r.json(t)
				require.Equal(t, []string{"attestation", "decision", "requestId", "status"}, members(res))
				require.Equal(t, id, res["requestId"])
				require.Equal(t, "APPROVED", res["status"])
				attMap := res["attestation"].(map[string]any)
				require.Equal(t, tc.facts, withoutConsent(attMap["claims"]))
				book := attMap["claims"].(map[string]any)["consent"].(map[string]any)
				require.Equal(t, id, book["requestId"])
				require.Equal(t, tc.mode, book["mode"])
				// scope is what the attestation answers.
				want := tc.scope
				if tc.mode == "SELECTIVE" {
					want = tc.disclosed
				}
				require.ElementsMatch(t, want, attMap["scope"])

				// The verifier checks it offline: the signature covers the facts.
				raw, err := json.Marshal(attMap)
				require.NoError(t, err)
				var att attestation.Attestation
				require.NoError(t, json.Unmarshal(raw, &att))
				require.NoError(t, attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: h.clock.Now()}))
				facts, _, err := consent.ParseClaims(att.Claims)
				require.NoError(t, err)
				require.Equal(t, tc.facts, facts)

				require.Equal(t, "APPROVED", st["status"])
				require.Equal(t, att.ID, st["attestationId"])
				require.Equal(t, []string{"attestationId", "createdAt", "decidedAt", "expiresAt", "mode", "reason", "requestId", "requireLiveness", "scope", "status", "subjectRef", "verifier"}, members(st))
				view := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
				require.Equal(t, "APPROVED", view["status"])
			default:
				e := consentFirstError(t, r)
				require.Equal(t, tc.code, e["code"])
				if tc.item != "" {
					meta := e["meta"].(map[string]any)
					require.Equal(t, tc.item, meta["item"])
					require.Equal(t, tc.reason, meta["reason"])
				}
				src, _ := e["source"].(map[string]any)
				ptr, _ := src["pointer"].(string)
				require.Equal(t, tc.pointer, ptr)
				require.Equal(t, "PENDING", st["status"], "a refused decision changes nothing")
			}
		})
	}

	t.Run("disclosedScope is required", func(t *testing.T) {
		id := f.request(t, nil)
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
		r := h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{
			"holderAddress": holder.Hex(), "decision": "REJECTED", "holderSignature": signConsent(t, ctx, f.wallet, "REJECTED", nil)}})
		require.Equal(t, 400, r.status, string(r.body))
		require.Equal(t, []string{"/disclosedScope"}, errorPointers(t, r))
	})

	t.Run("liveness, with and without requireLiveness", func(t *testing.T) {
		h.livenessAttestation(t, f.did, "L1")
		h.clock.Advance(time.Minute)
		l2 := h.livenessAttestation(t, f.did, "L2")
		for _, tc := range []struct {
			require any
			want    string
		}{
			{nil, l2},                              // the best current one
			{map[string]any{"minLevel": "L1"}, l2}, // the best that meets it
			{map[string]any{"minLevel": "L2"}, l2}, //
			{map[string]any{"minLevel": "L3"}, ""}, // none meets it: liveness_required
			{map[string]any{"minLevel": "L1", "maxAgeDays": 1}, l2},
		} {
			id := f.request(t, map[string]any{"scope": []string{"liveness", "is_adult"}, "mode": "SELECTIVE", "requireLiveness": tc.require})
			r := f.decide(t, id, f.wallet, holder, "APPROVED", []string{"liveness"})
			if tc.want == "" {
				require.Equal(t, 422, r.status, string(r.body))
				require.Equal(t, "liveness_required", r.errorCode(t))
				continue
			}
			require.Equal(t, 201, r.status, string(r.body))
			got := withoutConsent(r.json(t)["attestation"].(map[string]any)["claims"])["liveness"].(map[string]any)
			require.Equal(t, tc.want, got["attestationId"])
			require.Equal(t, "L2", got["level"])
		}
	})
}

// TestSeed001VerifierName: the verifier's display name is its API key's name; a
// token with no API key record (minted from the command line) shows its sub.
func TestSeed001VerifierName(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	id := f.request(t, nil)
	require.Equal(t, map[string]any{"id": "verifier-acme-bank", "name": "Acme Bank"},
		h.do(request{method: "GET", path: "/consent/" + id}).json(t)["verifier"])

	cli := h.token(veriland.RoleVerifier, veriland.Sandbox, "verifier-from-cli")
	id = f.requestAs(t, cli, nil)
	require.Equal(t, map[string]any{"id": "verifier-from-cli", "name": "verifier-from-cli"},
		h.do(request{method: "GET", path: "/consent/" + id}).json(t)["verifier"])
}

// TestSeed001ScopeVocabularyDocumented: the OpenAPI document's scope items are the
// vocabulary the server accepts.
func TestSeed001ScopeVocabularyDocumented(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument, &doc))
	require.ElementsMatch(t, consent.Vocabulary(nil), doc.Components.Schemas["ScopeItem"].Enum)
}

// TestSeed001ConsentChipFacts: after a chip binding, the facts derived from DG1 (never
// the date of birth or the document number) answer a verifier in both modes.
func TestSeed001ConsentChipFacts(t *testing.T) {
	h := newHarness(t, noRateLimits)
	f := newConsentFlow(t, h)
	holder := crypto.PubkeyToAddress(f.wallet.PublicKey)
	holderTok, did := h.login(t, f.wallet, veriland.Sandbox)
	require.Equal(t, f.did, did)
	live := h.livenessAttestation(t, did, "L2")
	sod, dg1, dg2 := h.passport(t, chipDocNumber)
	r := h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: map[string]any{
		"sodBase64": base64.StdEncoding.EncodeToString(sod), "dataGroups": chipDataGroups(dg1, dg2), "livenessAttestationId": live}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))

	scope := []string{"identity", "chip_bound", "document_type", "document_country", "age_over_18", "liveness"}
	id := f.request(t, map[string]any{"scope": scope, "mode": "SELECTIVE"})
	ok := f.decide(t, id, f.wallet, holder, "APPROVED", scope)
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))
	facts := withoutConsent(ok.json(t)["attestation"].(map[string]any)["claims"])
	require.Equal(t, map[string]any{"status": "ACTIVE", "level": "CHIP", "country": "NG"}, facts["identity"])
	require.Equal(t, true, facts["chip_bound"])
	require.Equal(t, "P", facts["document_type"])
	require.Equal(t, "UTO", facts["document_country"])
	require.Equal(t, true, facts["age_over_18"])
	require.Equal(t, live, facts["liveness"].(map[string]any)["attestationId"])
	require.NotContains(t, string(ok.body), chipDocNumber)
	// The birth date never leaves as a value (checked in the claims: a random
	// signature or hash elsewhere in the body may contain any digits).
	claimsJSON, err := json.Marshal(ok.json(t)["attestation"].(map[string]any)["claims"])
	require.NoError(t, err)
	for _, dob := range []string{"1974", "740812", "1974-08-12"} {
		require.NotContains(t, string(claimsJSON), dob)
	}

	id = f.request(t, map[string]any{"scope": scope})
	ok = f.decide(t, id, f.wallet, holder, "APPROVED", []string{})
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))
	require.Equal(t, map[string]any{"identity": "verified", "chip_bound": true, "document_type": "verified",
		"document_country": "verified", "age_over_18": true, "liveness": "verified"},
		withoutConsent(ok.json(t)["attestation"].(map[string]any)["claims"]))
}
