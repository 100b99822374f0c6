package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/postgres"
)

// backend is a store for Limiter tests, and whether the Limiter takes the atomic path
// on it.
type backend struct {
	name   string
	atomic bool
	open   func(t *testing.T) storage.Store
}

// backends are bbolt (transactions), PostgreSQL with transactions and PostgreSQL with
// the single-statement GCRA. The PostgreSQL ones skip without a server (and fail
// under CI=true).
func backends() []backend {
	return []backend{
		{"bbolt", false, func(t *testing.T) storage.Store { return openStore(t, bolt.Options{NoSync: true}) }},
		{"postgres-transactional", false, func(t *testing.T) storage.Store {
			return transactional{pgtest.Replicas(t, 1, 8)[0]}
		}},
		{"postgres-atomic", true, func(t *testing.T) storage.Store {
			return pgtest.Replicas(t, 1, 8)[0]
		}},
	}
}

// TestBackendsDecideAlike runs scripts of bursts and clock steps on every backend
// and checks each Decision against the algorithm run in memory, and the number of
// admitted requests against the policy.
func TestBackendsDecideAlike(t *testing.T) {
	type step struct {
		advance  time.Duration
		requests int
		admitted int
	}
	scripts := []struct {
		p     Policy
		steps []step
	}{
		{Policy{Name: "one", Limit: 1, Window: time.Second, Burst: 1}, []step{
			{0, 3, 1}, {999 * time.Millisecond, 2, 0}, {time.Millisecond, 2, 1}, {10 * time.Second, 3, 1},
		}},
		{WalletPolicy(), []step{
			{0, 40, 30}, {500 * time.Millisecond, 2, 1}, {499 * time.Millisecond, 1, 0}, {time.Millisecond, 1, 1},
			{5 * time.Second, 12, 10}, {time.Hour, 31, 30},
		}},
		{IPPolicy(), []step{{0, 130, 120}, {time.Second, 12, 10}, {-time.Second, 2, 0}, {time.Minute, 121, 120}}},
		{Policy{Name: "odd", Limit: 7, Window: 10 * time.Second, Burst: 3}, []step{
			{0, 4, 3}, {10*time.Second/7 - 1, 1, 0}, {1, 2, 1}, {time.Second, 1, 0}, {time.Hour, 4, 3},
		}},
	}
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			for _, sc := range scripts {
				t.Run(sc.p.Name, func(t *testing.T) {
					clock := newFakeClock()
					store := be.open(t)
					l := &Limiter{Store: store, Now: clock.Now}
					var model int64 // the key's TAT, by the algorithm in memory
					for i, st := range sc.steps {
						clock.Advance(st.advance)
						admitted := 0
						for r := range st.requests {
							var want Decision
							model, want = gcra(model, clock.Now().UnixNano(), sc.p)
							got, err := l.Allow(context.Background(), veriland.Sandbox, "client", sc.p)
							require.NoError(t, err)
							require.Equal(t, want, got, "step %d request %d", i, r)
							if got.Allowed {
								admitted++
							}
						}
						require.Equal(t, st.admitted, admitted, "step %d", i)
					}
					if pg, ok := store.(*postgres.Store); ok {
						require.Zero(t, pg.Stats().Attempts, "the atomic path begins no transaction")
					}
				})
			}
		})
	}
}

// TestAtomicReplicasAdmitExactlyTheBurst: 64 concurrent callers on one key, spread
// over two PostgreSQL pools (two replicas), with a frozen clock: exactly the burst is
// admitted, never more; once the clock moves by n intervals, exactly n more.
func TestAtomicReplicasAdmitExactlyTheBurst(t *testing.T) {
	clock := newFakeClock()
	pools := pgtest.Replicas(t, 2, 16)
	replicas := []*Limiter{{Store: pools[0], Now: clock.Now}, {Store: pools[1], Now: clock.Now}}
	p := WalletPolicy()
	round := func() int64 {
		var allowed atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 64 {
			wg.Go(func() {
				<-start
				d, err := replicas[i%2].Allow(context.Background(), veriland.Production, "127.0.0.1", p)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		return allowed.Load()
	}
	require.EqualValues(t, p.Burst, round())
	require.Zero(t, round())
	clock.Advance(7 * p.interval())
	require.EqualValues(t, 7, round())
	require.Zero(t, pools[0].Stats().Attempts+pools[1].Stats().Attempts, "no transaction was begun")
}

// TestAtomicAndTransactionalShareRecords: replicas on either path enforce one limit
// on one record, and Prune removes the records of the atomic path.
func TestAtomicAndTransactionalShareRecords(t *testing.T) {
	clock := newFakeClock()
	pg := pgtest.Replicas(t, 1, 4)[0]
	atomicL := &Limiter{Store: pg, Now: clock.Now}
	txL := &Limiter{Store: transactional{pg}, Now: clock.Now}
	ctx := context.Background()
	p := Policy{Name: "mixed", Limit: 4, Window: 4 * time.Second, Burst: 4}
	for i, c := range []struct {
		l    *Limiter
		want bool
	}{{atomicL, true}, {txL, true}, {atomicL, true}, {txL, true}, {atomicL, false}, {txL, false}} {
		d, err := c.l.Allow(ctx, veriland.Production, "k", p)
		require.NoError(t, err)
		require.Equal(t, c.want, d.Allowed, "request %d", i)
	}
	deleted, err := atomicL.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Zero(t, deleted, "the key is still refilling")
	clock.Advance(4 * time.Second)
	deleted, err = atomicL.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Equal(t, 1, deleted)
}

// unsupportedGCRA is an AtomicStore whose GCRA always reports errors.ErrUnsupported,
// as storage/postgres does on a database without the functions its statement uses.
type unsupportedGCRA struct {
	storage.Store
	calls atomic.Int64
}

func (u *unsupportedGCRA) GCRA(context.Context, string, []byte, int64, int64, int64) (int64, bool, error) {
	u.calls.Add(1)
	return 0, false, fmt.Errorf("gcra statement: %w", errors.ErrUnsupported)
}

// failingGCRA is an AtomicStore whose GCRA fails, or answers inconsistently.
type failingGCRA struct {
	storage.Store
	tat     int64
	allowed bool
	err     error
}

func (f failingGCRA) GCRA(context.Context, string, []byte, int64, int64, int64) (int64, bool, error) {
	return f.tat, f.allowed, f.err
}

func TestAtomicFallbacksAndFailures(t *testing.T) {
	t.Run("unsupported falls back to transactions for good", func(t *testing.T) {
		clock := newFakeClock()
		u := &unsupportedGCRA{Store: openStore(t, bolt.Options{NoSync: true})}
		l := &Limiter{Store: u, Now: clock.Now}
		p := Policy{Name: "fb", Limit: 1, Window: time.Minute, Burst: 2}
		for i, want := range []bool{true, true, false} {
			d, err := l.Allow(context.Background(), veriland.Sandbox, "k", p)
			require.NoError(t, err)
			require.Equal(t, want, d.Allowed, "request %d", i)
		}
		require.EqualValues(t, 1, u.calls.Load())
	})
	now := newFakeClock().Now()
	p := WalletPolicy()
	for _, c := range []struct {
		name string
		f    failingGCRA
		code veriland.Code
	}{
		{"store failure", failingGCRA{err: fmt.Errorf("%w: connection refused", storage.ErrUnavailable)}, veriland.CodeUnavailable},
		{"allowed but TAT far ahead", failingGCRA{tat: now.Add(time.Hour).UnixNano(), allowed: true}, veriland.CodeInternal},
		{"denied but TAT idle", failingGCRA{tat: 0, allowed: false}, veriland.CodeInternal},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.f.Store = openStore(t, bolt.Options{NoSync: true})
			l := &Limiter{Store: c.f, Now: func() time.Time { return now }}
			_, err := l.Allow(context.Background(), veriland.Sandbox, "k", p)
			require.True(t, veriland.IsCode(err, c.code), "%v", err)
		})
	}
}
