package audit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

func badToken() Entry {
	return Entry{Action: "auth.bad_token", Severity: SeverityWarning, Outcome: OutcomeFailure,
		Detail: map[string]any{"reason": "token_expired"}}
}

func all(t *testing.T, store storage.Store, env veriland.Environment) []Entry {
	t.Helper()
	var out []Entry
	f := Filter{Limit: MaxLimit}
	for {
		entries, next, err := List(context.Background(), store, env, f)
		require.NoError(t, err)
		out = append(out, entries...)
		if next == "" {
			return out
		}
		f.Cursor = next
	}
}

func TestCoalescerOneEntryPerKeyAndMinute(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0.Add(10 * time.Second))
	c := &Coalescer{Log: &Log{Now: clk.Now}, Now: clk.Now}
	ctx := context.Background()

	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			for range 1000 {
				assert.NoError(t, c.Record(veriland.Sandbox, "ip:203.0.113.7", badToken()))
			}
		})
	}
	wg.Wait()

	// The minute is still open: nothing is written.
	require.NoError(t, c.Flush(ctx, store))
	require.Empty(t, all(t, store, veriland.Sandbox))

	clk.Advance(time.Minute)
	require.NoError(t, c.Flush(ctx, store))
	entries := all(t, store, veriland.Sandbox)
	require.Len(t, entries, 1)
	e := entries[0]
	require.Equal(t, "auth.bad_token", e.Action)
	require.Equal(t, SeverityWarning, e.Severity)
	require.Equal(t, map[string]any{
		"count": float64(10000), "reason": "token_expired",
		"windowStart": "2026-11-22T10:00:00Z", "windowSeconds": float64(60),
	}, e.Detail)
	require.NotContains(t, fmt.Sprint(e), "203.0.113.7", "keys are never written")

	// Flushing again writes nothing more.
	require.NoError(t, c.Flush(ctx, store))
	require.Len(t, all(t, store, veriland.Sandbox), 1)
	requireValid(t, store, veriland.Sandbox, 1)
}

func TestCoalescerWindows(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	c := &Coalescer{Log: &Log{Now: clk.Now}, Now: clk.Now}
	ctx := context.Background()

	record := func(env veriland.Environment, key string, n int) {
		for range n {
			require.NoError(t, c.Record(env, key, badToken()))
		}
	}
	record(veriland.Sandbox, "a", 3)
	record(veriland.Sandbox, "b", 2)
	record(veriland.Production, "a", 4) // same key, other environment: its own entry
	clk.Advance(time.Minute)
	record(veriland.Sandbox, "a", 5) // same key, next minute: its own entry

	require.NoError(t, c.Flush(ctx, store)) // writes minute 0 only
	count := func(env veriland.Environment) []float64 {
		var out []float64
		for _, e := range all(t, store, env) {
			out = append(out, e.Detail["count"].(float64))
		}
		return out
	}
	require.Equal(t, []float64{3, 2}, count(veriland.Sandbox))
	require.Equal(t, []float64{4}, count(veriland.Production))

	require.NoError(t, c.FlushAll(ctx, store)) // shutdown: the open minute too
	require.Equal(t, []float64{3, 2, 5}, count(veriland.Sandbox))
	requireValid(t, store, veriland.Sandbox, 3)
	requireValid(t, store, veriland.Production, 1)
}

func TestCoalescerOverflow(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	c := &Coalescer{Log: &Log{Now: clk.Now}, Now: clk.Now, MaxKeys: 3}
	for i := range 10 {
		for range i + 1 {
			require.NoError(t, c.Record(veriland.Sandbox, fmt.Sprintf("key-%d", i), badToken()))
		}
	}
	require.NoError(t, c.Record(veriland.Production, "other-env", badToken()), "the cap is per environment")
	require.NoError(t, c.FlushAll(context.Background(), store))

	entries := all(t, store, veriland.Sandbox)
	require.Len(t, entries, 4)
	var counts []float64
	for _, e := range entries[:3] {
		require.Equal(t, "auth.bad_token", e.Action)
		counts = append(counts, e.Detail["count"].(float64))
	}
	require.ElementsMatch(t, []float64{1, 2, 3}, counts)
	over := entries[3]
	require.Equal(t, OverflowAction, over.Action)
	require.Equal(t, SeverityWarning, over.Severity)
	require.Equal(t, float64(4+5+6+7+8+9+10), over.Detail["count"])
	require.Len(t, all(t, store, veriland.Production), 1)

	// Flushed windows free their slots.
	require.NoError(t, c.Record(veriland.Sandbox, "key-new", badToken()))
	require.NoError(t, c.FlushAll(context.Background(), store))
	require.Equal(t, "auth.bad_token", all(t, store, veriland.Sandbox)[4].Action)
}

// failingStore fails every Update while fail is set.
type failingStore struct {
	storage.Store
	mu   sync.Mutex
	fail bool
}

func (s *failingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail {
		return errors.New("disk on fire")
	}
	return s.Store.Update(ctx, fn)
}

func TestCoalescerKeepsCountsWhenFlushFails(t *testing.T) {
	store := &failingStore{Store: openStore(t), fail: true}
	clk := newClock(t0)
	c := &Coalescer{Log: &Log{Now: clk.Now}, Now: clk.Now}
	ctx := context.Background()
	for range 5 {
		require.NoError(t, c.Record(veriland.Sandbox, "k", badToken()))
	}
	clk.Advance(time.Minute)
	require.Error(t, c.Flush(ctx, store))
	store.mu.Lock()
	store.fail = false
	store.mu.Unlock()
	require.NoError(t, c.Flush(ctx, store))
	entries := all(t, store, veriland.Sandbox)
	require.Len(t, entries, 1)
	require.Equal(t, float64(5), entries[0].Detail["count"])
}

func TestCoalescerRejectsInvalidTemplate(t *testing.T) {
	c := &Coalescer{}
	err := c.Record(veriland.Sandbox, "k", Entry{Action: "auth.bad_token", Outcome: OutcomeFailure,
		Detail: map[string]any{"token": "eyJhbGciOiJIUzI1NiJ9.e30.x"}})
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed))
	require.True(t, veriland.IsCode(c.Record("STAGING", "k", badToken()), veriland.CodeValidationFailed))
}

func TestCoalescerRun(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	c := &Coalescer{Log: &Log{Now: clk.Now}, Now: clk.Now}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, store, 5*time.Millisecond) }()

	require.NoError(t, c.Record(veriland.Sandbox, "k", badToken()))
	clk.Advance(time.Minute)
	require.Eventually(t, func() bool { return len(all(t, store, veriland.Sandbox)) == 1 },
		5*time.Second, 5*time.Millisecond, "the closed minute is flushed by a tick")

	require.NoError(t, c.Record(veriland.Sandbox, "k", badToken())) // open minute
	cancel()
	require.NoError(t, <-done)
	require.Len(t, all(t, store, veriland.Sandbox), 2, "shutdown flushes the open minute")
	requireValid(t, store, veriland.Sandbox, 2)
}
