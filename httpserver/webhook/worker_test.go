package webhook

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// A worker that claims an attempt and dies before recording it leaves a lease; the
// attempt is made again, once, when the lease has expired.
func TestExpiredClaimIsRetried(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "lease.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	defer store.Close()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()

	var mu sync.Mutex
	now := testNow
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }

	crashed := &Outbox{Store: store, Now: clock}
	var id string
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		d, err := crashed.Enqueue(t.Context(), tx, veriland.Sandbox, Event{Type: "verification.approved", Verifier: "v1", CallbackURL: srv.URL + "/cb"})
		id = d.ID
		return err
	}))
	crashed.init()
	claims, _, err := crashed.claimDue(t.Context(), 4)
	require.NoError(t, err)
	require.Len(t, claims, 1) // ...and the worker dies here, before sending.

	survivor := &Outbox{Store: store, Now: clock}
	n, err := survivor.RunOnce(t.Context())
	require.NoError(t, err)
	require.Zero(t, n, "the lease is still held")
	pending, err := survivor.Pending(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, pending)

	advance(ClaimLease)
	n, err = survivor.RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.EqualValues(t, 1, hits.Load())
	d, err := survivor.Get(t.Context(), veriland.Sandbox, id)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 1)
	require.Equal(t, testNow, d.FirstAttemptAt, "the window starts at the first claim")

	// The dead worker's late record only adds to the history.
	require.NoError(t, crashed.complete(t.Context(), claims[0], Attempt{At: testNow, StatusCode: 200}))
	d, err = survivor.Get(t.Context(), veriland.Sandbox, id)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 2)
	pending, err = survivor.Pending(t.Context())
	require.NoError(t, err)
	require.Zero(t, pending)
}

func TestReplayRefusedWhileAttemptInFlight(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "inflight.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	defer store.Close()
	ob := &Outbox{Store: store, Now: func() time.Time { return testNow }}
	var id string
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		d, err := ob.Enqueue(t.Context(), tx, veriland.Sandbox, Event{Type: "t.x", Verifier: "v1", CallbackURL: "http://127.0.0.1:1/cb"})
		id = d.ID
		return err
	}))
	claims, _, err := ob.claimDue(t.Context(), 1)
	require.NoError(t, err)
	require.Len(t, claims, 1)
	_, err = ob.Replay(t.Context(), veriland.Sandbox, id)
	require.True(t, veriland.IsCode(err, veriland.CodeInvalidState), "%v", err)
}

func TestSandboxAttempt(t *testing.T) {
	for _, tc := range []struct {
		env  veriland.Environment
		url  string
		want bool
	}{
		{veriland.Sandbox, "http://localhost:9/fail", true},
		{veriland.Sandbox, "https://hooks.example.com/a/fail?x=1", true},
		{veriland.Sandbox, "https://hooks.example.com/failure", false},
		{veriland.Sandbox, "https://hooks.example.com/cb?next=/fail", false},
		{veriland.Production, "https://hooks.example.com/fail", false},
	} {
		a, ok := sandboxAttempt(tc.env, tc.url, testNow)
		require.Equal(t, tc.want, ok, tc.url)
		if ok {
			require.Equal(t, Attempt{At: testNow, StatusCode: 500, Err: SandboxFailError}, a)
		}
	}
}
