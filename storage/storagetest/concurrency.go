package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// testSnapshotView holds one View open while a writer commits several transactions,
// and checks that the View sees none of them.
func testSnapshotView(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "snap"

	// Grow the store and free the space again first, so that a backend that maps its
	// file has room to commit without remapping while the View below is open.
	filler := make([]kv, 64)
	for i := range filler {
		filler[i] = kv{fmt.Sprintf("f%03d", i), string(make([]byte, 1024))}
	}
	put(t, s, "filler", filler...)
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for _, p := range filler {
			if err := tx.Delete("filler", []byte(p.key)); err != nil {
				return err
			}
		}
		return nil
	}))
	put(t, s, b, kv{"a", "0"}, kv{"b", "0"})

	const commits = 3
	startWriter := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		<-startWriter
		for i := 1; i <= commits; i++ {
			v := []byte(fmt.Sprint(i))
			if err := s.Update(context.Background(), func(tx storage.Tx) error {
				for _, k := range []string{"a", "b", "c"} {
					if err := tx.Put(b, []byte(k), v); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				writerDone <- err
				return
			}
		}
		writerDone <- nil
	}()

	var first, second []kv
	var errC error
	err := s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		if first, err = scan(tx, b, storage.Range{}); err != nil {
			return err
		}
		close(startWriter)
		select {
		case err := <-writerDone:
			if err != nil {
				return fmt.Errorf("writer: %w", err)
			}
		case <-time.After(20 * time.Second):
			return errors.New("a writer could not commit while a View was open")
		}
		_, errC = tx.Get(b, []byte("c"))
		second, err = scan(tx, b, storage.Range{Reverse: true})
		return err
	})
	require.NoError(t, err)
	require.Equal(t, []kv{{"a", "0"}, {"b", "0"}}, first)
	require.Equal(t, []kv{{"b", "0"}, {"a", "0"}}, second, "the View saw a later commit")
	require.ErrorIs(t, errC, storage.ErrNotFound, "the View saw a later commit")
	want := fmt.Sprint(commits)
	require.Equal(t, []kv{{"a", want}, {"b", want}, {"c", want}}, contents(t, s, b))
}

// testSnapshotInvariant moves amounts between accounts in concurrent transactions
// while concurrent Views check that the total never changes.
func testSnapshotInvariant(t *testing.T, h *harness) {
	s := h.store(t)
	const (
		b         = "bank"
		accounts  = 8
		initial   = 1000
		writers   = 4
		transfers = 25
		readers   = 2
	)
	acct := func(i int) []byte { return fmt.Appendf(nil, "acct-%02d", i) }
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for i := range accounts {
			if err := tx.Put(b, acct(i), b64(initial)); err != nil {
				return err
			}
		}
		return nil
	}))

	var writing atomic.Int32
	writing.Store(writers)
	errs := make(chan error, writers+readers)
	for w := range writers {
		go func() {
			defer writing.Add(-1)
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range transfers {
				from, to := rng.IntN(accounts), rng.IntN(accounts)
				amount := int64(1 + rng.IntN(50))
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					if _, err := add(tx, b, acct(from), -amount); err != nil {
						return err
					}
					_, err := add(tx, b, acct(to), amount)
					return err
				}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	var views atomic.Int64
	for range readers {
		go func() {
			for {
				done := writing.Load() == 0 // one more View after the writers finish
				if err := s.View(context.Background(), func(tx storage.Tx) error {
					first, err := tx.Get(b, acct(0))
					if err != nil {
						return err
					}
					var sum int64
					n := 0
					if err := tx.Scan(b, storage.Range{Prefix: []byte("acct-")}, func(k, v []byte) error {
						sum += int64(u64(v))
						n++
						runtime.Gosched()
						return nil
					}); err != nil {
						return err
					}
					if n != accounts || sum != accounts*initial {
						return fmt.Errorf("a View saw %d accounts holding %d, want %d holding %d", n, sum, accounts, accounts*initial)
					}
					again, err := tx.Get(b, acct(0))
					if err != nil {
						return err
					}
					if string(first) != string(again) {
						return errors.New("a View read two values of one key")
					}
					return nil
				}); err != nil {
					errs <- err
					return
				}
				views.Add(1)
				if done {
					errs <- nil
					return
				}
			}
		}()
	}
	for range writers + readers {
		require.NoError(t, <-errs)
	}
	require.Positive(t, views.Load())
}

func testEnvironmentIsolation(t *testing.T, h *harness) {
	s := h.store(t)
	sandbox := storage.Bucket(veriland.Sandbox, "x")
	production := storage.Bucket(veriland.Production, "x")
	global := storage.Global("x")
	require.NotEqual(t, sandbox, production)
	require.NotEqual(t, sandbox, global)
	require.NotEqual(t, production, global)

	put(t, s, sandbox, kv{"k1", "sandbox"}, kv{"k2", "sandbox"}, kv{"shared", "sandbox"})

	// Production sees none of the sandbox keys, by Get or by any Scan.
	ranges := []storage.Range{
		{},
		{Reverse: true},
		{Prefix: []byte("k")},
		{Prefix: []byte("k"), Reverse: true},
		{Start: []byte("k1"), End: []byte("z")},
		{Prefix: []byte{}},
	}
	for _, bucket := range []string{production, global} {
		require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
			for _, k := range []string{"k1", "k2", "shared"} {
				_, err := tx.Get(bucket, []byte(k))
				require.ErrorIs(t, err, storage.ErrNotFound, "%s reads %s key %q", bucket, sandbox, k)
			}
			for _, r := range ranges {
				got, err := scan(tx, bucket, r)
				require.NoError(t, err)
				require.Empty(t, got, "%s scans %s keys with %s", bucket, sandbox, fmtRange(r))
			}
			return nil
		}))
	}

	// The same key in each environment holds each environment's own value, and
	// deleting it in one leaves the other.
	put(t, s, production, kv{"shared", "production"}, kv{"p", "production"})
	put(t, s, global, kv{"shared", "global"})
	require.Equal(t, []kv{{"k1", "sandbox"}, {"k2", "sandbox"}, {"shared", "sandbox"}}, contents(t, s, sandbox))
	require.Equal(t, []kv{{"p", "production"}, {"shared", "production"}}, contents(t, s, production))
	require.Equal(t, []kv{{"shared", "global"}}, contents(t, s, global))

	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Delete(production, []byte("shared"))
	}))
	requireMissing(t, s, production, "shared")
	requireValue(t, s, sandbox, "shared", "sandbox")
	requireValue(t, s, global, "shared", "global")
}
