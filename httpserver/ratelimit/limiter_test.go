package ratelimit

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

func newLimiter(t *testing.T) (*Limiter, *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	return &Limiter{Store: openStore(t, bolt.Options{NoSync: true}), Now: clock.Now}, clock
}

func TestAllowBurstThenDeny(t *testing.T) {
	for _, p := range []Policy{WalletPolicy(), IPPolicy(), {Name: "one", Limit: 1, Window: time.Second, Burst: 1}} {
		t.Run(p.Name, func(t *testing.T) {
			l, _ := newLimiter(t)
			ctx := context.Background()
			for i := range p.Burst {
				d, err := l.Allow(ctx, veriland.Production, "0xabc", p)
				require.NoError(t, err)
				require.True(t, d.Allowed, "request %d", i)
				require.Equal(t, p.Burst-1-i, d.Remaining)
				require.Equal(t, time.Duration(i+1)*p.interval(), d.Reset)
				require.Zero(t, d.RetryAfter)
			}
			d, err := l.Allow(ctx, veriland.Production, "0xabc", p)
			require.NoError(t, err)
			require.Equal(t, Decision{
				Allowed:    false,
				Remaining:  0,
				Reset:      time.Duration(p.Burst) * p.interval(),
				RetryAfter: p.interval(),
			}, d)
		})
	}
}

func TestAllowRefill(t *testing.T) {
	l, clock := newLimiter(t)
	ctx := context.Background()
	p := WalletPolicy() // one request every 500ms, burst 30
	allow := func() Decision {
		t.Helper()
		d, err := l.Allow(ctx, veriland.Sandbox, "sub-1", p)
		require.NoError(t, err)
		return d
	}
	for range p.Burst {
		require.True(t, allow().Allowed)
	}
	require.False(t, allow().Allowed)

	steps := []struct {
		advance   time.Duration
		allowed   int // requests that pass after advancing, before the first denial
		remaining int // Remaining of the last allowed request
	}{
		{advance: 500 * time.Millisecond, allowed: 1},
		{advance: 499 * time.Millisecond, allowed: 0},
		{advance: time.Millisecond, allowed: 1},
		{advance: 5 * time.Second, allowed: 10},
		{advance: time.Hour, allowed: 30}, // full again, never more than the burst
	}
	for i, s := range steps {
		clock.Advance(s.advance)
		n := 0
		for {
			d := allow()
			if !d.Allowed {
				break
			}
			n++
			require.LessOrEqual(t, n, p.Burst)
		}
		require.Equal(t, s.allowed, n, "step %d", i)
	}
}

func TestRetryAfterIsExact(t *testing.T) {
	policies := []Policy{
		WalletPolicy(),
		IPPolicy(),
		{Name: "slow", Limit: 3, Window: time.Hour, Burst: 2},
		{Name: "odd", Limit: 7, Window: 10 * time.Second, Burst: 3},
	}
	for _, p := range policies {
		t.Run(p.Name, func(t *testing.T) {
			l, clock := newLimiter(t)
			ctx := context.Background()
			var d Decision
			var err error
			for d.Allowed || d == (Decision{}) {
				d, err = l.Allow(ctx, veriland.Production, "k", p)
				require.NoError(t, err)
			}
			require.Positive(t, d.RetryAfter)
			clock.Advance(d.RetryAfter - time.Nanosecond)
			early, err := l.Allow(ctx, veriland.Production, "k", p)
			require.NoError(t, err)
			require.False(t, early.Allowed)
			require.Equal(t, time.Nanosecond, early.RetryAfter)
			clock.Advance(time.Nanosecond)
			onTime, err := l.Allow(ctx, veriland.Production, "k", p)
			require.NoError(t, err)
			require.True(t, onTime.Allowed)
			require.Equal(t, 0, onTime.Remaining)
		})
	}
}

func TestReplicasShareOneLimit(t *testing.T) {
	clock := newFakeClock()
	store := openStore(t, bolt.Options{NoSync: true})
	replicas := []*Limiter{{Store: store, Now: clock.Now}, {Store: store, Now: clock.Now}}
	p := WalletPolicy()
	allowed := 0
	for i := range 2 * p.Burst {
		d, err := replicas[i%2].Allow(context.Background(), veriland.Production, "0xabc", p)
		require.NoError(t, err)
		if d.Allowed {
			allowed++
		}
	}
	require.Equal(t, p.Burst, allowed)
}

func TestConcurrentCallersAdmitExactlyTheBurst(t *testing.T) {
	clock := newFakeClock() // frozen: no refill during the test
	store := openStore(t, bolt.Options{})
	replicas := []*Limiter{{Store: store, Now: clock.Now}, {Store: store, Now: clock.Now}}
	p := WalletPolicy()
	var allowed, denied atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 200 {
		wg.Go(func() {
			<-start
			d, err := replicas[i%2].Allow(context.Background(), veriland.Production, "0xabc", p)
			if err != nil {
				t.Error(err)
				return
			}
			if d.Allowed {
				allowed.Add(1)
			} else {
				denied.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	require.EqualValues(t, p.Burst, allowed.Load())
	require.EqualValues(t, 200-p.Burst, denied.Load())
}

func TestEnvironmentsAndPoliciesAreIsolated(t *testing.T) {
	l, _ := newLimiter(t)
	ctx := context.Background()
	p := Policy{Name: "tiny", Limit: 1, Window: time.Minute, Burst: 1}
	q := Policy{Name: "other", Limit: 1, Window: time.Minute, Burst: 1}
	for _, c := range []struct {
		env    veriland.Environment
		key    string
		p      Policy
		expect bool
	}{
		{veriland.Production, "k", p, true},
		{veriland.Production, "k", p, false},
		{veriland.Sandbox, "k", p, true},
		{veriland.Sandbox, "k", p, false},
		{veriland.Production, "k2", p, true},
		{veriland.Production, "k", q, true},
		{veriland.Production, "k", q, false},
	} {
		d, err := l.Allow(ctx, c.env, c.key, c.p)
		require.NoError(t, err)
		require.Equal(t, c.expect, d.Allowed, "%s %s %s", c.env, c.key, c.p.Name)
	}
}

func TestAllowRejectsBadInput(t *testing.T) {
	l, _ := newLimiter(t)
	cases := []struct {
		name string
		env  veriland.Environment
		key  string
		p    Policy
	}{
		{"bad env", "STAGING", "k", WalletPolicy()},
		{"empty key", veriland.Sandbox, "", WalletPolicy()},
		{"empty name", veriland.Sandbox, "k", Policy{Limit: 1, Window: time.Second, Burst: 1}},
		{"quote in name", veriland.Sandbox, "k", Policy{Name: `a"b`, Limit: 1, Window: time.Second, Burst: 1}},
		{"zero limit", veriland.Sandbox, "k", Policy{Name: "a", Window: time.Second, Burst: 1}},
		{"zero window", veriland.Sandbox, "k", Policy{Name: "a", Limit: 1, Burst: 1}},
		{"window below limit", veriland.Sandbox, "k", Policy{Name: "a", Limit: 10, Window: 5, Burst: 1}},
		{"zero burst", veriland.Sandbox, "k", Policy{Name: "a", Limit: 1, Window: time.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := l.Allow(context.Background(), c.env, c.key, c.p)
			require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
		})
	}
}

func TestAllowReportsStoreFailureAsUnavailable(t *testing.T) {
	l, _ := newLimiter(t)
	require.NoError(t, l.Store.Close())
	_, err := l.Allow(context.Background(), veriland.Sandbox, "k", WalletPolicy())
	require.True(t, veriland.IsCode(err, veriland.CodeUnavailable), "%v", err)
	require.ErrorIs(t, err, storage.ErrClosed)
}

func TestDisabledAdmitsWithoutStorage(t *testing.T) {
	l := &Limiter{Disabled: true} // no Store: touching it would panic
	for range 100 {
		d, err := l.Allow(context.Background(), veriland.Sandbox, "k", WalletPolicy())
		require.NoError(t, err)
		require.True(t, d.Allowed)
	}
}

func TestKeysAreStoredHashed(t *testing.T) {
	l, _ := newLimiter(t)
	const ip = "203.0.113.7"
	_, err := l.Allow(context.Background(), veriland.Production, ip, IPPolicy())
	require.NoError(t, err)
	n := 0
	err = l.Store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(veriland.Production, bucketName), storage.Range{}, func(k, v []byte) error {
			n++
			require.Len(t, k, 32)
			require.False(t, bytes.Contains(k, []byte(ip)))
			require.False(t, bytes.Contains(v, []byte(ip)))
			return nil
		})
	})
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

func TestPrune(t *testing.T) {
	l, clock := newLimiter(t)
	ctx := context.Background()
	p := WalletPolicy()

	// More records than one prune transaction examines, half of them idle.
	now := clock.Now().UnixNano()
	const n = pruneChunk + 500
	err := l.Store.Update(ctx, func(tx storage.Tx) error {
		for i := range n {
			tat := now - int64(time.Second) // idle
			if i%2 == 0 {
				tat = now + int64(time.Second) // still within its burst window
			}
			env := veriland.Sandbox
			if i%3 == 0 {
				env = veriland.Production
			}
			if err := tx.Put(storage.Bucket(env, bucketName), recordKey(p.Name, fmt.Sprint(i)), encodeTAT(tat)); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)

	deleted, err := l.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Equal(t, n/2, deleted)

	deleted, err = l.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Zero(t, deleted)

	clock.Advance(time.Second)
	deleted, err = l.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Equal(t, n/2, deleted)
}

func TestPruneLosesNoState(t *testing.T) {
	l, clock := newLimiter(t)
	ctx := context.Background()
	p := WalletPolicy()
	for range p.Burst {
		_, err := l.Allow(ctx, veriland.Sandbox, "k", p)
		require.NoError(t, err)
	}
	deleted, err := l.Prune(ctx, clock.Now())
	require.NoError(t, err)
	require.Zero(t, deleted, "a key still refilling must survive")
	d, err := l.Allow(ctx, veriland.Sandbox, "k", p)
	require.NoError(t, err)
	require.False(t, d.Allowed)
}
