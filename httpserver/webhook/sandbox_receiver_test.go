package webhook_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

// The sandbox test receiver answers SANDBOX callbacks ending in /fail (a 500) and
// /timeout (no answer within the delivery timeout) without any network call or wait;
// every other URL, and every PRODUCTION URL, is really sent.
func TestSandboxReceiver(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       veriland.Environment
		path      string
		status    int
		err       string
		latencyMs int64
		sandboxed bool
	}{
		{"fail", veriland.Sandbox, "/hooks/fail", http.StatusInternalServerError, webhook.SandboxFailError, 0, true},
		{"fail with query", veriland.Sandbox, "/a/fail?x=1", http.StatusInternalServerError, webhook.SandboxFailError, 0, true},
		{"timeout", veriland.Sandbox, "/hooks/timeout", 0, webhook.SandboxTimeoutError, webhook.DeliveryTimeout.Milliseconds(), true},
		{"timeout with query", veriland.Sandbox, "/timeout?x=1", 0, webhook.SandboxTimeoutError, webhook.DeliveryTimeout.Milliseconds(), true},
		{"timeouts is ordinary", veriland.Sandbox, "/hooks/timeouts", http.StatusNoContent, "", -1, false},
		{"timeout in the query is ordinary", veriland.Sandbox, "/cb?next=/timeout", http.StatusNoContent, "", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			rcv := newReceiver(t, 0)
			d := f.enqueue(tc.env, approved(rcv.URL+tc.path))
			start := time.Now()
			require.Equal(t, 1, f.runOnce())
			require.Less(t, time.Since(start), 5*time.Second, "the sandbox receiver never waits")
			d = f.get(tc.env, d.ID)
			require.Len(t, d.Attempts, 1)
			a := d.Attempts[0]
			require.Equal(t, tc.status, a.StatusCode)
			require.Equal(t, tc.err, a.Error)
			if tc.latencyMs >= 0 {
				require.Equal(t, tc.latencyMs, a.LatencyMs)
			}
			if tc.sandboxed {
				require.Zero(t, rcv.hits.Load(), "no network call")
				require.Equal(t, webhook.StatusPending, d.Status)
				require.Equal(t, t0.Add(5*time.Second), d.NextAttemptAt, "retries follow the schedule")
			} else {
				require.EqualValues(t, 1, rcv.hits.Load())
				require.Equal(t, webhook.StatusSucceeded, d.Status)
			}
		})
	}
}

// A /timeout delivery retries on the schedule and ends FAILED like any unanswered one.
func TestSandboxTimeoutReceiverFailsAfterTheSchedule(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	d := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/hooks/timeout"))
	d = f.drive(veriland.Sandbox, d.ID)
	require.Equal(t, webhook.StatusFailed, d.Status)
	require.Len(t, d.Attempts, 7)
	for _, a := range d.Attempts {
		require.Equal(t, webhook.SandboxTimeoutError, a.Error)
		require.Zero(t, a.StatusCode)
	}
	require.Zero(t, rcv.hits.Load())
	require.Equal(t, "sandbox receiver: /timeout (timed out after 10 s)", webhook.SandboxTimeoutError)

	// In PRODUCTION a /timeout path is an ordinary URL (here refused by the policy).
	p := f.enqueue(veriland.Production, approved("https://127.0.0.1:1/timeout"))
	f.runOnce()
	p = f.get(veriland.Production, p.ID)
	require.Len(t, p.Attempts, 1)
	require.Contains(t, p.Attempts[0].Error, "not allowed")
}
