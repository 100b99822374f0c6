package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
)

// runInboundScenario runs webhooks.inbound as TestSandboxScenariosAllHold does every
// scenario: the prerequisites (kyc.timeout's identity), then the listed request, sent
// as listed; the identity is ACTIVE after it, and the same delivery again is a
// duplicate, not processed twice.
func runInboundScenario(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
	in := run.seeded.InboundWebhook
	require.Equal(t, in.Path, sc.Request.Path)
	require.Equal(t, in.Example.Headers, sc.Request.Headers)
	subjectRef := sandbox.SubjectPrefix(run.acct) + "kyc-timeout"
	require.Contains(t, sc.Prerequisites, "Run kyc.timeout first")
	require.Contains(t, sc.Prerequisites, subjectRef)
	pending := run.h.issueIdentity(t, subjectRef, nil, identity.ScenarioTimeout)
	require.Equal(t, "PENDING_KYC", pending["status"])
	did := pending["did"].(string)

	r := run.send(t, sc, nil)
	a := attrs(t, r)
	require.Equal(t, map[string]any{"provider": in.Provider, "type": "kyc.completed", "duplicate": false, "processed": true}, a)
	require.Contains(t, sc.Expected.Outcome, "duplicate false and processed true")
	require.Equal(t, "ACTIVE", identityStatus(t, run.h, did, veriland.Sandbox))
	require.Contains(t, sc.Expected.Outcome, "ACTIVE")

	again := run.send(t, sc, nil)
	require.Equal(t, true, attrs(t, again)["duplicate"])
	require.Equal(t, false, attrs(t, again)["processed"])
}

// identityStatus reads GET /identity/{did}/status in env.
func identityStatus(t *testing.T, h *harness, did string, env veriland.Environment) string {
	t.Helper()
	r := h.do(request{method: "GET", path: "/identity/" + did + "/status", header: map[string]string{headerEnvironment: string(env)}})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	return r.json(t)["status"].(string)
}

// signedEvent signs body with secret (a "whsec_…" text) at the harness's clock.
func signedEvent(t *testing.T, h *harness, secret, msgID string, body []byte) map[string]string {
	t.Helper()
	s, err := webhook.ParseSecret(secret)
	require.NoError(t, err)
	now := h.clock.Now()
	hdr := http.Header{}
	webhook.SetHeaders(hdr, []webhook.Secret{s}, msgID, now, body)
	out := map[string]string{}
	for k := range hdr {
		out[k] = hdr.Get(k)
	}
	return out
}

// kycEvent is a kyc.completed body of the sandbox provider.
func kycEvent(t *testing.T, data map[string]any) []byte {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"type": "kyc.completed", "data": data})
	require.NoError(t, err)
	return raw
}

// shellWords splits a POSIX shell command made of plain and single-quoted words (as
// the scenarios' curl commands are).
func shellWords(t *testing.T, cmd string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	require.False(t, quoted, "unbalanced quote in %s", cmd)
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// curlRequest reads a scenario's curl command back into the request it sends.
func curlRequest(t *testing.T, cmd, origin string) (path string, header map[string]string, body string) {
	t.Helper()
	words := shellWords(t, cmd)
	require.Equal(t, []string{"curl", "-sS", "-X", "POST"}, words[:4])
	path, ok := strings.CutPrefix(words[4], origin)
	require.True(t, ok, "the URL is on the server's public origin: %s", words[4])
	header = map[string]string{}
	for i := 5; i < len(words); i += 2 {
		switch words[i] {
		case "-H":
			k, v, ok := strings.Cut(words[i+1], ": ")
			require.True(t, ok, words[i+1])
			header[k] = v
		case "--data-binary":
			body = words[i+1]
		default:
			t.Fatalf("unexpected curl word %q", words[i])
		}
	}
	return path, header, body
}

// TestSandboxInboundProvider: every account has its own inbound test provider, listed
// with its secret and a signed example whose curl command, run as listed, finishes the
// account's PENDING_KYC identity. Its secret is the account's alone, its events act on
// the account's SANDBOX records only (another account's identity, attestation or
// PRODUCTION: 403, nothing stored), a tampered body is 401, and a reset gives a new
// secret under the same URL.
func TestSandboxInboundProvider(t *testing.T) {
	h := newHarness(t)
	seededA, listA := h.sandboxScenarios(t, "acct_A")
	seededB, _ := h.sandboxScenarios(t, "acct_B")
	inA, inB := seededA.InboundWebhook, seededB.InboundWebhook

	// Listed: name, URL, scheme, secret, event types, a signed example.
	require.Equal(t, sandbox.ProviderName("acct_A"), inA.Provider)
	require.Regexp(t, `^sandbox-[0-9a-f]{24}$`, inA.Provider)
	require.Equal(t, "/v1/webhooks/"+inA.Provider, inA.Path)
	require.Equal(t, webhook.SchemeStandardWebhooks, inA.Scheme)
	require.Equal(t, []string{"kyc.completed", "anchor.confirmed"}, inA.EventTypes)
	require.Equal(t, 300, inA.ToleranceSeconds)
	require.True(t, strings.HasPrefix(inA.Secret, "whsec_"))
	require.NotEqual(t, inA.Provider, inB.Provider)
	require.NotEqual(t, inA.Secret, inB.Secret, "the secret is the account's own")
	require.Equal(t, h.clock.Now().Add(5*time.Minute), inA.Example.ValidUntil)
	var sc sandbox.Scenario
	for _, s := range listA {
		if s.ID == "webhooks.inbound" {
			sc = s
		}
	}
	require.Equal(t, "webhooks.inbound", sc.ID)

	// The curl command, read back word by word, is the listed request byte for byte.
	path, header, body := curlRequest(t, sc.Curl, h.srv.cfg.PublicOrigin)
	require.Equal(t, inA.Path, path)
	require.Equal(t, inA.Example.Headers, header)
	require.Equal(t, inA.Example.Body, body)
	require.JSONEq(t, inA.Example.Body, string(mustJSON(t, sc.Request.Body)))

	// Its prerequisite, then the curl as listed: A's PENDING_KYC identity is ACTIVE.
	timeout := h.issueIdentity(t, sandbox.SubjectPrefix("acct_A")+"kyc-timeout", nil, identity.ScenarioTimeout)
	didA := timeout["did"].(string)
	r := h.do(request{method: "POST", path: path, header: header, body: []byte(body)})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, true, attrs(t, r)["processed"])
	require.Equal(t, "ACTIVE", identityStatus(t, h, didA, veriland.Sandbox))
	// Stored in SANDBOX's inbox, under A's provider; PRODUCTION's inbox is untouched.
	msgID := header[webhook.HeaderID]
	ev, err := h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, inA.Provider, msgID)
	require.NoError(t, err)
	require.False(t, ev.ProcessedAt.IsZero())
	_, err = h.srv.cfg.Inbox.Get(t.Context(), veriland.Production, inA.Provider, msgID)
	require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))
	prod, err := h.srv.cfg.Inbox.Unprocessed(t.Context(), veriland.Production, 1000)
	require.NoError(t, err)
	require.Empty(t, prod)

	// Tampered: the body changed after signing is 401, and nothing is stored.
	tampered := strings.Replace(body, "APPROVED", "REJECTED", 1)
	require.NotEqual(t, body, tampered)
	hdr := signedEvent(t, h, inA.Secret, "msg_tampered", []byte(body))
	r = h.do(request{method: "POST", path: inA.Path, header: hdr, body: []byte(tampered)})
	require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
	require.Equal(t, "invalid_webhook_signature", r.errorCode(t))

	// A second PENDING_KYC identity of A, and one of B.
	subjA2 := sandbox.SubjectPrefix("acct_A") + "second"
	didA2 := h.issueIdentity(t, subjA2, nil, identity.ScenarioTimeout)["did"].(string)
	subjB := sandbox.SubjectPrefix("acct_B") + "pending"
	didB := h.issueIdentity(t, subjB, nil, identity.ScenarioTimeout)["did"].(string)

	refused := func(name, provider, secret string, data map[string]any, status int, code, pointer string) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			raw := kycEvent(t, data)
			id := "msg_" + strings.ReplaceAll(name, " ", "_")
			r := h.do(request{method: "POST", path: "/v1/webhooks/" + provider, header: signedEvent(t, h, secret, id, raw), body: raw})
			require.Equal(t, status, r.status, string(r.body))
			require.Equal(t, code, r.errorCode(t))
			if pointer != "" {
				require.Equal(t, []string{pointer}, errorPointers(t, r))
			}
			// Refused before it is stored.
			_, err := h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, provider, id)
			require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))
		})
	}
	// B's provider and secret on A's identity: refused, by subjectRef or by did.
	refused("B on A's subjectRef", inB.Provider, inB.Secret,
		map[string]any{"env": "SANDBOX", "subjectRef": subjA2, "outcome": "APPROVED"}, http.StatusForbidden, "forbidden", "/data/subjectRef")
	refused("B on A's did", inB.Provider, inB.Secret,
		map[string]any{"env": "SANDBOX", "subjectRef": subjB, "did": didA2, "outcome": "APPROVED"}, http.StatusForbidden, "forbidden", "/data/did")
	// B's secret on A's provider: the signature does not verify.
	refused("B's secret at A's URL", inA.Provider, inB.Secret,
		map[string]any{"env": "SANDBOX", "subjectRef": subjA2, "outcome": "APPROVED"}, http.StatusUnauthorized, "invalid_webhook_signature", "")
	// PRODUCTION is never reachable.
	refused("PRODUCTION", inA.Provider, inA.Secret,
		map[string]any{"env": "PRODUCTION", "subjectRef": subjA2, "outcome": "APPROVED"}, http.StatusForbidden, "forbidden", "/data/env")
	// The identity is named by its subjectRef.
	refused("did alone", inA.Provider, inA.Secret,
		map[string]any{"env": "SANDBOX", "did": didA2, "outcome": "APPROVED"}, http.StatusBadRequest, "validation_failed", "/data/subjectRef")
	refused("unknown provider", "sandbox-000000000000000000000000", inA.Secret,
		map[string]any{"env": "SANDBOX", "subjectRef": subjA2, "outcome": "APPROVED"}, http.StatusNotFound, "not_found", "")
	require.Equal(t, "PENDING_KYC", identityStatus(t, h, didA2, veriland.Sandbox))
	require.Equal(t, "PENDING_KYC", identityStatus(t, h, didB, veriland.Sandbox))

	// Attestations: A's seeded consent attestation through B's provider is refused.
	anchor := func(provider, secret, id string) response {
		raw, err := json.Marshal(map[string]any{"type": "anchor.confirmed", "data": map[string]any{
			"attestationId": seededA.Attestations.Consent, "txHash": "0x" + strings.Repeat("ab", 32), "blockNumber": 7}})
		require.NoError(t, err)
		return h.do(request{method: "POST", path: "/v1/webhooks/" + provider, header: signedEvent(t, h, secret, id, raw), body: raw})
	}
	r = anchor(inB.Provider, inB.Secret, "msg_anchor_b")
	require.Equal(t, http.StatusForbidden, r.status, string(r.body))
	require.Equal(t, []string{"/data/attestationId"}, errorPointers(t, r))
	r = anchor(inA.Provider, inA.Secret, "msg_anchor_a")
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, inA.Provider, attrs(t, r)["provider"])

	// A's own event on its second identity, with its did: processed; B's identity is
	// still PENDING_KYC.
	raw := kycEvent(t, map[string]any{"subjectRef": subjA2, "did": didA2, "outcome": "REJECTED"})
	r = h.do(request{method: "POST", path: inA.Path, header: signedEvent(t, h, inA.Secret, "msg_a2", raw), body: raw})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, true, attrs(t, r)["processed"])
	require.Equal(t, "REJECTED", identityStatus(t, h, didA2, veriland.Sandbox))
	require.Equal(t, "PENDING_KYC", identityStatus(t, h, didB, veriland.Sandbox))

	// A reset keeps the URL and gives a new secret: the old one is refused, the new one
	// works (its listed example is signed with it).
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-a", withAccount("acct_A"))
	reset := h.do(request{method: "POST", path: "/v1/sandbox/reset", token: admin})
	require.Equal(t, http.StatusOK, reset.status, string(reset.body))
	var after struct {
		Seeded sandbox.Seeded `json:"seeded"`
	}
	require.NoError(t, json.Unmarshal(mustJSON(t, attrs(t, reset)), &after))
	inA2 := after.Seeded.InboundWebhook
	require.Equal(t, inA.Provider, inA2.Provider)
	require.NotEqual(t, inA.Secret, inA2.Secret)
	subjA3 := sandbox.SubjectPrefix("acct_A") + "after-reset"
	didA3 := h.issueIdentity(t, subjA3, nil, identity.ScenarioTimeout)["did"].(string)
	raw = kycEvent(t, map[string]any{"subjectRef": subjA3, "outcome": "APPROVED"})
	r = h.do(request{method: "POST", path: inA.Path, header: signedEvent(t, h, inA.Secret, "msg_old_secret", raw), body: raw})
	require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
	r = h.do(request{method: "POST", path: inA.Path, header: signedEvent(t, h, inA2.Secret, "msg_new_secret", raw), body: raw})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, "ACTIVE", identityStatus(t, h, didA3, veriland.Sandbox))
	r = h.do(request{method: "POST", path: inA.Path, header: inA2.Example.Headers, body: []byte(inA2.Example.Body)})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	// B's provider is untouched by A's reset.
	_, listB := h.sandboxScenarios(t, "acct_B")
	require.NotEmpty(t, listB)
	require.Equal(t, inB.Secret, h.sandboxState(t, "acct_B").Seeded.InboundWebhook.Secret)

	// Stale: the listed example is refused once its timestamp is out of the window.
	h.clock.Advance(6 * time.Minute)
	r = h.do(request{method: "POST", path: inA.Path, header: inA2.Example.Headers, body: []byte(inA2.Example.Body)})
	require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
}

// A configured provider may not take a sandbox provider's name.
func TestSandboxInboundProviderNameReserved(t *testing.T) {
	s, err := webhook.NewSecret(strings.NewReader(strings.Repeat("x", 32)))
	require.NoError(t, err)
	err = webhook.Providers{"sandbox-abc": {Secrets: []webhook.Secret{s}, EventTypes: []string{"kyc.completed"}}}.Validate()
	require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
	require.Contains(t, err.Error(), "sandbox test providers")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return raw
}
