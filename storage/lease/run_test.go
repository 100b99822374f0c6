package lease_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/lease"
)

// leader is one contender running Run: it records when its function runs.
type leader struct {
	lease   *lease.Lease
	cancel  context.CancelFunc
	done    chan struct{} // closed when Run has returned
	err     error         // Run's result, once done
	started chan struct{} // one send per start of fn
	stopped chan error    // fn's context cause, one per stop
}

func startLeader(t *testing.T, store storage.Store, holder string, ttl time.Duration, running *atomic.Int32) *leader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ld := &leader{
		lease:   &lease.Lease{Store: store, Name: "anchoring", Holder: holder, TTL: ttl},
		cancel:  cancel,
		done:    make(chan struct{}),
		started: make(chan struct{}, 16),
		stopped: make(chan error, 16),
	}
	go func() {
		defer close(ld.done)
		ld.err = ld.lease.Run(ctx, func(ctx context.Context) error {
			if running.Add(1) != 1 {
				t.Errorf("%s runs while another holder runs", holder)
			}
			ld.started <- struct{}{}
			<-ctx.Done()
			running.Add(-1)
			ld.stopped <- context.Cause(ctx)
			return ctx.Err()
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-ld.done
	})
	return ld
}

func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

func notWithin[T any](t *testing.T, ch <-chan T, d time.Duration, what string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatalf("unexpected %s", what)
	case <-time.After(d):
	}
}

// A clean shutdown hands over at once: the leader's function has returned before the
// standby's starts.
func TestRunHandsOverOnShutdown(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, stores []storage.Store) {
		var running atomic.Int32
		a := startLeader(t, stores[0], "a", 600*time.Millisecond, &running)
		wait(t, a.started, "a to lead")
		b := startLeader(t, stores[1], "b", 600*time.Millisecond, &running)
		// b stays a standby while a renews, over several TTLs.
		notWithin(t, b.started, 1500*time.Millisecond, "b leading while a renews")

		a.cancel()
		if cause := wait(t, a.stopped, "a to stop"); !errors.Is(cause, context.Canceled) {
			t.Fatalf("a stopped with cause %v, want context.Canceled", cause)
		}
		wait(t, a.done, "a's Run to return")
		if a.err != nil {
			t.Fatalf("a's Run: %v", a.err)
		}
		wait(t, b.started, "b to take over")
		st, err := b.lease.Get(context.Background())
		if err != nil || st.Holder != "b" || st.Term != 2 {
			t.Fatalf("after the handover: %+v, %v", st, err)
		}
	})
}

// A leader cut off from the store stops by its own clock (its renewals fail), and the
// standby takes over once the lease has run out, with the next term.
func TestRunStopsWhenRenewalFails(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, stores []storage.Store) {
		var running atomic.Int32
		cut := &partitionable{Store: stores[0]}
		a := startLeader(t, cut, "a", 600*time.Millisecond, &running)
		wait(t, a.started, "a to lead")
		b := startLeader(t, stores[1], "b", 600*time.Millisecond, &running)

		cut.cut.Store(true)
		if cause := wait(t, a.stopped, "a to stop"); !errors.Is(cause, lease.ErrLost) {
			t.Fatalf("a stopped with cause %v, want ErrLost", cause)
		}
		wait(t, b.started, "b to take over")
		if err := a.lease.Check(context.Background()); err == nil {
			t.Fatal("a still passes Check")
		}
		st, err := b.lease.Get(context.Background())
		if err != nil || st.Holder != "b" || st.Term != 2 {
			t.Fatalf("after the takeover: %+v, %v", st, err)
		}

		// Back on the network, a is a standby: it does not lead again while b holds.
		cut.cut.Store(false)
		notWithin(t, a.started, time.Second, "a leading again while b holds")
	})
}

// A leader whose lease is taken from under it (its record overwritten, as a holder
// after a long pause would find) stops at its next renewal.
func TestRunStopsWhenLeaseIsTaken(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, stores []storage.Store) {
		var running atomic.Int32
		a := startLeader(t, stores[0], "a", 600*time.Millisecond, &running)
		wait(t, a.started, "a to lead")
		if err := a.lease.Check(context.Background()); err != nil {
			t.Fatalf("leader's Check: %v", err)
		}
		err := stores[0].Update(context.Background(), func(tx storage.Tx) error {
			return tx.Put(storage.Global("leases"), []byte("anchoring"),
				[]byte(`{"holder":"z","until":"2999-01-01T00:00:00Z","term":9}`))
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.lease.Check(context.Background()); !errors.Is(err, lease.ErrLost) {
			t.Fatalf("Check after the takeover: %v", err)
		}
		if cause := wait(t, a.stopped, "a to stop"); !errors.Is(cause, lease.ErrLost) {
			t.Fatalf("a stopped with cause %v, want ErrLost", cause)
		}
		// a's release on losing does not free z's lease.
		time.Sleep(100 * time.Millisecond)
		st, err := a.lease.Get(context.Background())
		if err != nil || st.Holder != "z" || st.Term != 9 {
			t.Fatalf("z's lease changed: %+v, %v", st, err)
		}
	})
}

// fn returning on its own ends Run with its result, and the lease is released.
func TestRunReturnsFnResult(t *testing.T) {
	store := backends[0].open(t, 1)[0]
	l := &lease.Lease{Store: store, Name: "once", Holder: "a", TTL: time.Minute}
	boom := errors.New("boom")
	if err := l.Run(context.Background(), func(context.Context) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want fn's error", err)
	}
	st, err := l.Get(context.Background())
	if err != nil || st.HeldAt(time.Now()) || st.Term != 1 {
		t.Fatalf("after Run: %+v, %v (want released, term 1)", st, err)
	}
}
