package lease_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/lease"
)

func TestAcquire(t *testing.T) {
	const ttl = 10 * time.Second
	t0 := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	// Each step runs op on one contender at the clock's offset from t0, and expects
	// err, and (when err is nil) the stored holder and term.
	type step struct {
		at     time.Duration
		who    string // a, b, or a2: a second Lease value with a's holder id
		op     string // acquire, release, check
		err    error
		holder string
		term   uint64
	}
	steps := []step{
		{0, "a", "check", lease.ErrLost, "", 0},
		{0, "a", "acquire", nil, "a", 1},
		{1 * time.Second, "b", "acquire", lease.ErrHeld, "a", 1},
		{1 * time.Second, "a2", "acquire", lease.ErrHeld, "a", 1}, // same id, other tenure
		{5 * time.Second, "a", "acquire", nil, "a", 1},            // renewal: until 15 s
		{5 * time.Second, "a", "check", nil, "a", 1},
		{14 * time.Second, "b", "acquire", lease.ErrHeld, "a", 1},
		{15 * time.Second, "a", "check", lease.ErrLost, "a", 1}, // ran out
		{15 * time.Second, "b", "acquire", nil, "b", 2},
		{16 * time.Second, "a", "acquire", lease.ErrHeld, "b", 2},
		{16 * time.Second, "a", "release", nil, "b", 2}, // not a's to release
		{16 * time.Second, "b", "check", nil, "b", 2},
		{17 * time.Second, "b", "release", nil, "", 2},
		{17 * time.Second, "b", "check", lease.ErrLost, "", 2},
		{17 * time.Second, "a", "acquire", nil, "a", 3},
		{40 * time.Second, "a", "acquire", nil, "a", 4}, // expired meanwhile: a new tenure
	}
	forEachBackend(t, 3, func(t *testing.T, stores []storage.Store) {
		clock := clocktest.New(t0)
		leases := map[string]*lease.Lease{
			"a":  {Store: stores[0], Name: "anchoring", Holder: "a", TTL: ttl, Now: clock.Now},
			"b":  {Store: stores[1], Name: "anchoring", Holder: "b", TTL: ttl, Now: clock.Now},
			"a2": {Store: stores[2], Name: "anchoring", Holder: "a", TTL: ttl, Now: clock.Now},
		}
		// Another name is another lease.
		other := &lease.Lease{Store: stores[0], Name: "sweeper", Holder: "b", TTL: ttl, Now: clock.Now}
		ctx := context.Background()
		for i, s := range steps {
			clock.Set(t0.Add(s.at))
			l := leases[s.who]
			var err error
			switch s.op {
			case "acquire":
				var st lease.State
				st, err = l.Acquire(ctx)
				if err == nil && !st.Until.Equal(clock.Now().Add(ttl)) {
					t.Fatalf("step %d: until %v, want now + TTL", i, st.Until)
				}
			case "release":
				err = l.Release(ctx)
			case "check":
				err = l.Check(ctx)
			}
			if !errors.Is(err, s.err) {
				t.Fatalf("step %d (%s %s at %v): err %v, want %v", i, s.who, s.op, s.at, err, s.err)
			}
			st, err := l.Get(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if st.Holder != s.holder || st.Term != s.term {
				t.Fatalf("step %d (%s %s at %v): stored %+v, want holder %q term %d", i, s.who, s.op, s.at, st, s.holder, s.term)
			}
		}
		if st, err := other.Acquire(ctx); err != nil || st.Term != 1 {
			t.Fatalf("another name: %+v, %v", st, err)
		}
	})
}

// Contenders racing for a free lease: exactly one wins each round, and terms grow.
func TestAcquireRace(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, stores []storage.Store) {
		ctx := context.Background()
		leases := make([]*lease.Lease, 8)
		for i := range leases {
			leases[i] = &lease.Lease{Store: stores[i%len(stores)], Name: "race", Holder: string(rune('a' + i)), TTL: time.Minute}
		}
		var last uint64
		for round := range 10 {
			var mu sync.Mutex
			var winners []*lease.Lease
			var terms []uint64
			var wg sync.WaitGroup
			for _, l := range leases {
				wg.Go(func() {
					st, err := l.Acquire(ctx)
					switch {
					case err == nil:
						mu.Lock()
						winners, terms = append(winners, l), append(terms, st.Term)
						mu.Unlock()
					case !errors.Is(err, lease.ErrHeld):
						t.Errorf("round %d: %s: %v", round, l.Holder, err)
					}
				})
			}
			wg.Wait()
			if len(winners) != 1 {
				t.Fatalf("round %d: %d winners, want 1", round, len(winners))
			}
			if terms[0] != last+1 {
				t.Fatalf("round %d: term %d after %d", round, terms[0], last)
			}
			last = terms[0]
			for _, l := range leases {
				err := l.Check(ctx)
				if (l == winners[0]) != (err == nil) {
					t.Fatalf("round %d: %s: Check = %v", round, l.Holder, err)
				}
			}
			if err := winners[0].Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestLeaseRequiresNameHolderStore(t *testing.T) {
	for _, l := range []*lease.Lease{
		{Name: "x", Holder: "a"},
		{Store: backends[0].open(t, 1)[0], Holder: "a"},
		{Store: backends[0].open(t, 1)[0], Name: "x"},
	} {
		if _, err := l.Acquire(context.Background()); err == nil {
			t.Errorf("%+v: Acquire succeeded", l)
		}
		if err := l.Run(context.Background(), func(context.Context) error { return nil }); err == nil {
			t.Errorf("%+v: Run succeeded", l)
		}
	}
}

func TestCorruptRecord(t *testing.T) {
	store := backends[0].open(t, 1)[0]
	ctx := context.Background()
	if err := store.Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Global("leases"), []byte("x"), []byte("{"))
	}); err != nil {
		t.Fatal(err)
	}
	l := &lease.Lease{Store: store, Name: "x", Holder: "a"}
	if _, err := l.Acquire(ctx); !errors.Is(err, lease.ErrCorrupt) {
		t.Fatalf("Acquire on a corrupt record: %v", err)
	}
}
