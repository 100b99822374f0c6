package httpserver

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
)

// The sandbox scenario list can never lie: every scenario the server lists is run here
// against the real server, exactly as listed except for its placeholders, which the
// runner computes as the scenario's prerequisites say, and its outcome is checked.
// Each scenario runs in an account of its own, seeded on first use, so that one
// scenario's decision (a request is decided once) never spoils another's.

// scenarioRun is one scenario's account: its seeded records and tokens.
type scenarioRun struct {
	h         *harness
	acct      string
	seeded    sandbox.Seeded
	list      []sandbox.Scenario // every scenario, as listed for this account
	holderKey *ecdsa.PrivateKey
	holderTok string // signed in on first need
	// pathIDs are the ids that the prerequisites made, by the path placeholder they
	// fill (sandbox.PathTransferID, sandbox.PathParcelID).
	pathIDs map[string]string
}

// scenarioDoc is GET /v1/sandbox/scenarios's answer.
type scenarioDoc struct {
	Data struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Attributes struct {
			Account   string             `json:"account"`
			Seeded    sandbox.Seeded     `json:"seeded"`
			Scenarios []sandbox.Scenario `json:"scenarios"`
		} `json:"attributes"`
	} `json:"data"`
}

// sandboxScenarios returns acct's seeded records and the scenarios the server lists
// for it, seeding the account on this first request.
func (h *harness) sandboxScenarios(t *testing.T, acct string) (sandbox.Seeded, []sandbox.Scenario) {
	t.Helper()
	tok := h.token(veriland.RoleVerifier, veriland.Sandbox, "scenario-reader", withAccount(acct))
	r := h.do(request{method: "GET", path: "/v1/sandbox/scenarios", token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	var doc scenarioDoc
	require.NoError(t, json.Unmarshal(r.body, &doc))
	require.Equal(t, "sandbox", doc.Data.Type)
	require.Equal(t, acct, doc.Data.ID)
	require.Equal(t, acct, doc.Data.Attributes.Account)
	seeded := doc.Data.Attributes.Seeded
	// The listed scenarios are sandbox.Scenarios with this account's ids.
	want, err := json.Marshal(sandbox.Scenarios(h.srv.cfg.PublicOrigin, seeded))
	require.NoError(t, err)
	got, err := json.Marshal(doc.Data.Attributes.Scenarios)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
	return seeded, doc.Data.Attributes.Scenarios
}

func withAccount(acct string) func(*veriland.Principal) {
	return func(p *veriland.Principal) { p.Account = acct }
}

// scenarioRunner returns the code that performs scenario id's prerequisites, sends its
// request and checks what is listed beyond status and code; nil for an id it does not
// know, which fails the test: a new scenario must come with its run.
func scenarioRunner(id string) func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
	switch id {
	case "kyc.success", "kyc.failure", "kyc.review", "kyc.timeout":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.send(t, sc, nil)
			requireStatusWord(t, sc, r.json(t)["status"])
			require.True(t, strings.HasPrefix(r.json(t)["did"].(string), "did:veriland:"))
			if id == "kyc.review" {
				require.Contains(t, sc.Expected.Outcome, "reviewId")
				require.NotEmpty(t, r.json(t)["reviewId"])
			}
		}
	case "kyc.unavailable":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			run.send(t, sc, nil)
			// "Nothing is kept": the same subjectRef is free, as the outcome says.
			ok := run.h.do(request{method: "POST", path: sc.Request.Path, header: sc.Request.Headers, body: map[string]any{
				"subjectRef": sc.Request.Body.(map[string]any)["subjectRef"], "countryCode": "NG"}})
			require.Equal(t, http.StatusCreated, ok.status, string(ok.body))
		}
	case "liveness.enroll":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.send(t, sc, nil)
			require.Equal(t, "MOCK", r.json(t)["attestationType"])
			require.Contains(t, sc.Expected.Outcome, "trust "+r.json(t)["trust"].(string))
			require.Contains(t, sc.Expected.Outcome, "200 with the same device when enrolled already")
			again := run.h.do(request{method: "POST", path: sc.Request.Path, token: run.token(t, sandbox.AuthHolder), body: sc.Request.Body})
			require.Equal(t, http.StatusOK, again.status, string(again.body))
			require.Equal(t, r.json(t)["deviceId"], again.json(t)["deviceId"])
		}
	case "liveness.session":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			now := run.h.clock.Now()
			r := run.send(t, sc, nil)
			require.Contains(t, sc.Expected.Outcome, "level "+r.json(t)["level"].(string))
			require.Contains(t, sc.Expected.Outcome, "expiresAt 120 s later")
			require.Equal(t, now.Add(120*time.Second), jsonTime(t, r.json(t)["expiresAt"]))
		}
	case "liveness.verify_l1", "liveness.verify_l2", "liveness.verify_l3_basic_device",
		"liveness.verify_low_scores", "liveness.verify_virtual_camera":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.verifyLiveness(t, sc)
			if r.status >= 400 {
				for _, reason := range lvReasons(t, r) {
					require.Contains(t, sc.Expected.Outcome, reason, "a reason the outcome does not name")
				}
				return
			}
			requireStatusWord(t, sc, r.json(t)["status"])
			require.Contains(t, sc.Expected.Outcome, "level "+r.json(t)["level"].(string))
			require.Equal(t, "LIVENESS", r.json(t)["attestation"].(map[string]any)["kind"])
		}
	case "consent.approve", "consent.reject":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.decide(t, sc)
			requireStatusWord(t, sc, r.json(t)["status"])
			if id == "consent.approve" {
				att := r.json(t)["attestation"].(map[string]any)
				require.Equal(t, "CONSENT", att["kind"])
				require.Equal(t, run.seeded.Holder.DID, att["subject"])
				require.Equal(t, map[string]any{"is_adult": true, "nationality": "verified"}, withoutConsent(att["claims"]))
			} else {
				require.Nil(t, r.json(t)["attestation"])
			}
		}
	case "consent.unknown_subject":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.send(t, sc, nil)
			require.Equal(t, []string{"/subjectRef"}, errorPointers(t, r))
		}
	case "consent.expired":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.send(t, sc, nil)
			requireStatusWord(t, sc, r.json(t)["status"])
			id := r.json(t)["requestId"].(string)
			run.h.clock.Advance(61 * time.Second)
			st := run.h.do(request{method: "GET", path: "/verify/request/" + id})
			require.Equal(t, "EXPIRED", st.json(t)["status"])
			ctx := run.h.do(request{method: "GET", path: "/consent/" + id})
			sig := signConsent(t, ctx.json(t), run.holderKey, "APPROVED", []string{"is_adult"})
			d := run.h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{"holderAddress": run.seeded.Holder.WalletAddress,
				"decision": "APPROVED", "disclosedScope": []string{"is_adult"}, "holderSignature": sig}})
			require.Equal(t, http.StatusConflict, d.status, string(d.body))
			require.Contains(t, sc.Expected.Outcome, "409 "+d.errorCode(t))
		}
	case "chip.success", "chip.tampered":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.verifyChip(t, sc, id == "chip.tampered")
			mine := run.h.do(request{method: "GET", path: "/identity/chip-bindings/me", token: run.token(t, sandbox.AuthHolder)})
			require.Equal(t, http.StatusOK, mine.status, string(mine.body))
			if r.status >= 400 {
				require.Contains(t, sc.Expected.Outcome, "nothing is bound")
				require.Empty(t, mine.json(t)["items"])
				step := r.json(t)["errors"].([]any)[0].(map[string]any)["meta"].(map[string]any)["step"].(string)
				require.Contains(t, sc.Expected.Outcome, step)
				return
			}
			require.Contains(t, sc.Expected.Outcome, "the document is bound to the holder")
			require.Len(t, mine.json(t)["items"], 1)
			require.Contains(t, sc.Expected.Outcome, "mode "+r.json(t)["mode"].(string))
			att := r.json(t)["attestation"].(map[string]any)
			require.Equal(t, "CHIP_BINDING", att["kind"])
			require.Contains(t, sc.Expected.Outcome, "issuingState "+att["claims"].(map[string]any)["issuingState"].(string))
		}
	case "parcels.certified", "parcels.rejected", "parcels.pending", "parcels.transfer_completed",
		"parcels.certify_pending", "parcels.approve_open_transfer":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			r := run.send(t, sc, nil)
			requireStatusWord(t, sc, attrs(t, r)["status"])
			// The parcel's version, where the outcome names one.
			if m := regexp.MustCompile(`version (\d+)`).FindStringSubmatch(sc.Expected.Outcome); m != nil {
				parcel := attrs(t, r)
				if id == "parcels.transfer_completed" {
					tok := run.token(t, sandbox.AuthAccount)
					parcel = attrs(t, run.h.do(request{method: "GET", path: "/v1/parcels/" + run.seeded.Parcels.Certified, token: tok}))
				}
				require.EqualValues(t, m[1], fmt.Sprint(parcel["version"]))
			}
			switch id {
			case "parcels.certified":
				require.Contains(t, sc.Expected.Outcome, "certificate hash and ERC-5192 token")
				require.Regexp(t, `^0x[0-9a-f]{64}$`, attrs(t, r)["certificateHash"])
				require.Equal(t, "ERC-5192", attrs(t, r)["token"].(map[string]any)["standard"])
			case "parcels.certify_pending":
				require.Contains(t, sc.Expected.Outcome, "certificate hash")
				require.Regexp(t, `^0x[0-9a-f]{64}$`, attrs(t, r)["certificateHash"])
			case "parcels.approve_open_transfer":
				tok := run.token(t, sandbox.AuthAccount)
				parcel := attrs(t, run.h.do(request{method: "GET", path: "/v1/parcels/" + run.seeded.Parcels.WithOpenTransfer, token: tok}))
				last4 := parcel["owner"].(map[string]any)["idDocLast4"].(string)
				require.Contains(t, sc.Expected.Outcome, "id_doc ending "+last4)
			}
		}
	case "owners.my_parcels", "owners.transfer_requested", "owners.approve", "owners.approve_notary_waits", "owners.reject",
		"owners.wrong_signer", "owners.approve_before_owner", "owners.deadline":
		return ownerScenarioRunner(id)
	case "parcels.notary_requests_transfer", "parcels.requester_approves", "parcels.creator_certifies":
		return separationScenarioRunner(id)
	case "webhooks.fail", "webhooks.timeout":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			run.webhook(t, sc)
		}
	case "webhooks.inbound":
		return runInboundScenario // sandbox_provider_test.go
	case "ratelimit.wallet", "ratelimit.key":
		return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
			policy, placeholder := ratelimit.WalletPolicy(), sandbox.AuthHolder
			// A holder's token of its own wallet: the seeded holder's is used by the
			// other scenarios of the run.
			tok := run.h.token(veriland.RoleHolder, veriland.Sandbox, "did:pkh:eip155:1:0x00000000000000000000000000000000000000aa", withAccount(run.acct),
				func(p *veriland.Principal) { p.Wallet = "0x00000000000000000000000000000000000000aa" })
			if id == "ratelimit.key" {
				policy, placeholder = ratelimit.KeyPolicy(), sandbox.AuthAccount
				tok = run.h.token(veriland.RoleVerifier, veriland.Sandbox, "scenario-ratelimit", withAccount(run.acct))
			}
			require.Equal(t, placeholder, sc.Request.Headers["Authorization"])
			require.Contains(t, sc.Prerequisites, "Send "+strconv.Itoa(policy.Burst)+" requests")
			wantPolicy := fmt.Sprintf(`"%s";q=%d;w=%d`, policy.Name, policy.Limit, int(policy.Window.Seconds()))
			require.Contains(t, sc.Description, wantPolicy)
			for i := range policy.Burst {
				r := run.h.do(request{method: sc.Request.Method, path: sc.Request.Path, token: tok})
				require.Equal(t, http.StatusOK, r.status, "request %d of the burst: %s", i+1, r.body)
				require.Equal(t, wantPolicy, r.header.Get("RateLimit-Policy"))
			}
			r := run.send(t, sc, map[string]string{placeholder: tok})
			require.NotEmpty(t, r.header.Get("RateLimit"))
			require.Equal(t, wantPolicy, r.header.Get("RateLimit-Policy"))
			require.Contains(t, sc.Expected.Outcome, "Retry-After: "+r.header.Get("Retry-After"))
		}
	}
	return nil
}

// requireStatusWord checks that the scenario's outcome names the status the server
// answered ("status ACTIVE").
func requireStatusWord(t *testing.T, sc sandbox.Scenario, status any) {
	t.Helper()
	s, ok := status.(string)
	require.True(t, ok, "no status in the answer")
	require.Regexp(t, `\bstatus `+regexp.QuoteMeta(s)+`\b`, sc.Expected.Outcome)
}

func TestSandboxScenariosAllHold(t *testing.T) {
	h := newHarness(t)
	_, list := h.sandboxScenarios(t, "acct_scenarios")
	require.NotEmpty(t, list)
	for i, listed := range list {
		t.Run(listed.ID, func(t *testing.T) {
			runner := scenarioRunner(listed.ID)
			require.NotNil(t, runner, "scenario %s has no runner", listed.ID)
			// Public routes are limited per client IP at a frozen clock: let the
			// allowance refill between scenarios.
			h.clock.Advance(time.Minute)
			run := &scenarioRun{h: h, acct: fmt.Sprintf("acct_scenario_%02d", i), pathIDs: map[string]string{}}
			var scenarios []sandbox.Scenario
			run.seeded, scenarios = h.sandboxScenarios(t, run.acct)
			run.list = scenarios
			var sc sandbox.Scenario
			for _, s := range scenarios {
				if s.ID == listed.ID {
					sc = s
				}
			}
			require.Equal(t, listed.ID, sc.ID, "every account lists the same scenarios")
			key, err := crypto.HexToECDSA(strings.TrimPrefix(run.seeded.Holder.PrivateKey, "0x"))
			require.NoError(t, err, "the seeded holder's privateKey")
			require.Equal(t, run.seeded.Holder.WalletAddress, crypto.PubkeyToAddress(key.PublicKey).Hex())
			run.holderKey = key
			runner(t, run, sc)
		})
	}
}

// Every listed scenario has a runner: adding a scenario without its run fails here,
// even before anything is sent.
func TestSandboxScenariosRunnerCoversAll(t *testing.T) {
	for _, sc := range sandbox.Scenarios("http://veriland.test", sandbox.Seeded{}) {
		require.NotNil(t, scenarioRunner(sc.ID), "scenario %s has no runner in TestSandboxScenariosAllHold", sc.ID)
	}
}

// token returns the token an Authorization placeholder stands for.
func (run *scenarioRun) token(t *testing.T, placeholder string) string {
	t.Helper()
	switch placeholder {
	case sandbox.AuthAccount:
		return run.h.token(veriland.RoleVerifier, veriland.Sandbox, "scenario-agent", withAccount(run.acct))
	case sandbox.AuthVerifier:
		return run.h.token(veriland.RoleVerifier, veriland.Sandbox, "scenario-verifier", withAccount(run.acct))
	case sandbox.AuthNotary:
		return run.h.token(veriland.RoleNotary, veriland.Sandbox, sandbox.NotarySilent, withAccount(run.acct))
	case sandbox.AuthNotaryCertifies:
		return run.h.token(veriland.RoleNotary, veriland.Sandbox, sandbox.NotaryCertifies, withAccount(run.acct))
	case sandbox.AuthAdmin:
		return run.h.token(veriland.RoleAdmin, veriland.Sandbox, "scenario-admin", withAccount(run.acct))
	case sandbox.AuthHolder:
		if run.holderTok == "" {
			tok, did := run.h.login(t, run.holderKey, veriland.Sandbox)
			require.Equal(t, run.seeded.Holder.DID, did, "the seeded holder signs in as its identity")
			run.holderTok = tok
		}
		return run.holderTok
	}
	t.Fatalf("unknown Authorization placeholder %q", placeholder)
	return ""
}

// send sends sc's request, its Authorization placeholder replaced by a token (tokens
// overrides the runner's choice) and every body placeholder by fill(member, text), and
// checks the expected status and code. A placeholder fill does not know fails the test.
func (run *scenarioRun) send(t *testing.T, sc sandbox.Scenario, tokens map[string]string, fill ...func(member, text string) (any, bool)) response {
	t.Helper()
	var body any
	if sc.Request.Body != nil {
		raw, err := json.Marshal(sc.Request.Body)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &body))
		body = fillPlaceholders(t, "", body, fill)
	}
	path := sc.Request.Path
	for placeholder, id := range run.pathIDs {
		path = strings.ReplaceAll(path, placeholder, id)
	}
	require.NotContains(t, path, "<", "%s: a path placeholder the prerequisites did not fill", sc.ID)
	req := request{method: sc.Request.Method, path: path, body: body, header: map[string]string{}}
	for k, v := range sc.Request.Headers {
		if k == "Authorization" {
			if tok, ok := tokens[v]; ok {
				req.token = tok
			} else {
				req.token = run.token(t, v)
			}
			continue
		}
		req.header[k] = v
	}
	r := run.h.do(req)
	require.Equal(t, sc.Expected.Status, r.status, "%s: %s", sc.ID, r.body)
	if sc.Expected.Code != "" {
		require.Equal(t, sc.Expected.Code, r.errorCode(t), string(r.body))
	}
	return r
}

// fillPlaceholders replaces each placeholder string of v, a decoded JSON value, by
// what fill answers for its member name.
func fillPlaceholders(t *testing.T, member string, v any, fill []func(member, text string) (any, bool)) any {
	t.Helper()
	switch x := v.(type) {
	case string:
		if !sandbox.IsPlaceholder(x) {
			return x
		}
		for _, f := range fill {
			if out, ok := f(member, x); ok {
				return out
			}
		}
		t.Fatalf("no value for the placeholder of %s: %s", member, x)
	case map[string]any:
		for k, e := range x {
			x[k] = fillPlaceholders(t, k, e, fill)
		}
	case []any:
		for i, e := range x {
			x[i] = fillPlaceholders(t, member, e, fill)
		}
	}
	return v
}

// enrollHolderDevice enrolls the seeded holder's wallet key as its device, as
// liveness.enroll does.
func (run *scenarioRun) enrollHolderDevice(t *testing.T) *lvDevice {
	t.Helper()
	dev := &lvDevice{key: run.holderKey, addr: crypto.PubkeyToAddress(run.holderKey.PublicKey)}
	r := run.h.lvEnroll(run.token(t, sandbox.AuthHolder), dev)
	require.Contains(t, []int{http.StatusCreated, http.StatusOK}, r.status, string(r.body))
	return dev
}

// verifyLiveness runs a liveness verification scenario: the device enrolled, a session
// at the placeholder's level, frames as the evidence's timing says, signed.
func (run *scenarioRun) verifyLiveness(t *testing.T, sc sandbox.Scenario) response {
	t.Helper()
	dev := run.enrollHolderDevice(t)
	listed := sc.Request.Body.(map[string]any)
	level := ""
	for _, l := range []string{"L1", "L2", "L3"} {
		if listed["sessionId"] == sandbox.SessionPlaceholder(l) {
			level = l
		}
	}
	require.NotEmpty(t, level, "the sessionId placeholder names no level")
	raw, err := json.Marshal(listed["evidence"])
	require.NoError(t, err)
	var evidence map[string]any
	require.NoError(t, json.Unmarshal(raw, &evidence))
	frames := int(evidence["timing"].(map[string]any)["frameCount"].(float64))

	sess := run.h.lvStartSession(t, run.token(t, sandbox.AuthHolder), level)
	p := newLvProof(t, sess, dev, frames, sandbox.LivenessFrameIntervalMs)
	p.body["evidence"] = evidence // the listed scores and timing, signed as they are
	p.sign(t, dev.key)
	run.h.lvCaptureDone(p)
	return run.send(t, sc, nil, func(member, _ string) (any, bool) {
		switch member {
		case "sessionId", "merkleRoot", "frameTimestamps", "deviceSignature":
			return p.body[member], true
		}
		return nil, false
	})
}

// decide signs sc's consent decision with the seeded holder's key over the typed data
// GET /consent/{id} serves.
func (run *scenarioRun) decide(t *testing.T, sc sandbox.Scenario) response {
	t.Helper()
	ctx := run.h.do(request{method: "GET", path: sc.Request.Path})
	require.Equal(t, http.StatusOK, ctx.status, string(ctx.body))
	body := sc.Request.Body.(map[string]any)
	var disclosed []string
	raw, err := json.Marshal(body["disclosedScope"])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &disclosed))
	sig := signConsent(t, ctx.json(t), run.holderKey, body["decision"].(string), disclosed)
	return run.send(t, sc, nil, func(member, _ string) (any, bool) {
		return sig, member == "holderSignature"
	})
}

// verifyChip passes liveness at L2 as the seeded holder, builds a sandbox passport with
// the builder examples/sandbox-sod uses (tampering with DG1 when asked), and sends sc.
func (run *scenarioRun) verifyChip(t *testing.T, sc sandbox.Scenario, tamper bool) response {
	t.Helper()
	dev := run.enrollHolderDevice(t)
	hl := &lvHolder{wallet: run.holderKey, tok: run.token(t, sandbox.AuthHolder), did: run.seeded.Holder.DID}
	live := run.h.lvPass(t, hl, dev, "L2")
	sod, dg1, dg2 := run.h.passport(t, chipDocNumber)
	if tamper {
		dg1 = bytes.Clone(dg1)
		dg1[len(dg1)-3] ^= 1
	}
	b64 := base64.StdEncoding.EncodeToString
	return run.send(t, sc, nil, func(member, text string) (any, bool) {
		switch {
		case member == "sodBase64":
			return b64(sod), true
		case member == "contentBase64" && strings.Contains(text, "DG1"):
			return b64(dg1), true
		case member == "contentBase64" && strings.Contains(text, "DG2"):
			return b64(dg2), true
		case member == "livenessAttestationId":
			return live.ID, true
		}
		return nil, false
	})
}

// webhook creates sc's verification request, has the seeded holder approve it, and
// drives the outbox over the whole schedule: every attempt must be the sandbox
// receiver's answer the outcome names, and the delivery ends FAILED.
func (run *scenarioRun) webhook(t *testing.T, sc sandbox.Scenario) {
	t.Helper()
	h := run.h
	// A fresh token at each read: the schedule outlasts a token's hour.
	verifierTok := func() string { return run.token(t, sandbox.AuthVerifier) }
	r := run.send(t, sc, nil)
	requireStatusWord(t, sc, r.json(t)["status"])
	id := r.json(t)["requestId"].(string)
	ctx := h.do(request{method: "GET", path: "/consent/" + id})
	disclosed := []string{"is_adult", "nationality"}
	sig := signConsent(t, ctx.json(t), run.holderKey, "APPROVED", disclosed)
	d := h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{"holderAddress": run.seeded.Holder.WalletAddress,
		"decision": "APPROVED", "disclosedScope": disclosed, "holderSignature": sig}})
	require.Equal(t, http.StatusCreated, d.status, string(d.body))

	wantStatus, wantErr := http.StatusInternalServerError, webhook.SandboxFailError
	if strings.HasSuffix(sc.Request.Body.(map[string]any)["callbackUrl"].(string), webhook.SandboxTimeoutPath) {
		wantStatus, wantErr = 0, webhook.SandboxTimeoutError
	}
	require.Contains(t, sc.Expected.Outcome, wantErr)
	h.runOutbox(t)
	del := h.deliveryForRequest(t, verifierTok(), id, "verification.approved")
	require.Equal(t, "PENDING", del["status"])
	msgID := del["id"].(string)
	for range 10 {
		if del["status"] != "PENDING" {
			break
		}
		h.advanceTo(jsonTime(t, del["nextAttemptAt"]))
		h.runOutbox(t)
		del = h.delivery(t, verifierTok(), msgID)
	}
	require.Contains(t, sc.Expected.Outcome, "FAILED 24 h after the first")
	require.Equal(t, "FAILED", del["status"])
	attempts := del["attempts"].([]any)
	require.Len(t, attempts, 7)
	for _, a := range attempts {
		a := a.(map[string]any)
		require.EqualValues(t, wantStatus, a["statusCode"])
		require.Equal(t, wantErr, a["error"])
		if wantStatus == 0 {
			require.Contains(t, sc.Expected.Outcome, fmt.Sprintf("latencyMs %v", a["latencyMs"]))
		}
	}
}

// listed returns the scenario id of run's account's list.
func (run *scenarioRun) listed(t *testing.T, id string) sandbox.Scenario {
	t.Helper()
	for _, sc := range run.list {
		if sc.ID == id {
			return sc
		}
	}
	t.Fatalf("no scenario %s in the list", id)
	return sandbox.Scenario{}
}

// namedNotary is the notary a scenario's prerequisites name ("naming notary NOT-SBX-…").
func namedNotary(t *testing.T, sc sandbox.Scenario) string {
	t.Helper()
	m := regexp.MustCompile(`naming notary (NOT-SBX-\d)`).FindStringSubmatch(sc.Prerequisites)
	require.NotNil(t, m, "%s: the prerequisites name no notary", sc.ID)
	return m[1]
}

// requestOwnerTransfer does what the owner scenarios' prerequisites say: the request of
// owners.transfer_requested, naming notary, by an API key of the account. It records
// the transfer's id for the path placeholder and returns the transfer.
func (run *scenarioRun) requestOwnerTransfer(t *testing.T, notary string) map[string]any {
	t.Helper()
	base := run.listed(t, "owners.transfer_requested")
	raw, err := json.Marshal(base.Request.Body)
	require.NoError(t, err)
	var body map[string]any
	require.NoError(t, json.Unmarshal(raw, &body))
	body["notary"] = notary
	r := run.h.do(request{method: base.Request.Method, path: base.Request.Path, token: run.token(t, sandbox.AuthAccount), body: body})
	require.Equal(t, http.StatusAccepted, r.status, string(r.body))
	tr := attrs(t, r)
	require.Equal(t, "PENDING_OWNER", tr["status"])
	run.pathIDs[sandbox.PathTransferID] = tr["id"].(string)
	return tr
}

// signOwnerConsent signs transfer id's TransferConsent with decision as the owner's
// wallet does: the digest of parcel.TransferConsentOf over the transfer as the account
// reads it, which must be the EIP-712 digest of the typed data the owner's route
// serves with the decision added (what eth_signTypedData_v4 signs), signed with key
// by internal/ethsig.
func (run *scenarioRun) signOwnerConsent(t *testing.T, id, decision string, key *ecdsa.PrivateKey) string {
	t.Helper()
	h := run.h
	r := h.do(request{method: "GET", path: "/v1/transfers/" + id, token: run.token(t, sandbox.AuthAccount)})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	raw, err := json.Marshal(attrs(t, r))
	require.NoError(t, err)
	var tr parcel.Transfer
	require.NoError(t, json.Unmarshal(raw, &tr))
	m := parcel.TransferConsentOf(&tr, decision)
	require.NotNil(t, m, "transfer %s has no TransferConsent to sign", id)
	digest := m.Digest(h.srv.cfg.ChainID)

	served := h.do(request{method: "GET", path: ownerConsentPath(id)})
	require.Equal(t, http.StatusOK, served.status, string(served.body))
	raw, err = json.Marshal(attrs(t, served)["typedData"])
	require.NoError(t, err)
	var td apitypes.TypedData
	require.NoError(t, json.Unmarshal(raw, &td))
	require.NotContains(t, td.Message, "decision", "served without its decision")
	td.Message["decision"] = decision
	wallet, _, err := apitypes.TypedDataAndHash(td)
	require.NoError(t, err)
	require.Equal(t, digest[:], wallet, "the served typed data is the TransferConsent")

	sig, err := ethsig.Sign(key, digest)
	require.NoError(t, err)
	return hexutil.Encode(sig)
}

// errorMeta returns the meta of the first error object.
func errorMeta(t *testing.T, r response) map[string]any {
	t.Helper()
	meta, _ := r.json(t)["errors"].([]any)[0].(map[string]any)["meta"].(map[string]any)
	return meta
}

// myParcels lists GET /v1/me/parcels as the seeded holder.
func (run *scenarioRun) myParcels(t *testing.T) []any {
	t.Helper()
	r := run.h.do(request{method: "GET", path: "/v1/me/parcels", token: run.token(t, sandbox.AuthHolder)})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	return dataList(t, r)
}

// ownerScenarioRunner runs the owners.* scenarios (SPEC S13) on the seeded
// wallet-owned parcel, with the seeded holder's key as the owner's wallet.
func ownerScenarioRunner(id string) func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
	return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
		h := run.h
		wp := run.seeded.WalletOwnedParcel
		require.NotEmpty(t, wp.ID, "the sandbox seeds a wallet-owned parcel")
		require.Equal(t, strings.ToLower(run.seeded.Holder.WalletAddress), wp.OwnerWallet)
		account := run.token(t, sandbox.AuthAccount)
		parcelOf := func() map[string]any {
			r := h.do(request{method: "GET", path: "/v1/parcels/" + wp.ID, token: account})
			require.Equal(t, http.StatusOK, r.status, string(r.body))
			return attrs(t, r)
		}
		transferOf := func(id string) map[string]any {
			r := h.do(request{method: "GET", path: "/v1/transfers/" + id, token: account})
			require.Equal(t, http.StatusOK, r.status, string(r.body))
			return attrs(t, r)
		}
		// The owner's decision scenarios: the transfer their prerequisites request, and
		// the signature they describe.
		decide := func(key *ecdsa.PrivateKey) (response, string) {
			run.requestOwnerTransfer(t, namedNotary(t, sc))
			trID := run.pathIDs[sandbox.PathTransferID]
			decision := sc.Request.Body.(map[string]any)["decision"].(string)
			sig := run.signOwnerConsent(t, trID, decision, key)
			r := run.send(t, sc, nil, func(member, _ string) (any, bool) { return sig, member == "ownerSignature" })
			return r, trID
		}
		switch id {
		case "owners.my_parcels":
			r := run.send(t, sc, nil)
			list := dataList(t, r)
			require.Len(t, list, 1)
			item := list[0].(map[string]any)
			require.Equal(t, wp.ID, item["id"])
			a := item["attributes"].(map[string]any)
			requireStatusWord(t, sc, a["status"])
			owner := a["owner"].(map[string]any)
			require.Equal(t, wp.OwnerWallet, owner["walletAddress"])
			require.Equal(t, wp.Binding, owner["binding"])
			require.Equal(t, run.seeded.Holder.DID, owner["did"])
			require.Contains(t, sc.Expected.Outcome, "owner binding "+owner["binding"].(string))
			require.NotContains(t, string(r.body), "Sandbox Owner", "no owner name")
			// An open transfer waiting for the owner shows, with the owner's page.
			tr := run.requestOwnerTransfer(t, sandbox.NotarySilent)
			item = run.myParcels(t)[0].(map[string]any)
			open := item["attributes"].(map[string]any)["openTransfer"].(map[string]any)
			require.Equal(t, tr["id"], open["id"])
			require.Equal(t, "PENDING_OWNER", open["status"])
			require.Equal(t, h.srv.ownerConsentURL(tr["id"].(string)), item["links"].(map[string]any)["ownerConsent"])
		case "owners.transfer_requested", "owners.deadline":
			now := h.clock.Now()
			r := run.send(t, sc, nil)
			tr := attrs(t, r)
			requireStatusWord(t, sc, tr["status"])
			oc := tr["ownerConsent"].(map[string]any)
			require.Equal(t, "OWNER_SIGNATURE", oc["method"])
			require.Equal(t, "http://veriland.test/v1/transfers/"+tr["id"].(string)+"/owner-consent", oc["url"])
			require.Equal(t, wp.OwnerWallet, oc["ownerWallet"])
			td := oc["typedData"].(map[string]any)
			require.Equal(t, parcel.TransferPrimaryType, td["primaryType"])
			require.NotContains(t, td["message"], "decision")
			deadline := jsonTime(t, oc["deadline"])
			served := attrs(t, h.do(request{method: "GET", path: ownerConsentPath(tr["id"].(string))}))
			require.Equal(t, "PENDING_OWNER", served["status"])
			require.Equal(t, wp.OwnerWallet, served["ownerWallet"])
			if id == "owners.transfer_requested" {
				require.Contains(t, sc.Expected.Outcome, "deadline 7 days later")
				require.WithinDuration(t, now.Add(7*24*time.Hour), deadline, time.Second)
				return
			}
			require.Contains(t, sc.Expected.Outcome, "deadline 60 s later")
			require.WithinDuration(t, now.Add(60*time.Second), deadline, time.Second)
			trID := tr["id"].(string)
			sig := run.signOwnerConsent(t, trID, "APPROVED", run.holderKey)
			// The deadline passes; the sweeper, not a read, expires the transfer.
			h.clock.Advance(61 * time.Second)
			h.srv.sweep(t.Context())
			admin := run.token(t, sandbox.AuthAdmin)
			entries := dataList(t, h.do(request{method: "GET", path: "/v1/audit?action=transfer.expired", token: admin}))
			require.Len(t, entries, 1, "the sweeper recorded transfer.expired")
			require.Equal(t, trID, entries[0].(map[string]any)["attributes"].(map[string]any)["resourceId"])
			got := transferOf(trID)
			require.Equal(t, "EXPIRED", got["status"])
			require.Equal(t, deadline, jsonTime(t, got["decidedAt"]), "decidedAt is the deadline")
			require.Empty(t, parcelOf()["openTransferId"])
			// A signature that comes later is refused.
			late := h.do(request{method: "POST", path: ownerConsentPath(trID), body: map[string]any{
				"decision": "APPROVED", "ownerSignature": sig, "ownerAddress": wp.OwnerWallet}})
			require.Equal(t, http.StatusConflict, late.status, string(late.body))
			require.Contains(t, sc.Expected.Outcome, "409 "+late.errorCode(t))
			// The webhook: a wallet-owned parcel made with a callbackUrl (the sandbox
			// receiver's /fail, so that nothing leaves the process) gets transfer.expired.
			hooked := run.walletOwnedParcelWithCallback(t)
			body := sc.Request.Body.(map[string]any)
			r = h.do(request{method: "POST", path: "/v1/parcels/" + hooked + "/transfer", token: run.token(t, sandbox.AuthVerifier), body: body})
			require.Equal(t, http.StatusAccepted, r.status, string(r.body))
			hookedTr := attrs(t, r)["id"].(string)
			h.clock.Advance(61 * time.Second)
			h.srv.sweep(t.Context())
			require.Equal(t, "EXPIRED", transferOf(hookedTr)["status"])
			found := false
			for _, item := range dataList(t, h.do(request{method: "GET", path: "/v1/webhooks/deliveries?limit=100", token: run.token(t, sandbox.AuthVerifier)})) {
				a := item.(map[string]any)["attributes"].(map[string]any)
				data := a["payload"].(map[string]any)["data"].(map[string]any)
				if a["eventType"] == "transfer.expired" && data["transferId"] == hookedTr {
					found = true
					require.Equal(t, "EXPIRED", data["status"])
				}
			}
			require.True(t, found, "a transfer.expired delivery for %s", hookedTr)
			require.Contains(t, sc.Expected.Outcome, "webhook transfer.expired")
		case "owners.approve":
			r, trID := decide(run.holderKey)
			tr := attrs(t, r)
			requireStatusWord(t, sc, tr["status"])
			oc := tr["ownerConsent"].(map[string]any)
			require.Equal(t, "APPROVED", oc["decision"])
			require.Equal(t, wp.OwnerWallet, oc["signer"])
			require.NotEmpty(t, oc["signature"])
			require.EqualValues(t, 2, tr["toVersion"])
			prc := parcelOf()
			require.Contains(t, sc.Expected.Outcome, fmt.Sprintf("version %v", prc["version"]))
			require.NotEqual(t, wp.OwnerWallet, prc["owner"].(map[string]any)["walletAddress"])
			require.Empty(t, run.myParcels(t), "the parcel left the old owner's list")
			require.Equal(t, "COMPLETED", transferOf(trID)["status"])
		case "owners.approve_notary_waits":
			r, trID := decide(run.holderKey)
			tr := attrs(t, r)
			requireStatusWord(t, sc, tr["status"])
			require.Equal(t, "APPROVED", tr["ownerConsent"].(map[string]any)["decision"])
			// The named notary decides next, as the outcome says.
			require.Contains(t, sc.Expected.Outcome, sandbox.NotarySilent)
			ok := h.do(request{method: "POST", path: "/v1/transfers/" + trID + "/approve", token: run.token(t, sandbox.AuthNotary)})
			require.Equal(t, http.StatusOK, ok.status, string(ok.body))
			require.Equal(t, "COMPLETED", attrs(t, ok)["status"])
		case "owners.reject":
			r, trID := decide(run.holderKey)
			tr := attrs(t, r)
			requireStatusWord(t, sc, tr["status"])
			require.Equal(t, "OWNER", tr["rejectedBy"])
			require.Contains(t, sc.Expected.Outcome, "rejectedBy "+tr["rejectedBy"].(string))
			require.Equal(t, "REJECTED", tr["ownerConsent"].(map[string]any)["decision"])
			require.Equal(t, "REJECTED", transferOf(trID)["status"])
			// The parcel stays the owner's and is free for another transfer.
			prc := parcelOf()
			require.Empty(t, prc["openTransferId"])
			require.EqualValues(t, 1, prc["version"])
			require.Len(t, run.myParcels(t), 1)
			run.requestOwnerTransfer(t, sandbox.NotarySilent)
		case "owners.wrong_signer":
			other, err := crypto.GenerateKey()
			require.NoError(t, err)
			r, trID := decide(other)
			require.Equal(t, []string{"/ownerSignature"}, errorPointers(t, r))
			require.Equal(t, "PENDING_OWNER", transferOf(trID)["status"])
			require.Contains(t, sc.Expected.Outcome, "stays PENDING_OWNER")
		case "owners.approve_before_owner":
			run.requestOwnerTransfer(t, namedNotary(t, sc))
			r := run.send(t, sc, nil)
			require.Equal(t, "PENDING_OWNER", errorMeta(t, r)["status"])
			require.Contains(t, sc.Expected.Outcome, "meta.status PENDING_OWNER")
			require.Equal(t, "PENDING_OWNER", transferOf(run.pathIDs[sandbox.PathTransferID])["status"])
		default:
			t.Fatalf("no run for %s", id)
		}
	}
}

// walletOwnedParcel makes, as the account's verifier, a parcel whose owner's wallet
// is the seeded holder's, certified at once by NOT-SBX-1, with a callbackUrl that the
// sandbox test receiver answers (so that its webhooks are queued and never leave).
func (run *scenarioRun) walletOwnedParcelWithCallback(t *testing.T) string {
	t.Helper()
	r := run.h.do(request{method: "POST", path: "/v1/parcels", token: run.token(t, sandbox.AuthVerifier), body: map[string]any{
		"owner":       map[string]any{"fullName": "Sandbox Owner", "id_doc": "SBX-ID-0001", "walletAddress": run.seeded.Holder.WalletAddress},
		"parcel":      map[string]any{"gps": []float64{6.4584, 7.5464}, "area_m2": 900, "city": "Enugu"},
		"notary":      sandbox.NotaryCertifies,
		"callbackUrl": "https://hooks.example.com/veriland" + webhook.SandboxFailPath,
	}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	a := attrs(t, r)
	require.Equal(t, "CERTIFIED", a["status"])
	require.Equal(t, "IDENTITY_VERIFIED", a["owner"].(map[string]any)["binding"])
	return a["id"].(string)
}

// separationScenarioRunner runs the separation-of-duties refusals: each must be 403
// with meta.reason separation_of_duties and change nothing.
func separationScenarioRunner(id string) func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
	return func(t *testing.T, run *scenarioRun, sc sandbox.Scenario) {
		h := run.h
		admin := run.token(t, sandbox.AuthAdmin)
		var check func() // what must not have changed
		switch id {
		case "parcels.notary_requests_transfer":
			wp := run.seeded.WalletOwnedParcel.ID
			require.Contains(t, sc.Request.Path, wp)
			check = func() {
				prc := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + wp, token: admin}))
				require.Empty(t, prc["openTransferId"], "no transfer is opened")
			}
		case "parcels.requester_approves":
			// As the prerequisites say: the same admin key requests a transfer of the
			// seeded certified parcel, naming NOT-SBX-3.
			certified := run.seeded.Parcels.Certified
			require.Contains(t, sc.Prerequisites, certified)
			require.Contains(t, sc.Prerequisites, sandbox.NotarySilent)
			r := h.do(request{method: "POST", path: "/v1/parcels/" + certified + "/transfer", token: admin, body: map[string]any{
				"newOwner": map[string]any{"fullName": "Sandbox Buyer", "id_doc": "SBX-ID-0007"}, "notary": sandbox.NotarySilent}})
			require.Equal(t, http.StatusAccepted, r.status, string(r.body))
			tr := attrs(t, r)
			require.Equal(t, "PENDING_NOTARY", tr["status"])
			require.Equal(t, "NOTARY_WITNESSED", tr["ownerConsent"].(map[string]any)["method"])
			run.pathIDs[sandbox.PathTransferID] = tr["id"].(string)
			check = func() {
				got := attrs(t, h.do(request{method: "GET", path: "/v1/transfers/" + tr["id"].(string), token: admin}))
				require.Equal(t, "PENDING_NOTARY", got["status"])
				require.Contains(t, sc.Expected.Outcome, "stays PENDING_NOTARY")
			}
		case "parcels.creator_certifies":
			// As in parcels.pending, with the same admin key.
			pending := run.listed(t, "parcels.pending")
			require.Contains(t, sc.Prerequisites, "parcels.pending")
			r := h.do(request{method: pending.Request.Method, path: pending.Request.Path, token: admin, body: pending.Request.Body})
			require.Equal(t, http.StatusCreated, r.status, string(r.body))
			prc := attrs(t, r)
			require.Equal(t, "PENDING_NOTARY", prc["status"])
			run.pathIDs[sandbox.PathParcelID] = prc["id"].(string)
			check = func() {
				got := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + prc["id"].(string), token: admin}))
				require.Equal(t, "PENDING_NOTARY", got["status"])
				require.Contains(t, sc.Expected.Outcome, "stays PENDING_NOTARY")
			}
		default:
			t.Fatalf("no run for %s", id)
		}
		r := run.send(t, sc, nil)
		reason := errorMeta(t, r)["reason"]
		require.Equal(t, "separation_of_duties", reason)
		require.Contains(t, sc.Expected.Outcome, "meta.reason "+reason.(string))
		check()
	}
}
