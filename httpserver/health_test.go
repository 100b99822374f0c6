package httpserver

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// stallingStore is a storage.Store whose reads, once stalled, wait for their
// context to end, as a database that stopped answering does.
type stallingStore struct {
	storage.Store
	stalled atomic.Bool
}

func (s *stallingStore) View(ctx context.Context, fn func(storage.Tx) error) error {
	if s.stalled.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Store.View(ctx, fn)
}

// TestHealthStorageStalls: a store that stops answering makes GET /v1/health
// answer 503 "down" once the probe's deadline passes, not hang.
func TestHealthStorageStalls(t *testing.T) {
	var stalling *stallingStore
	h := newHarness(t, func(c *Config) {
		stalling = &stallingStore{Store: c.Store}
		c.Store = stalling
	})
	h.srv.probeDeadline.timeout = 100 * time.Millisecond
	require.Equal(t, http.StatusOK, h.do(request{method: "GET", path: "/v1/health"}).status)

	stalling.stalled.Store(true)
	start := time.Now()
	r := h.do(request{method: "GET", path: "/v1/health"})
	took := time.Since(start)
	require.Equal(t, http.StatusServiceUnavailable, r.status, string(r.body))
	require.Equal(t, "down", r.json(t)["status"])
	require.GreaterOrEqual(t, took, 100*time.Millisecond, "the probe had at least the timeout")
	require.Less(t, took, 2*time.Second, "the probe was cut off at its deadline")

	stalling.stalled.Store(false)
	require.Equal(t, http.StatusOK, h.do(request{method: "GET", path: "/v1/health"}).status, "healthy again at once")
}

// TestSharedDeadline: every context handed out has between timeout and
// 1.5×timeout left, and one is shared until less than timeout is left.
func TestSharedDeadline(t *testing.T) {
	d := sharedDeadline{timeout: 2 * time.Second}
	t0 := time.Now()
	first := d.context(t0)
	for _, at := range []time.Duration{0, 500 * time.Millisecond, 999 * time.Millisecond, time.Second, 1001 * time.Millisecond, 2500 * time.Millisecond, 10 * time.Second} {
		now := t0.Add(at)
		ctx := d.context(now)
		deadline, ok := ctx.Deadline()
		require.True(t, ok)
		left := deadline.Sub(now)
		require.GreaterOrEqual(t, left, 2*time.Second, "at %v", at)
		require.LessOrEqual(t, left, 3*time.Second, "at %v", at)
		require.Equal(t, at <= time.Second, ctx == first, "at %v: shared while at least the timeout is left", at)
	}
}
