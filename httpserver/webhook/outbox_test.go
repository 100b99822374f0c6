package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

func TestEnqueueRolledBackQueuesNothing(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	var id string
	err := f.store.Update(t.Context(), func(tx storage.Tx) error {
		d, err := f.ob.Enqueue(t.Context(), tx, veriland.Sandbox, approved(rcv.URL+"/cb"))
		require.NoError(t, err)
		id = d.ID
		return errRollback // the consent decision failed after the enqueue
	})
	require.ErrorIs(t, err, errRollback)

	n, err := f.ob.Pending(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = f.ob.Get(t.Context(), veriland.Sandbox, id)
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
	list, _, err := f.ob.List(t.Context(), veriland.Sandbox, webhook.Filter{})
	require.NoError(t, err)
	require.Empty(t, list)
	require.Zero(t, f.runOnce())
	require.Zero(t, rcv.hits.Load())
}

func TestEnqueueWithoutCallbackURL(t *testing.T) {
	f := newFixture(t)
	ev := approved("")
	d := f.enqueue(veriland.Sandbox, ev)
	require.Equal(t, webhook.Delivery{}, d)
	n, err := f.ob.Pending(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestEnqueueRefusesBadInput(t *testing.T) {
	f := newFixture(t)
	for name, tc := range map[string]struct {
		env veriland.Environment
		ev  webhook.Event
	}{
		"env":      {"STAGING", approved("https://example.com/cb")},
		"verifier": {veriland.Sandbox, webhook.Event{Type: "verification.approved", CallbackURL: "https://example.com/cb"}},
		"type":     {veriland.Sandbox, webhook.Event{Verifier: "v", CallbackURL: "https://example.com/cb"}},
		"data":     {veriland.Sandbox, webhook.Event{Type: "t", Verifier: "v", CallbackURL: "https://example.com/cb", Data: []int{1}}},
	} {
		t.Run(name, func(t *testing.T) {
			err := f.store.Update(t.Context(), func(tx storage.Tx) error {
				_, err := f.ob.Enqueue(t.Context(), tx, tc.env, tc.ev)
				return err
			})
			require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
			// Prepare refuses it the same way, before any transaction.
			p, perr := f.ob.Prepare(t.Context(), tc.env, tc.ev)
			require.Nil(t, p)
			require.Equal(t, err.Error(), perr.Error())
		})
	}
}

func TestDeliveryIsSignedWithTheVerifiersSecret(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	require.True(t, len(d.ID) > 4 && d.ID[:4] == "msg_", d.ID)
	require.Equal(t, webhook.StatusPending, d.Status)
	require.Equal(t, t0, d.NextAttemptAt)

	require.Equal(t, 1, f.runOnce())
	reqs := rcv.requests()
	require.Len(t, reqs, 1)
	got := reqs[0]

	// The receiver verifies with the secret the verifier fetched from the API.
	secrets, err := f.secrets().Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.NoError(t, webhook.Verify(got.header, got.body, []webhook.Secret{secrets.Current}, f.clock.Now()))
	// Another verifier's secret does not verify it.
	other, err := f.secrets().Secrets(t.Context(), veriland.Sandbox, "verifier-2")
	require.NoError(t, err)
	require.ErrorIs(t, webhook.Verify(got.header, got.body, []webhook.Secret{other.Current}, f.clock.Now()), webhook.ErrNoMatchingSignature)

	require.Equal(t, d.ID, got.header.Get(webhook.HeaderID))
	require.JSONEq(t, `{"type":"verification.approved","timestamp":"2026-05-01T12:00:00.000Z",
		"data":{"requestId":"vrq_1","status":"APPROVED","attestationId":"att_1"}}`, string(got.body))
	require.Equal(t, []byte(d.Payload), got.body, "the stored payload is the exact body")

	d = f.get(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusSucceeded, d.Status)
	require.Equal(t, t0, d.DeliveredAt)
	require.Equal(t, t0, d.FirstAttemptAt)
	require.True(t, d.NextAttemptAt.IsZero())
	require.Len(t, d.Attempts, 1)
	require.Equal(t, http.StatusNoContent, d.Attempts[0].StatusCode)
	require.Empty(t, d.Attempts[0].Error)
	n, err := f.ob.Pending(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestRetriesOnTheScheduleUntilSuccess(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 3)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	d = f.drive(veriland.Sandbox, d.ID)

	require.Equal(t, webhook.StatusSucceeded, d.Status)
	require.EqualValues(t, 4, rcv.hits.Load())
	require.Len(t, d.Attempts, 4)
	for i, off := range []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute} {
		require.Equal(t, t0.Add(off), d.Attempts[i].At, "attempt %d", i)
	}
	for _, a := range d.Attempts[:3] {
		require.Equal(t, http.StatusInternalServerError, a.StatusCode)
		require.Equal(t, "receiver answered HTTP 500", a.Error)
	}
	require.Equal(t, http.StatusNoContent, d.Attempts[3].StatusCode)
	require.Equal(t, t0.Add(30*time.Minute), d.DeliveredAt)
	// Every attempt carried the same webhook-id and body.
	for _, r := range rcv.requests() {
		require.Equal(t, d.ID, r.header.Get(webhook.HeaderID))
		require.Equal(t, []byte(d.Payload), r.body)
	}
}

func TestFailedAfter24HoursWithAuditEntry(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 1000)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	d = f.drive(veriland.Sandbox, d.ID)

	require.Equal(t, webhook.StatusFailed, d.Status)
	require.Len(t, d.Attempts, 7)
	require.EqualValues(t, 7, rcv.hits.Load())
	require.Equal(t, t0.Add(10*time.Hour), d.Attempts[6].At)
	// Declared FAILED once 24 hours had passed since the first attempt, not before.
	require.Equal(t, t0.Add(webhook.DeliveryWindow), f.clock.Now())
	require.True(t, d.NextAttemptAt.IsZero())

	entries, _, err := audit.List(t.Context(), f.store, veriland.Sandbox, audit.Filter{Action: "webhook.delivery_failed"})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	e := entries[0]
	require.Equal(t, audit.SeverityWarning, e.Severity)
	require.Equal(t, audit.OutcomeFailure, e.Outcome)
	require.Equal(t, d.ID, e.ResourceID)
	require.EqualValues(t, 7, e.Detail["attempts"])
	require.EqualValues(t, 500, e.Detail["lastStatusCode"])
	report, err := audit.Verify(t.Context(), f.store, veriland.Sandbox)
	require.NoError(t, err)
	require.True(t, report.Valid)

	// Nothing more happens to it.
	f.clock.Advance(48 * time.Hour)
	require.Zero(t, f.runOnce())
	require.EqualValues(t, 7, rcv.hits.Load())
}

func TestLateWorkerFailsExpiredDeliveries(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 1000)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	require.Equal(t, 1, f.runOnce())
	// The worker was down for two days: the delivery is failed without another attempt.
	f.clock.Advance(48 * time.Hour)
	require.Equal(t, 1, f.runOnce())
	d = f.get(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusFailed, d.Status)
	require.Len(t, d.Attempts, 1)
}

func TestMissedSlotsAreSkippedNotBurst(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 1000)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	f.runOnce()
	f.clock.Advance(3 * time.Hour) // past the 5 s, 5 min, 30 min and 2 h slots
	require.Equal(t, 1, f.runOnce())
	d = f.get(veriland.Sandbox, d.ID)
	require.Len(t, d.Attempts, 2)
	require.Equal(t, t0.Add(5*time.Hour), d.NextAttemptAt)
}

func TestSurvivesRestartMidRetries(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 2)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	require.Equal(t, 1, f.runOnce()) // attempt 1 fails

	f.restart()
	d = f.get(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusPending, d.Status)
	require.Len(t, d.Attempts, 1)
	f.clock.Set(d.NextAttemptAt)
	require.Equal(t, 1, f.runOnce()) // attempt 2 fails

	f.restart()
	d = f.drive(veriland.Sandbox, d.ID) // attempt 3 succeeds
	require.Equal(t, webhook.StatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 3)
	require.EqualValues(t, 3, rcv.hits.Load(), "exactly one request per attempt")

	f.restart()
	f.clock.Advance(48 * time.Hour)
	require.Zero(t, f.runOnce())
	require.EqualValues(t, 3, rcv.hits.Load())
}

func TestReplaySendsTheSameMessageAgain(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	f.runOnce()
	f.clock.Advance(time.Hour)

	r, err := f.ob.Replay(t.Context(), veriland.Sandbox, d.ID)
	require.NoError(t, err)
	require.Equal(t, webhook.StatusPending, r.Status)
	require.Equal(t, 1, r.Replays)
	require.Equal(t, f.clock.Now(), r.NextAttemptAt)
	require.Equal(t, 1, f.runOnce())

	reqs := rcv.requests()
	require.Len(t, reqs, 2)
	require.Equal(t, reqs[0].header.Get(webhook.HeaderID), reqs[1].header.Get(webhook.HeaderID))
	require.Equal(t, d.ID, reqs[1].header.Get(webhook.HeaderID))
	require.Equal(t, reqs[0].body, reqs[1].body)
	require.NotEqual(t, reqs[0].header.Get(webhook.HeaderTimestamp), reqs[1].header.Get(webhook.HeaderTimestamp))

	d = f.get(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 2)

	entries, _, err := audit.List(t.Context(), f.store, veriland.Sandbox, audit.Filter{Action: "webhook.delivery_replayed"})
	require.NoError(t, err)
	require.Len(t, entries, 1)

	// Unknown ids and ids of the other environment are not found.
	_, err = f.ob.Replay(t.Context(), veriland.Production, d.ID)
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
	_, err = f.ob.Replay(t.Context(), veriland.Sandbox, "msg_nope")
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
}

func TestReplayOfFailedDeliveryOpensAFreshWindow(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 7)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	d = f.drive(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusFailed, d.Status)

	f.clock.Advance(time.Hour)
	replayedAt := f.clock.Now()
	_, err := f.ob.Replay(t.Context(), veriland.Sandbox, d.ID)
	require.NoError(t, err)
	d = f.drive(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 8)
	require.Equal(t, replayedAt, d.FirstAttemptAt)
	require.Equal(t, replayedAt, d.DeliveredAt)
}

func TestRotationSignsWithBothSecretsFor24Hours(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	ss := f.secrets()
	before, err := ss.Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.Nil(t, before.Previous)

	after, err := ss.Rotate(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.NotEqual(t, before.Current.String(), after.Current.String())
	require.NotNil(t, after.Previous)
	require.Equal(t, before.Current.String(), after.Previous.String())
	require.Equal(t, t0.Add(webhook.RotationOverlap), after.PreviousUntil)

	f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	f.runOnce()
	got := rcv.requests()[0]
	require.Len(t, splitSig(got.header), 2, "two signatures during the overlap")
	now := f.clock.Now()
	require.NoError(t, webhook.Verify(got.header, got.body, []webhook.Secret{before.Current}, now))
	require.NoError(t, webhook.Verify(got.header, got.body, []webhook.Secret{after.Current}, now))

	f.clock.Advance(webhook.RotationOverlap)
	cur, err := ss.Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.Nil(t, cur.Previous)
	f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	f.runOnce()
	got = rcv.requests()[1]
	require.Len(t, splitSig(got.header), 1, "only the new secret after the overlap")
	now = f.clock.Now()
	require.NoError(t, webhook.Verify(got.header, got.body, []webhook.Secret{after.Current}, now))
	require.ErrorIs(t, webhook.Verify(got.header, got.body, []webhook.Secret{before.Current}, now), webhook.ErrNoMatchingSignature)

	entries, _, err := audit.List(t.Context(), f.store, veriland.Sandbox, audit.Filter{Action: "webhook.secret_rotated"})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	raw, err := json.Marshal(entries[0])
	require.NoError(t, err)
	require.NotContains(t, string(raw), "whsec_", "no secret in the audit log")
}

func splitSig(h http.Header) []string {
	return strings.Fields(strings.Join(h.Values(webhook.HeaderSignature), " "))
}

func TestSandboxFailReceiver(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/hooks/fail"))
	require.Equal(t, 1, f.runOnce())
	d = f.get(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusPending, d.Status)
	require.Len(t, d.Attempts, 1)
	require.Equal(t, http.StatusInternalServerError, d.Attempts[0].StatusCode)
	require.Equal(t, webhook.SandboxFailError, d.Attempts[0].Error)
	require.Equal(t, t0.Add(5*time.Second), d.NextAttemptAt, "integrators watch the retries")

	d = f.drive(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusFailed, d.Status)
	require.Len(t, d.Attempts, 7)
	require.Zero(t, rcv.hits.Load(), "no network call")

	// In PRODUCTION a /fail path is an ordinary URL (here refused by the policy).
	p := f.enqueue(veriland.Production, approved("https://127.0.0.1:1/fail"))
	f.runOnce()
	p = f.get(veriland.Production, p.ID)
	require.Len(t, p.Attempts, 1)
	require.NotEqual(t, webhook.SandboxFailError, p.Attempts[0].Error)
	require.Contains(t, p.Attempts[0].Error, "not allowed")
}

func TestConcurrentOutboxesNeverDoubleSend(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	hits := map[string]int{} // webhook-id + timestamp → requests
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Header.Get(webhook.HeaderID)+"@"+r.Header.Get(webhook.HeaderTimestamp)]++
		mu.Unlock()
		// Fail about half of the first attempts, so retries are claimed concurrently too.
		if id := r.Header.Get(webhook.HeaderID); r.Header.Get(webhook.HeaderTimestamp) == fmt.Sprint(t0.Unix()) && id[len(id)-1] < 'n' {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	const n = 60
	ids := make([]string, n)
	for i := range ids {
		ev := approved(srv.URL + "/cb")
		ev.Data = map[string]any{"requestId": fmt.Sprintf("vrq_%d", i)}
		ids[i] = f.enqueue(veriland.Sandbox, ev).ID
	}
	second := f.outbox()

	round := func() {
		var wg sync.WaitGroup
		for _, ob := range []*webhook.Outbox{f.ob, second, f.ob, second} {
			wg.Go(func() {
				_, err := ob.RunOnce(context.Background())
				require.NoError(t, err)
			})
		}
		wg.Wait()
	}
	round()
	f.clock.Advance(5 * time.Second)
	round()

	mu.Lock()
	defer mu.Unlock()
	for k, c := range hits {
		require.Equal(t, 1, c, "attempt %s sent %d times", k, c)
	}
	for _, id := range ids {
		d := f.get(veriland.Sandbox, id)
		require.Equal(t, webhook.StatusSucceeded, d.Status, id)
		require.Equal(t, len(d.Attempts), countPrefix(hits, id), id)
	}
}

func countPrefix(m map[string]int, id string) int {
	n := 0
	for k, c := range m {
		if len(k) > len(id) && k[:len(id)] == id && k[len(id)] == '@' {
			n += c
		}
	}
	return n
}

func TestListFiltersAndPages(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	var mine []string
	for i := range 7 {
		ev := approved(rcv.URL + "/cb")
		if i%2 == 1 {
			ev.Verifier, ev.Account = "verifier-2", "acct_2"
		} else {
			mine = append(mine, "")
		}
		d := f.enqueue(veriland.Sandbox, ev)
		if ev.Verifier == "verifier-1" {
			mine[len(mine)-1] = d.ID
		}
		f.clock.Advance(time.Second)
	}
	f.enqueue(veriland.Production, approved("https://example.com/cb"))

	// A verifier's deliveries, newest first, two per page.
	var got []string
	cursor := ""
	for {
		page, next, err := f.ob.List(t.Context(), veriland.Sandbox, webhook.Filter{Verifier: "verifier-1", Limit: 2, Cursor: cursor})
		require.NoError(t, err)
		for _, d := range page {
			require.Equal(t, "verifier-1", d.Verifier)
			got = append(got, d.ID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	require.Equal(t, []string{mine[3], mine[2], mine[1], mine[0]}, got)

	all, next, err := f.ob.List(t.Context(), veriland.Sandbox, webhook.Filter{})
	require.NoError(t, err)
	require.Empty(t, next)
	require.Len(t, all, 7)
	acct, _, err := f.ob.List(t.Context(), veriland.Sandbox, webhook.Filter{Account: "acct_2"})
	require.NoError(t, err)
	require.Len(t, acct, 3)

	// Status filter: deliver the first one only.
	_, err = f.ob.Replay(t.Context(), veriland.Sandbox, mine[0]) // still pending: moves it to now
	require.NoError(t, err)
	f.runOnce()
	done, _, err := f.ob.List(t.Context(), veriland.Sandbox, webhook.Filter{Status: webhook.StatusSucceeded})
	require.NoError(t, err)
	require.Len(t, done, 7)

	for _, bad := range []webhook.Filter{{Limit: 101}, {Limit: -1}, {Status: "DONE"}, {Cursor: "!!"}} {
		_, _, err := f.ob.List(t.Context(), veriland.Sandbox, bad)
		require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%+v: %v", bad, err)
	}
}

func TestRunDeliversAtOnceOnNotify(t *testing.T) {
	dir := t.TempDir()
	store := openStore(t, dir+"/run.db")
	defer store.Close()
	rcv := newReceiver(t, 0)
	ob := &webhook.Outbox{Store: store, PollInterval: time.Hour, Workers: 2}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- ob.Run(ctx) }()

	for i := range 5 {
		require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
			ev := approved(rcv.URL + "/cb")
			ev.Data = map[string]any{"requestId": fmt.Sprintf("vrq_%d", i)}
			_, err := ob.Enqueue(t.Context(), tx, veriland.Sandbox, ev)
			return err
		}))
		ob.Notify()
	}
	require.Eventually(t, func() bool { return rcv.hits.Load() == 5 }, 5*time.Second, 5*time.Millisecond,
		"delivered without waiting for the hour-long poll")
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return")
	}
	n, err := ob.Pending(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestDeliveryJSON(t *testing.T) {
	f := newFixture(t)
	ev := approved("https://hooks.example.com/cb")
	ev.Data = (map[string]any)(nil)
	d := f.enqueue(veriland.Production, ev)
	require.JSONEq(t, `{"type":"verification.approved","timestamp":"2026-05-01T12:00:00.000Z","data":{}}`, string(d.Payload))

	raw, err := json.Marshal(f.get(veriland.Production, d.ID))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, []any{}, m["attempts"])
	require.Equal(t, "PENDING", m["status"])
	require.Equal(t, "2026-05-01T12:00:00Z", m["nextAttemptAt"])
	require.NotContains(t, m, "deliveredAt")
	require.NotContains(t, m, "firstAttemptAt")
	require.IsType(t, map[string]any{}, m["payload"], "the payload shows as JSON, not base64")
	for _, k := range []string{"leaseToken", "dueAt", "windowStart"} {
		require.NotContains(t, m, k, "bookkeeping stays internal")
	}
}
