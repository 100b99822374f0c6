package httpserver

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage/bolt"
)

// This file is the end-to-end proof of SPEC S8 (webhooks) through the real server:
// signed callbacks, the retry schedule on a fake clock, restarts, manual replay,
// visibility, secret rotation, every verification event, the sandbox /fail receiver
// (S10), and the inbound provider route.

// ---- helpers ----------------------------------------------------------------------

// attrs returns data.attributes of a JSON:API resource document.
func attrs(t testing.TB, r response) map[string]any {
	t.Helper()
	data, ok := r.json(t)["data"].(map[string]any)
	require.True(t, ok, string(r.body))
	return data["attributes"].(map[string]any)
}

// delivery reads GET /v1/webhooks/deliveries/{id} as tok and returns its attributes.
func (h *harness) delivery(t testing.TB, tok, id string) map[string]any {
	t.Helper()
	r := h.do(request{method: "GET", path: "/v1/webhooks/deliveries/" + id, token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	return attrs(t, r)
}

// deliveryIDs lists the deliveries tok sees (newest first), optionally by status.
func (h *harness) deliveryIDs(t testing.TB, tok, status string) []string {
	t.Helper()
	path := "/v1/webhooks/deliveries?limit=100"
	if status != "" {
		path += "&status=" + status
	}
	r := h.do(request{method: "GET", path: path, token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	var ids []string
	for _, item := range r.json(t)["data"].([]any) {
		ids = append(ids, item.(map[string]any)["id"].(string))
	}
	return ids
}

// deliveryForRequest finds, among the deliveries tok sees, the one whose payload is
// about verification request requestID and has the given event type.
func (h *harness) deliveryForRequest(t testing.TB, tok, requestID, eventType string) map[string]any {
	t.Helper()
	r := h.do(request{method: "GET", path: "/v1/webhooks/deliveries?limit=100", token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	for _, item := range r.json(t)["data"].([]any) {
		a := item.(map[string]any)["attributes"].(map[string]any)
		data := a["payload"].(map[string]any)["data"].(map[string]any)
		if data["requestId"] == requestID && a["eventType"] == eventType {
			return a
		}
	}
	t.Fatalf("no %s delivery for %s", eventType, requestID)
	return nil
}

// runOutbox runs the outbox once over everything due at the clock's time.
func (h *harness) runOutbox(t testing.TB) int {
	t.Helper()
	n, err := h.srv.cfg.Outbox.RunOnce(t.Context())
	require.NoError(t, err)
	return n
}

// advanceTo moves the clock forward to at (never back).
func (h *harness) advanceTo(at time.Time) {
	if d := at.Sub(h.clock.Now()); d > 0 {
		h.clock.Advance(d)
	}
}

func jsonTime(t testing.TB, v any) time.Time {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "%v is not a timestamp", v)
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return at
}

func (rc *receiver) setFail(n int) {
	rc.mu.Lock()
	rc.fail = n
	rc.mu.Unlock()
}

// payloadOf decodes a received callback body.
func payloadOf(t testing.TB, hk receivedHook) (typ string, data map[string]any) {
	t.Helper()
	var p struct {
		Type      string         `json:"type"`
		Timestamp string         `json:"timestamp"`
		Data      map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(hk.body, &p), string(hk.body))
	_, err := time.Parse(time.RFC3339, p.Timestamp)
	require.NoError(t, err, "payload timestamp %q", p.Timestamp)
	return p.Type, p.Data
}

// approve creates a verification request of f's verifier and has the holder approve it;
// it returns the request and attestation ids.
func (f *consentFlow) approve(t *testing.T, extra map[string]any) (string, string) {
	t.Helper()
	id := f.request(t, extra)
	r := f.decide(t, id, f.wallet, crypto.PubkeyToAddress(f.wallet.PublicKey), "APPROVED", []string{"is_adult", "nationality"})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	return id, r.json(t)["attestation"].(map[string]any)["id"].(string)
}

// serverKeys are what a server needs to come back after a restart as the same server.
type serverKeys struct {
	clock     *testClock
	tokens    *auth.Tokens
	issuerKey *ecdsa.PrivateKey
	kycSecret webhook.Secret
}

func newServerKeys(t testing.TB) serverKeys {
	t.Helper()
	clock := &testClock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	issuerKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	kycSecret, err := webhook.NewSecret(rand.Reader)
	require.NoError(t, err)
	return serverKeys{
		clock: clock,
		tokens: &auth.Tokens{
			Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)},
			Now:     clock.Now, Rand: rand.Reader,
		},
		issuerKey: issuerKey, kycSecret: kycSecret,
	}
}

// openServerAt builds a complete server (WithDefaultServices + New) over the bbolt file
// at path, on its own httptest listener, as the reference server does at start-up. The
// returned stop closes the listener and the store, as a process exit would; it runs at
// cleanup too if the test did not call it.
func openServerAt(t *testing.T, path string, k serverKeys) (*harness, func()) {
	t.Helper()
	store, err := bolt.Open(path, bolt.Options{})
	require.NoError(t, err)
	cfg, err := WithDefaultServices(Config{Store: store, Tokens: k.tokens, Now: k.clock.Now, PublicOrigin: "http://veriland.test"}, Keys{
		Pepper: bytes.Repeat([]byte("k"), 32), IssuerKey: k.issuerKey,
		WebhookProviders: webhook.Providers{
			"kyc": {Secrets: []webhook.Secret{k.kycSecret}, EventTypes: []string{webhook.EventKYCCompleted}},
		},
	})
	require.NoError(t, err)
	srv, err := New(cfg)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ts.Close()
			require.NoError(t, store.Close())
		})
	}
	t.Cleanup(stop)
	return &harness{t: t, srv: srv, ts: ts, store: store, tokens: k.tokens, clock: k.clock, router: openAPIRouter(t),
		issuerKey: k.issuerKey, kycSecret: k.kycSecret}, stop
}

// ---- 1. a signed callback, retried on the schedule ---------------------------------

func TestWebhookRetriesOnFakeClock(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	f.rc.setFail(3)
	secret := f.webhookSecret(t)

	id, attID := f.approve(t, nil)
	first := h.clock.Now()
	var (
		msgID string
		times []time.Time
	)
	for attempt := 1; attempt <= 4; attempt++ {
		if attempt > 1 {
			d := h.delivery(t, f.verifierTok, msgID)
			require.Equal(t, "PENDING", d["status"])
			next := jsonTime(t, d["nextAttemptAt"])
			// A second before the scheduled time nothing is due.
			h.advanceTo(next.Add(-time.Second))
			require.Zero(t, h.runOutbox(t))
			require.Len(t, f.rc.got(), attempt-1)
			h.advanceTo(next)
		}
		require.Equal(t, 1, h.runOutbox(t), "attempt %d", attempt)
		hooks := f.rc.got()
		require.Len(t, hooks, attempt)
		hk := hooks[attempt-1]
		if attempt == 1 {
			msgID = hk.header.Get(webhook.HeaderID)
			require.True(t, strings.HasPrefix(msgID, "msg_"), msgID)
		}
		// Every attempt carries the same webhook-id and body, a fresh timestamp, and a
		// signature the verifier checks with the secret from GET /v1/webhooks/secret.
		require.Equal(t, msgID, hk.header.Get(webhook.HeaderID))
		require.Equal(t, hooks[0].body, hk.body)
		require.Equal(t, strconv.FormatInt(h.clock.Now().Unix(), 10), hk.header.Get(webhook.HeaderTimestamp))
		require.NoError(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{secret}, h.clock.Now()))
		require.Equal(t, "application/json", hk.header.Get("Content-Type"))
		require.Equal(t, webhook.UserAgent, hk.header.Get("User-Agent"))
		times = append(times, h.clock.Now())
	}

	// Attempts at 0 s, 5 s, 5 min and 30 min after the first, each ±10 %.
	for i, want := range []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute} {
		got := times[i].Sub(first)
		require.InDelta(t, float64(want), float64(got), float64(want)/10, "attempt %d at +%s", i+1, got)
	}

	// The body: a verification.approved about this request, with its attestation.
	hk := f.rc.got()[3]
	typ, data := payloadOf(t, hk)
	require.Equal(t, "verification.approved", typ)
	require.Equal(t, id, data["requestId"])
	require.Equal(t, "APPROVED", data["status"])
	require.Equal(t, attID, data["attestationId"])
	require.Equal(t, attID, data["attestation"].(map[string]any)["id"])
	// A tampered body or another secret does not verify.
	other, err := webhook.NewSecret(rand.Reader)
	require.NoError(t, err)
	require.Error(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{other}, h.clock.Now()))
	require.Error(t, webhook.Verify(hk.header, bytes.Replace(hk.body, []byte("APPROVED"), []byte("REJECTED"), 1), []webhook.Secret{secret}, h.clock.Now()))

	// The delivery shows every attempt.
	d := h.delivery(t, f.verifierTok, msgID)
	require.Equal(t, "SUCCEEDED", d["status"])
	require.Equal(t, "verification.approved", d["eventType"])
	require.Equal(t, f.rc.srv.URL+"/hooks", d["url"])
	require.Equal(t, first, jsonTime(t, d["firstAttemptAt"]))
	require.Equal(t, times[3], jsonTime(t, d["deliveredAt"]))
	require.Nil(t, d["nextAttemptAt"])
	attempts := d["attempts"].([]any)
	require.Len(t, attempts, 4)
	for i, a := range attempts {
		a := a.(map[string]any)
		require.Equal(t, times[i], jsonTime(t, a["at"]))
		if i < 3 {
			require.EqualValues(t, 500, a["statusCode"])
			require.Equal(t, "receiver answered HTTP 500", a["error"])
		} else {
			require.EqualValues(t, 204, a["statusCode"])
			require.Nil(t, a["error"])
		}
	}
	var payload map[string]any
	require.NoError(t, json.Unmarshal(hk.body, &payload))
	require.Equal(t, payload, d["payload"], "the delivery shows the exact payload sent")
	require.Contains(t, h.deliveryIDs(t, f.verifierTok, "SUCCEEDED"), msgID)
	require.NotContains(t, h.deliveryIDs(t, f.verifierTok, "PENDING"), msgID)

	// Nothing more goes out, however long we wait.
	h.clock.Advance(25 * time.Hour)
	require.Zero(t, h.runOutbox(t))
	require.Len(t, f.rc.got(), 4)
}

// ---- 2. restarts -------------------------------------------------------------------

func TestWebhookDeliverySurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "veriland.db")
	k := newServerKeys(t)
	h1, stop1 := openServerAt(t, path, k)
	f := newConsentFlow(t, h1)
	f.rc.setFail(1)
	secret := f.webhookSecret(t)

	id, _ := f.approve(t, nil)
	require.Equal(t, 1, h1.runOutbox(t))
	require.Len(t, f.rc.got(), 1)
	msgID := f.rc.got()[0].header.Get(webhook.HeaderID)
	d := h1.delivery(t, f.verifierTok, msgID)
	require.Equal(t, "PENDING", d["status"])
	next := jsonTime(t, d["nextAttemptAt"])

	// The process stops between two attempts and a new one starts on the same file.
	stop1()
	h2, _ := openServerAt(t, path, k)
	f.h = h2
	d = h2.delivery(t, f.verifierTok, msgID)
	require.Equal(t, "PENDING", d["status"])
	require.Len(t, d["attempts"], 1)
	require.Equal(t, next, jsonTime(t, d["nextAttemptAt"]), "the schedule survived")
	require.Zero(t, h2.runOutbox(t), "not due before its time")

	h2.advanceTo(next)
	require.Equal(t, 1, h2.runOutbox(t))
	hooks := f.rc.got()
	require.Len(t, hooks, 2, "exactly one request per attempt")
	require.Equal(t, msgID, hooks[1].header.Get(webhook.HeaderID))
	require.Equal(t, hooks[0].body, hooks[1].body)
	require.Equal(t, secret, f.webhookSecret(t), "the signing secret survived")
	require.NoError(t, webhook.Verify(hooks[1].header, hooks[1].body, []webhook.Secret{secret}, h2.clock.Now()))
	typ, data := payloadOf(t, hooks[1])
	require.Equal(t, "verification.approved", typ)
	require.Equal(t, id, data["requestId"])

	d = h2.delivery(t, f.verifierTok, msgID)
	require.Equal(t, "SUCCEEDED", d["status"])
	require.Len(t, d["attempts"], 2)
	h2.clock.Advance(25 * time.Hour)
	require.Zero(t, h2.runOutbox(t))
	require.Len(t, f.rc.got(), 2, "no duplicate after success")
}

// TestWebhookDeliveryCrashMidAttempt: the process dies while the receiver is answering,
// so the attempt is never recorded. The new process retries it once the claim's lease
// is over, with the same webhook-id (at-least-once; receivers drop repeats by id).
func TestWebhookDeliveryCrashMidAttempt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "veriland.db")
	k := newServerKeys(t)
	h1, stop1 := openServerAt(t, path, k)
	f := newConsentFlow(t, h1)

	arrived, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	var mu sync.Mutex
	var ids []string
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ids = append(ids, r.Header.Get(webhook.HeaderID))
		mu.Unlock()
		if calls.Add(1) == 1 {
			close(arrived)
			<-release
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(slow.Close)
	f.approve(t, map[string]any{"callbackUrl": slow.URL + "/hooks"})

	errc := make(chan error, 1)
	go func() {
		_, err := h1.srv.cfg.Outbox.RunOnce(t.Context())
		errc <- err
	}()
	<-arrived
	stop1() // the process dies mid-attempt
	close(release)
	require.Error(t, <-errc, "the attempt could not be recorded")

	h2, _ := openServerAt(t, path, k)
	f.h = h2
	require.Zero(t, h2.runOutbox(t), "the dead worker's claim still holds")
	h2.clock.Advance(webhook.ClaimLease)
	require.Equal(t, 1, h2.runOutbox(t))
	require.EqualValues(t, 2, calls.Load())
	mu.Lock()
	require.Equal(t, ids[0], ids[1], "the retry has the same webhook-id")
	mu.Unlock()
	d := h2.delivery(t, f.verifierTok, ids[0])
	require.Equal(t, "SUCCEEDED", d["status"])
	require.Len(t, d["attempts"], 1)
	h2.clock.Advance(25 * time.Hour)
	require.Zero(t, h2.runOutbox(t))
	require.EqualValues(t, 2, calls.Load())
}

// ---- 3. replay and visibility ------------------------------------------------------

func TestWebhookReplayAndVisibility(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	secret := f.webhookSecret(t)
	f.approve(t, nil)
	require.Equal(t, 1, h.runOutbox(t))
	hooks := f.rc.got()
	require.Len(t, hooks, 1)
	msgID := hooks[0].header.Get(webhook.HeaderID)
	path := "/v1/webhooks/deliveries/" + msgID

	// Another verifier of the same account neither sees nor replays it.
	_, otherVerifier := createKey(t, h, f.adminTok, "verifier", "verifier-other")
	for _, r := range []response{
		h.do(request{method: "GET", path: path, token: otherVerifier}),
		h.do(request{method: "POST", path: path + "/replay", token: otherVerifier, body: `{}`}),
	} {
		require.Equal(t, http.StatusNotFound, r.status, string(r.body))
		require.Equal(t, "not_found", r.errorCode(t))
	}
	require.Empty(t, h.deliveryIDs(t, otherVerifier, ""))
	// Neither does an admin of another account's sandbox, nor PRODUCTION.
	otherAcct := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin", func(p *veriland.Principal) { p.Account = "acct_other" })
	prodAdmin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	for _, tok := range []string{otherAcct, prodAdmin} {
		require.Equal(t, http.StatusNotFound, h.do(request{method: "GET", path: path, token: tok}).status)
		require.Equal(t, http.StatusNotFound, h.do(request{method: "POST", path: path + "/replay", token: tok, body: `{}`}).status)
		require.NotContains(t, h.deliveryIDs(t, tok, ""), msgID)
	}
	// Holders and anonymous callers are refused.
	holderTok, _ := h.login(t, f.wallet, veriland.Sandbox)
	require.Equal(t, http.StatusForbidden, h.do(request{method: "GET", path: path, token: holderTok}).status)
	require.Equal(t, http.StatusUnauthorized, h.do(request{method: "GET", path: path}).status)
	// Unknown and malformed ids are 404.
	require.Equal(t, http.StatusNotFound, h.do(request{method: "GET", path: "/v1/webhooks/deliveries/msg_00000000000000000000000000", token: f.verifierTok}).status)
	require.Equal(t, http.StatusNotFound, h.do(request{method: "POST", path: "/v1/webhooks/deliveries/nope/replay", token: f.verifierTok, body: `{}`}).status)

	// The admin of the account sees it, and the verifier lists it.
	require.Equal(t, "SUCCEEDED", h.delivery(t, f.adminTok, msgID)["status"])
	require.Contains(t, h.deliveryIDs(t, f.adminTok, ""), msgID)
	require.Equal(t, []string{msgID}, h.deliveryIDs(t, f.verifierTok, ""))

	// The verifier replays it: 202, the same webhook-id and body go out again.
	h.clock.Advance(time.Minute)
	r := h.do(request{method: "POST", path: path + "/replay", token: f.verifierTok, body: `{}`})
	require.Equal(t, http.StatusAccepted, r.status, string(r.body))
	a := attrs(t, r)
	require.Equal(t, "PENDING", a["status"])
	require.EqualValues(t, 1, a["replays"])
	require.Equal(t, 1, h.runOutbox(t))
	hooks = f.rc.got()
	require.Len(t, hooks, 2)
	require.Equal(t, msgID, hooks[1].header.Get(webhook.HeaderID))
	require.Equal(t, hooks[0].body, hooks[1].body)
	require.NotEqual(t, hooks[0].header.Get(webhook.HeaderTimestamp), hooks[1].header.Get(webhook.HeaderTimestamp))
	require.NoError(t, webhook.Verify(hooks[1].header, hooks[1].body, []webhook.Secret{secret}, h.clock.Now()))
	d := h.delivery(t, f.verifierTok, msgID)
	require.Equal(t, "SUCCEEDED", d["status"])
	require.Len(t, d["attempts"], 2)

	// The admin replays it too; with an Idempotency-Key, a retried replay is one replay.
	idem := map[string]string{"Idempotency-Key": "replay-1"}
	r = h.do(request{method: "POST", path: path + "/replay", token: f.adminTok, body: `{}`, header: idem})
	require.Equal(t, http.StatusAccepted, r.status, string(r.body))
	r = h.do(request{method: "POST", path: path + "/replay", token: f.adminTok, body: `{}`, header: idem})
	require.Equal(t, http.StatusAccepted, r.status, string(r.body))
	require.Equal(t, "true", r.header.Get("Idempotent-Replayed"))
	require.Equal(t, 1, h.runOutbox(t))
	require.Len(t, f.rc.got(), 3)
	require.Equal(t, msgID, f.rc.got()[2].header.Get(webhook.HeaderID))
	d = h.delivery(t, f.adminTok, msgID)
	require.EqualValues(t, 2, d["replays"])
	require.Len(t, d["attempts"], 3)

	// Each replay is in the audit log.
	al := h.do(request{method: "GET", path: "/v1/audit?action=webhook.delivery_replayed", token: f.adminTok})
	require.Equal(t, http.StatusOK, al.status, string(al.body))
	require.Len(t, al.json(t)["data"], 2)
}

// ---- 4. rotation and every verification event -------------------------------------

func TestWebhookRotationAndEvents(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	holder := crypto.PubkeyToAddress(f.wallet.PublicKey)
	old := f.webhookSecret(t)

	r := h.do(request{method: "POST", path: "/v1/webhooks/secret/rotate", token: f.verifierTok, body: `{}`})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	a := attrs(t, r)
	fresh, err := webhook.ParseSecret(a["secret"].(string))
	require.NoError(t, err)
	require.NotEqual(t, old, fresh)
	require.Equal(t, old.String(), a["previousSecret"])
	require.Equal(t, h.clock.Now().Add(webhook.RotationOverlap), jsonTime(t, a["previousValidUntil"]))
	require.Equal(t, fresh, f.webhookSecret(t))

	// checkTwoSignatures: the callback carries a signature by each secret; either one
	// alone verifies it, and each token matches exactly one secret.
	checkTwoSignatures := func(hk receivedHook) {
		t.Helper()
		tokens := strings.Fields(hk.header.Get(webhook.HeaderSignature))
		require.Len(t, tokens, 2, hk.header.Get(webhook.HeaderSignature))
		for _, s := range []webhook.Secret{old, fresh} {
			require.NoError(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{s}, h.clock.Now()))
		}
		for i, s := range []webhook.Secret{fresh, old} { // current first
			one := hk.header.Clone()
			one.Set(webhook.HeaderSignature, tokens[i])
			require.NoError(t, webhook.Verify(one, hk.body, []webhook.Secret{s}, h.clock.Now()))
			require.Error(t, webhook.Verify(one, hk.body, []webhook.Secret{[]webhook.Secret{old, fresh}[i]}, h.clock.Now()))
		}
	}
	expectEvent := func(typ, requestID, status string) receivedHook {
		t.Helper()
		require.Equal(t, 1, h.runOutbox(t))
		hooks := f.rc.got()
		hk := hooks[len(hooks)-1]
		gotType, data := payloadOf(t, hk)
		require.Equal(t, typ, gotType)
		require.Equal(t, requestID, data["requestId"])
		require.Equal(t, status, data["status"])
		d := h.delivery(t, f.verifierTok, hk.header.Get(webhook.HeaderID))
		require.Equal(t, "SUCCEEDED", d["status"])
		require.Equal(t, typ, d["eventType"])
		return hk
	}

	// verification.rejected
	id := f.request(t, nil)
	rej := f.decide(t, id, f.wallet, holder, "REJECTED", []string{})
	require.Equal(t, http.StatusOK, rej.status, string(rej.body))
	hk := expectEvent("verification.rejected", id, "REJECTED")
	checkTwoSignatures(hk)
	_, data := payloadOf(t, hk)
	require.NotContains(t, data, "attestationId")

	// verification.cancelled
	id = f.request(t, nil)
	c := h.do(request{method: "POST", path: "/verify/request/" + id + "/cancel", token: f.verifierTok, body: `{}`})
	require.Equal(t, http.StatusOK, c.status, string(c.body))
	checkTwoSignatures(expectEvent("verification.cancelled", id, "CANCELLED"))

	// verification.expired, queued by the sweeper with nobody reading the request.
	id = f.request(t, map[string]any{"expiresInSeconds": 60})
	h.clock.Advance(61 * time.Second)
	require.Zero(t, h.runOutbox(t), "nothing queued before the sweep")
	h.srv.sweep(t.Context())
	checkTwoSignatures(expectEvent("verification.expired", id, "EXPIRED"))
	require.Equal(t, "EXPIRED", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])

	// verification.approved, still under both secrets.
	id, attID := f.approve(t, nil)
	hk = expectEvent("verification.approved", id, "APPROVED")
	checkTwoSignatures(hk)
	_, data = payloadOf(t, hk)
	require.Equal(t, attID, data["attestationId"])

	// Once the overlap is over only the new secret signs.
	h.clock.Advance(webhook.RotationOverlap + time.Second)
	g := h.do(request{method: "GET", path: "/v1/webhooks/secret", token: f.verifierTok})
	require.Equal(t, http.StatusOK, g.status)
	require.NotContains(t, attrs(t, g), "previousSecret")
	id, _ = f.approve(t, nil)
	hk = expectEvent("verification.approved", id, "APPROVED")
	require.Len(t, strings.Fields(hk.header.Get(webhook.HeaderSignature)), 1)
	require.NoError(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{fresh}, h.clock.Now()))
	require.Error(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{old}, h.clock.Now()))
	require.Len(t, f.rc.got(), 5)
}

// ---- 5. the sandbox /fail receiver -------------------------------------------------

func TestWebhookSandboxFailReceiver(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	id, _ := f.approve(t, map[string]any{"callbackUrl": f.rc.srv.URL + "/hooks/fail"})
	first := h.clock.Now()
	require.Equal(t, 1, h.runOutbox(t))
	require.Empty(t, f.rc.got(), "no network call")
	d := h.deliveryForRequest(t, f.verifierTok, id, "verification.approved")
	msgID := d["id"].(string)
	require.Equal(t, "PENDING", d["status"])
	att := d["attempts"].([]any)[0].(map[string]any)
	require.EqualValues(t, 500, att["statusCode"])
	require.Equal(t, webhook.SandboxFailError, att["error"])

	// It keeps failing on the whole schedule and is FAILED once 24 hours have passed.
	for range 10 {
		if d["status"] != "PENDING" {
			break
		}
		h.advanceTo(jsonTime(t, d["nextAttemptAt"]))
		require.Equal(t, 1, h.runOutbox(t))
		d = h.delivery(t, f.verifierTok, msgID)
	}
	require.Equal(t, "FAILED", d["status"])
	require.Equal(t, first.Add(webhook.DeliveryWindow), h.clock.Now())
	attempts := d["attempts"].([]any)
	require.Len(t, attempts, 7, "0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h")
	for _, a := range attempts {
		require.EqualValues(t, 500, a.(map[string]any)["statusCode"])
	}
	require.Empty(t, f.rc.got())
	require.Contains(t, h.deliveryIDs(t, f.verifierTok, "FAILED"), msgID)

	// The failure is a WARNING in the audit log.
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	al := h.do(request{method: "GET", path: "/v1/audit?severity=WARNING&action=webhook.delivery_failed", token: admin})
	require.Equal(t, http.StatusOK, al.status, string(al.body))
	entries := al.json(t)["data"].([]any)
	require.Len(t, entries, 1)
	e := entries[0].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, msgID, e["resourceId"])
	require.Equal(t, "FAILURE", e["outcome"])
}

// ---- 6. inbound provider events ---------------------------------------------------

// signInbound returns the Standard Webhooks headers of body signed with secret at ts.
func signInbound(secret webhook.Secret, msgID string, ts time.Time, body []byte) map[string]string {
	hdr := http.Header{}
	webhook.SetHeaders(hdr, []webhook.Secret{secret}, msgID, ts, body)
	return map[string]string{
		webhook.HeaderID: hdr.Get(webhook.HeaderID), webhook.HeaderTimestamp: hdr.Get(webhook.HeaderTimestamp),
		webhook.HeaderSignature: hdr.Get(webhook.HeaderSignature),
	}
}

func kycCompletedBody(t testing.TB, now time.Time, data map[string]any) []byte {
	t.Helper()
	body, err := json.Marshal(map[string]any{"type": "kyc.completed", "timestamp": now.Format(time.RFC3339), "data": data})
	require.NoError(t, err)
	return body
}

func TestInboundWebhook(t *testing.T) {
	h := newHarness(t)
	wallet, _ := crypto.GenerateKey()
	issued := h.issueIdentity(t, "kyc-late", wallet, "timeout")
	require.Equal(t, "PENDING_KYC", issued["status"])
	did := issued["did"].(string)
	status := func() string {
		r := h.do(request{method: "GET", path: "/identity/" + did + "/status"})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		return r.json(t)["status"].(string)
	}
	require.Equal(t, "PENDING_KYC", status())
	post := func(provider string, body []byte, hdr map[string]string) response {
		return h.do(request{method: "POST", path: "/v1/webhooks/" + provider, body: body, header: hdr})
	}
	now := h.clock.Now()
	body := kycCompletedBody(t, now, map[string]any{"env": "SANDBOX", "did": did, "outcome": "APPROVED", "claims": map[string]any{"is_adult": true}})

	// A signed kyc.completed finishes the identity.
	r := post("kyc", body, signInbound(h.kycSecret, "evt_1", now, body))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, "evt_1", r.json(t)["data"].(map[string]any)["id"])
	require.Equal(t, map[string]any{"provider": "kyc", "type": "kyc.completed", "duplicate": false, "processed": true}, attrs(t, r))
	require.Equal(t, "ACTIVE", status())
	ev, err := h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, "kyc", "evt_1")
	require.NoError(t, err)
	require.Equal(t, body, ev.Body, "stored as received")
	require.False(t, ev.ProcessedAt.IsZero())

	// The same webhook-id again (even with another, validly signed body): 200, duplicate,
	// not processed a second time.
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	completions := func() int {
		al := h.do(request{method: "GET", path: "/v1/audit?action=identity.kyc_completed", token: admin})
		require.Equal(t, http.StatusOK, al.status, string(al.body))
		n := 0
		for _, e := range al.json(t)["data"].([]any) {
			if e.(map[string]any)["attributes"].(map[string]any)["resourceId"] == did {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, completions())
	for _, b := range [][]byte{body, kycCompletedBody(t, now, map[string]any{"env": "SANDBOX", "did": did, "outcome": "REJECTED"})} {
		r = post("kyc", b, signInbound(h.kycSecret, "evt_1", now, b))
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		require.Equal(t, map[string]any{"provider": "kyc", "type": "kyc.completed", "duplicate": true, "processed": false}, attrs(t, r))
	}
	require.Equal(t, 1, completions())
	require.Equal(t, "ACTIVE", status())
	ev2, err := h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, "kyc", "evt_1")
	require.NoError(t, err)
	require.Equal(t, ev, ev2, "the first event is kept")

	// An event stored by a process that died before dispatching it (so the provider got
	// no answer) is processed when the provider retries it: stored is not lost.
	wallet2, _ := crypto.GenerateKey()
	did2 := h.issueIdentity(t, "kyc-crashed", wallet2, "timeout")["did"].(string)
	crashed := kycCompletedBody(t, now, map[string]any{"env": "SANDBOX", "did": did2, "outcome": "APPROVED"})
	dup, err := h.srv.cfg.Inbox.Accept(t.Context(), veriland.Sandbox, "kyc", "evt_crashed", "kyc.completed", crashed)
	require.NoError(t, err)
	require.False(t, dup)
	r = post("kyc", crashed, signInbound(h.kycSecret, "evt_crashed", now, crashed))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, map[string]any{"provider": "kyc", "type": "kyc.completed", "duplicate": true, "processed": true}, attrs(t, r))
	st := h.do(request{method: "GET", path: "/identity/" + did2 + "/status"})
	require.Equal(t, "ACTIVE", st.json(t)["status"])
	r = post("kyc", crashed, signInbound(h.kycSecret, "evt_crashed", now, crashed))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, false, attrs(t, r)["processed"], "and then never again")

	// Unknown provider: 404, signed or not.
	for _, p := range []string{"anchor", "nobody"} {
		r = post(p, body, signInbound(h.kycSecret, "evt_2", now, body))
		require.Equal(t, http.StatusNotFound, r.status, string(r.body))
		require.Equal(t, "not_found", r.errorCode(t))
	}

	// Refused signatures: 401 invalid_webhook_signature.
	other, err := webhook.NewSecret(rand.Reader)
	require.NoError(t, err)
	unsigned := signInbound(h.kycSecret, "evt_3", now, body)
	delete(unsigned, webhook.HeaderSignature)
	tampered := signInbound(h.kycSecret, "evt_3", now, body)
	refusals := map[string]struct {
		body []byte
		hdr  map[string]string
	}{
		"wrong secret":        {body, signInbound(other, "evt_3", now, body)},
		"missing signature":   {body, unsigned},
		"no headers":          {body, nil},
		"tampered body":       {bytes.Replace(body, []byte("APPROVED"), []byte("REJECTED"), 1), tampered},
		"stale timestamp":     {body, signInbound(h.kycSecret, "evt_3", now.Add(-5*time.Minute-time.Second), body)},
		"future timestamp":    {body, signInbound(h.kycSecret, "evt_3", now.Add(5*time.Minute+time.Second), body)},
		"signature of old id": {body, map[string]string{webhook.HeaderID: "evt_4", webhook.HeaderTimestamp: unsigned[webhook.HeaderTimestamp], webhook.HeaderSignature: tampered[webhook.HeaderSignature]}},
	}
	for name, c := range refusals {
		r = post("kyc", c.body, c.hdr)
		require.Equal(t, http.StatusUnauthorized, r.status, "%s: %s", name, r.body)
		require.Equal(t, "invalid_webhook_signature", r.errorCode(t), name)
	}
	// Within the tolerance, either way, is fine.
	for i, skew := range []time.Duration{-4 * time.Minute, 4 * time.Minute} {
		id := fmt.Sprintf("evt_skew_%d", i)
		b := kycCompletedBody(t, now, map[string]any{"env": "SANDBOX", "did": did, "outcome": "APPROVED"})
		r = post("kyc", b, signInbound(h.kycSecret, id, now.Add(skew), b))
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		require.Equal(t, false, attrs(t, r)["processed"], "the identity is ACTIVE already")
	}

	// An event type the provider does not send: 400, and nothing stored.
	bad := []byte(`{"type":"anchor.confirmed","timestamp":"2026-11-21T12:00:00Z","data":{"env":"SANDBOX"}}`)
	r = post("kyc", bad, signInbound(h.kycSecret, "evt_5", now, bad))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
	require.Equal(t, "validation_failed", r.errorCode(t))
	_, err = h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, "kyc", "evt_5")
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
	// Signed but not JSON: 400.
	junk := []byte(`{"type":`)
	r = post("kyc", junk, signInbound(h.kycSecret, "evt_6", now, junk))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.body))

	// The 401s are in the PRODUCTION audit log (the environment of an unverified event
	// is unknown), coalesced into one WARNING entry with their count.
	require.NoError(t, h.srv.coalescer.FlushAll(t.Context(), h.store))
	prodAdmin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	al := h.do(request{method: "GET", path: "/v1/audit?severity=WARNING&action=webhook.inbound_signature_refused", token: prodAdmin})
	require.Equal(t, http.StatusOK, al.status, string(al.body))
	entries := al.json(t)["data"].([]any)
	require.Len(t, entries, 1, string(al.body))
	e := entries[0].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, "FAILURE", e["outcome"])
	require.Equal(t, "kyc", e["resourceId"])
	require.EqualValues(t, len(refusals), e["detail"].(map[string]any)["count"])
	require.NotContains(t, string(al.body), h.kycSecret.String())
	require.NotContains(t, string(al.body), "127.0.0.1", "no client IP in the log")
}

// ---- 8. throughput -----------------------------------------------------------------

// BenchmarkWebhookDelivery measures outbox throughput end to end: b.N consents are
// approved through the server before the timer (each queues a verification.approved),
// then the outbox's RunOnce drains them to a local httptest receiver: claim, sign, POST,
// and record each attempt in bbolt (with fsync). Reports deliveries/s.
func BenchmarkWebhookDelivery(b *testing.B) {
	for _, workers := range []int{webhook.DefaultWorkers, 16} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			h := newHarness(b, func(c *Config) { c.RateLimits.Disabled = true })
			h.skipSpecChecks = true
			h.srv.cfg.Outbox.Workers = workers
			var got atomic.Int64
			rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				got.Add(1)
				w.WriteHeader(http.StatusNoContent)
			}))
			b.Cleanup(rc.Close)
			admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
			_, verifierTok := createKey(b, h, admin, "verifier", "verifier-bench")
			wallet, _ := crypto.GenerateKey()
			holder := crypto.PubkeyToAddress(wallet.PublicKey).Hex()
			did := h.issueIdentity(b, "bench-subject", wallet, "success")["did"].(string)

			// Approve b.N consents, 16 at a time.
			var wg sync.WaitGroup
			work := make(chan struct{}, b.N)
			for range b.N {
				work <- struct{}{}
			}
			close(work)
			for range 16 {
				wg.Go(func() {
					for range work {
						r := h.do(request{method: "POST", path: "/verify/request", token: verifierTok, body: map[string]any{
							"subjectRef": did, "scope": []string{"is_adult"}, "reason": "bench", "callbackUrl": rc.URL + "/hooks"}})
						if r.status != http.StatusCreated {
							b.Errorf("create: %d %s", r.status, r.body)
							return
						}
						id := r.json(b)["requestId"].(string)
						ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(b)
						ok := h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{"holderAddress": holder, "decision": "APPROVED",
							"disclosedScope": []string{"is_adult"}, "holderSignature": signConsent(b, ctx, wallet, "APPROVED", []string{"is_adult"})}})
						if ok.status != http.StatusCreated {
							b.Errorf("approve: %d %s", ok.status, ok.body)
							return
						}
					}
				})
			}
			wg.Wait()
			if b.Failed() {
				return
			}
			b.ReportAllocs()
			b.ResetTimer()
			n, err := h.srv.cfg.Outbox.RunOnce(b.Context())
			b.StopTimer()
			require.NoError(b, err)
			require.Equal(b, b.N, n)
			require.EqualValues(b, b.N, got.Load())
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deliveries/s")
		})
	}
}

// rawSign is the Standard Webhooks v1 signature of arbitrary header strings, for
// requests whose webhook-id or timestamp webhook.Sign would not produce.
func rawSign(secret webhook.Secret, msgID, ts string, body []byte) string {
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret.String(), webhook.SecretPrefix))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msgID + "." + ts + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
