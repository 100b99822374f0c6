package chainjob_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/chainjob"
)

// recorder is a Handler whose Run answers from a script and whose Settle records.
type recorder struct {
	mu      sync.Mutex
	runs    map[string]int
	answers map[string][]error // per ref, the errors of successive runs (nil: success)
	settled map[string]error
}

func newRecorder() *recorder {
	return &recorder{runs: map[string]int{}, answers: map[string][]error{}, settled: map[string]error{}}
}

func (r *recorder) Run(_ context.Context, _ veriland.Environment, j chainjob.Job) (chainjob.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.runs[j.Ref]
	r.runs[j.Ref]++
	if a := r.answers[j.Ref]; n < len(a) && a[n] != nil {
		return chainjob.Result{}, a[n]
	}
	return chainjob.Result{TxHash: fmt.Sprintf("0x%064x", n+1), BlockNumber: uint64(n + 1), Action: "send"}, nil
}

func (r *recorder) Settle(_ context.Context, tx storage.Tx, env veriland.Environment, j chainjob.Job, res chainjob.Result, err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settled[j.Ref] = err
	if err == nil && res.TxHash == "" {
		return errors.New("success without a transaction")
	}
	return tx.Put(storage.Bucket(env, "results"), []byte(j.Ref), []byte(res.TxHash))
}

func openStore(t *testing.T) storage.Store {
	t.Helper()
	s, err := bolt.Open(filepath.Join(t.TempDir(), "jobs.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func enqueue(t *testing.T, s storage.Store, env veriland.Environment, kind, ref string, due time.Time) {
	t.Helper()
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		return chainjob.Enqueue(tx, env, chainjob.Job{Kind: kind, Ref: ref}, due)
	}))
}

var t0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func TestQueueOutcomes(t *testing.T) {
	down := errors.New("node down")
	for _, tc := range []struct {
		name     string
		answers  []error
		rounds   int           // rounds, the clock advanced by step after each
		step     time.Duration //
		runs     int
		settled  bool
		final    error // the settled error
		outcomes []string
	}{
		{"success at once", nil, 1, 0, 1, true, nil, []string{"done"}},
		{"retried after the backoff", []error{down}, 3, 5 * time.Second, 2, true, nil, []string{"retry", "done"}},
		{"not due before the backoff", []error{down}, 3, time.Second, 1, false, nil, []string{"retry"}},
		{"failed after MaxAttempts", []error{down, down, down}, 5, time.Hour, 3, true, down, []string{"retry", "retry", "failed"}},
		{"permanent at once", []error{chainjob.Permanent(down)}, 2, time.Hour, 1, true, down, []string{"failed"}},
		{"disabled at once", []error{chainjob.ErrDisabled}, 2, time.Hour, 1, true, chainjob.ErrDisabled, []string{"disabled"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			clock := clocktest.New(t0)
			h := newRecorder()
			h.answers["a"] = tc.answers
			var outcomes []string
			q := &chainjob.Queue{Store: s, Now: clock.Now, Policy: chainjob.Policy{MaxAttempts: 3},
				Observe: func(kind, outcome string, _ time.Duration) { outcomes = append(outcomes, outcome) }}
			q.Handle("k", h)
			enqueue(t, s, veriland.Production, "k", "a", t0)
			for range tc.rounds {
				_, err := q.RunOnce(context.Background())
				require.NoError(t, err)
				clock.Advance(tc.step)
			}
			require.Equal(t, tc.runs, h.runs["a"])
			err, settled := h.settled["a"]
			require.Equal(t, tc.settled, settled)
			if tc.final != nil {
				require.ErrorIs(t, err, tc.final)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, tc.outcomes, outcomes)
			counts, err := q.Counts(context.Background())
			require.NoError(t, err)
			if tc.settled {
				require.Empty(t, counts[veriland.Production])
			} else {
				require.Equal(t, map[string]int{"k": 1}, counts[veriland.Production])
			}
		})
	}
}

// A claimed job is hidden for the lease: a worker that dies after claiming leaves it
// to the next round after the lease, which runs it again (Attempts counts both).
func TestQueueLeaseAndUnknownKinds(t *testing.T) {
	s := openStore(t)
	clock := clocktest.New(t0)
	h := newRecorder()
	q := &chainjob.Queue{Store: s, Now: clock.Now, Policy: chainjob.Policy{Lease: time.Minute}}
	q.Handle("k", h)
	enqueue(t, s, veriland.Sandbox, "k", "a", t0)
	enqueue(t, s, veriland.Sandbox, "other", "b", t0) // a kind this queue does not serve
	enqueue(t, s, veriland.Production, "k", "later", t0.Add(time.Hour))

	ctx, cancel := context.WithCancel(context.Background())
	h.answers["a"] = []error{context.Canceled}
	cancel() // the worker "dies" during the call
	_, err := q.RunOnce(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Empty(t, h.settled)

	n, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "hidden until the lease ends")
	clock.Advance(time.Minute + time.Nanosecond)
	n, err = q.RunOnce(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 2, h.runs["a"])
	require.Zero(t, h.runs["b"])
	require.Zero(t, h.runs["later"], "not due")

	counts, err := q.Counts(context.Background())
	require.NoError(t, err)
	require.Equal(t, map[string]int{"other": 1}, counts[veriland.Sandbox])
	require.Equal(t, map[string]int{"k": 1}, counts[veriland.Production])
	require.Equal(t, []string{"k"}, q.Kinds())
}

func TestQueueFence(t *testing.T) {
	s := openStore(t)
	clock := clocktest.New(t0)
	h := newRecorder()
	lost := errors.New("not the leader")
	var fenced error = lost
	q := &chainjob.Queue{Store: s, Now: clock.Now, Policy: chainjob.Policy{Lease: time.Minute,
		Fence: func(context.Context) error { return fenced }}}
	q.Handle("k", h)
	enqueue(t, s, veriland.Production, "k", "a", t0)
	_, err := q.RunOnce(context.Background())
	require.ErrorIs(t, err, lost)
	require.Zero(t, h.runs["a"], "never called while fenced off")
	fenced = nil
	clock.Advance(time.Minute + time.Nanosecond)
	n, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

func TestEnqueueAndDeleteWhere(t *testing.T) {
	s := openStore(t)
	require.Error(t, s.Update(context.Background(), func(tx storage.Tx) error {
		return chainjob.Enqueue(tx, veriland.Sandbox, chainjob.Job{Kind: "k"}, t0)
	}), "a job without a reference")
	for i, ref := range []string{"a", "b", "c"} {
		enqueue(t, s, veriland.Sandbox, "k", ref, t0.Add(time.Duration(i)*time.Second))
	}
	enqueue(t, s, veriland.Production, "k", "a", t0)
	var n int
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		var err error
		n, err = chainjob.DeleteWhere(tx, veriland.Sandbox, func(kind, ref string) bool { return ref != "b" })
		return err
	}))
	require.Equal(t, 2, n)
	counts, err := (&chainjob.Queue{Store: s}).Counts(context.Background())
	require.NoError(t, err)
	require.Equal(t, map[string]int{"k": 1}, counts[veriland.Sandbox])
	require.Equal(t, map[string]int{"k": 1}, counts[veriland.Production], "the other environment untouched")
}

func TestPolicy(t *testing.T) {
	p := chainjob.Policy{}.WithDefaults()
	require.Equal(t, 8, p.MaxAttempts)
	require.Equal(t, time.Second, p.PollInterval)
	p.Backoff, p.MaxBackoff = time.Second, 5*time.Second
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 5 * time.Second, 10: 5 * time.Second} {
		require.Equal(t, want, p.BackoffAfter(n), n)
	}
}

func TestRunWakes(t *testing.T) {
	s := openStore(t)
	h := newRecorder()
	q := &chainjob.Queue{Store: s, Policy: chainjob.Policy{PollInterval: time.Hour}}
	q.Handle("k", h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = q.Run(ctx) }()
	defer func() { cancel(); <-done }()
	time.Sleep(20 * time.Millisecond) // the first round ran and found nothing
	enqueue(t, s, veriland.Sandbox, "k", "a", time.Now())
	q.Wake()
	require.Eventually(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		_, ok := h.settled["a"]
		return ok
	}, 5*time.Second, 5*time.Millisecond, "woken long before the hour's pause")
}
