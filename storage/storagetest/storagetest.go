package storagetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// OpenFunc opens the backend under test on path and returns the store; it fails t
// when it cannot.
//
// Every subtest gets its own path: it does not exist yet, and its parent directory is
// private to the subtest and removed after it. A file-based backend creates its file
// or directory there. A backend without files (a database server) treats path as a
// name only: it must return a store over empty data for a path it has not seen, and
// a store over the same data for a path it has seen, after that store was closed
// (the suite reopens stores to check durability). It may, for example, derive a
// schema name from path.
//
// The suite closes every store it opens; open must not register a Close of its own.
type OpenFunc func(t *testing.T, path string) storage.Store

// Run runs the conformance suite against the backend that open opens. Each check is
// a parallel subtest of t.
func Run(t *testing.T, open OpenFunc) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, h *harness)
	}{
		{"Basic", testBasic},
		{"SlicesNotRetained", testSlicesNotRetained},
		{"ReadOnlyView", testReadOnlyView},
		{"Atomicity", testAtomicity},
		{"ConcurrentCounter", testConcurrentCounter},
		{"MixedBatch", testMixedBatch},
		{"Scan", testScan},
		{"ScanModel", testScanModel},
		{"ScanStopAndError", testScanStopAndError},
		{"ScanPages", testScanPages},
		{"ScanOwnWrites", testScanOwnWrites},
		{"ScanOwnWritesModel", testScanOwnWritesModel},
		{"SnapshotView", testSnapshotView},
		{"SnapshotInvariant", testSnapshotInvariant},
		{"Reopen", testReopen},
		{"Context", testContext},
		{"EnvironmentIsolation", testEnvironmentIsolation},
		{"Closed", testClosed},
		{"ViewOne", testViewOne},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, &harness{open: open, path: filepath.Join(t.TempDir(), "store")})
		})
	}
}

// harness opens the stores of one subtest.
type harness struct {
	open OpenFunc
	path string
}

// store opens the subtest's store and closes it when the subtest ends.
func (h *harness) store(t *testing.T) storage.Store {
	t.Helper()
	s := h.reopen(t)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// reopen opens the subtest's store; the caller closes it.
func (h *harness) reopen(t *testing.T) storage.Store {
	t.Helper()
	s := h.open(t, h.path)
	require.NotNil(t, s, "open returned a nil store")
	return s
}

// kv is one key and value, for expectations.
type kv struct{ key, value string }

func (p kv) String() string { return fmt.Sprintf("%q=%q", p.key, p.value) }

func put(t *testing.T, s storage.Store, bucket string, pairs ...kv) {
	t.Helper()
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for _, p := range pairs {
			if err := tx.Put(bucket, []byte(p.key), []byte(p.value)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// get reads one key in its own View.
func get(t *testing.T, s storage.Store, bucket, key string) ([]byte, error) {
	t.Helper()
	var v []byte
	err := s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		v, err = tx.Get(bucket, []byte(key))
		return err
	})
	return v, err
}

func requireValue(t *testing.T, s storage.Store, bucket, key, want string) {
	t.Helper()
	v, err := get(t, s, bucket, key)
	require.NoError(t, err, "get %s %q", bucket, key)
	require.Equal(t, want, string(v), "get %s %q", bucket, key)
}

func requireMissing(t *testing.T, s storage.Store, bucket, key string) {
	t.Helper()
	_, err := get(t, s, bucket, key)
	require.ErrorIs(t, err, storage.ErrNotFound, "get %s %q", bucket, key)
}

// scan collects the pairs of bucket in r.
func scan(tx storage.Tx, bucket string, r storage.Range) ([]kv, error) {
	var out []kv
	err := tx.Scan(bucket, r, func(k, v []byte) error {
		out = append(out, kv{string(k), string(v)})
		return nil
	})
	return out, err
}

// contents returns every pair of bucket in key order, in its own View.
func contents(t *testing.T, s storage.Store, bucket string) []kv {
	t.Helper()
	var out []kv
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		out, err = scan(tx, bucket, storage.Range{})
		return err
	}))
	return out
}

func u64(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func b64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// add reads the counter at key in bucket (0 when missing) and stores it plus delta.
func add(tx storage.Tx, bucket string, key []byte, delta int64) (uint64, error) {
	v, err := tx.Get(bucket, key)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return 0, err
	}
	n := uint64(int64(u64(v)) + delta)
	return n, tx.Put(bucket, key, b64(n))
}

func testBasic(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "basic"

	// A missing bucket: reads find nothing, deletes are no-ops.
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Get("no-such-bucket", []byte("k"))
		require.ErrorIs(t, err, storage.ErrNotFound)
		got, err := scan(tx, "no-such-bucket", storage.Range{})
		require.NoError(t, err)
		require.Empty(t, got)
		got, err = scan(tx, "no-such-bucket", storage.Range{Prefix: []byte("k"), Reverse: true})
		require.NoError(t, err)
		require.Empty(t, got)
		return nil
	}))
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Delete("no-such-bucket", []byte("k"))
	}))
	requireMissing(t, s, "no-such-bucket", "k")

	put(t, s, b, kv{"a", "1"}, kv{"b", "2"})
	requireValue(t, s, b, "a", "1")
	requireValue(t, s, b, "b", "2")
	requireMissing(t, s, b, "c")
	requireMissing(t, s, b, "A")
	requireMissing(t, s, b, "a\x00")

	// Buckets are separate key spaces.
	requireMissing(t, s, "basic2", "a")
	put(t, s, "basic2", kv{"a", "other"})
	requireValue(t, s, b, "a", "1")
	requireValue(t, s, "basic2", "a", "other")

	// Overwrite, delete, delete of a missing key, and reads of own writes.
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		require.NoError(t, tx.Put(b, []byte("a"), []byte("1b")))
		v, err := tx.Get(b, []byte("a"))
		require.NoError(t, err)
		require.Equal(t, "1b", string(v))
		require.NoError(t, tx.Delete(b, []byte("b")))
		_, err = tx.Get(b, []byte("b"))
		require.ErrorIs(t, err, storage.ErrNotFound)
		require.NoError(t, tx.Delete(b, []byte("never-there")))
		return nil
	}))
	requireValue(t, s, b, "a", "1b")
	requireMissing(t, s, b, "b")

	// Empty and nil values are stored as empty values, not as missing keys.
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		require.NoError(t, tx.Put(b, []byte("empty"), []byte{}))
		return tx.Put(b, []byte("nil"), nil)
	}))
	for _, k := range []string{"empty", "nil"} {
		v, err := get(t, s, b, k)
		require.NoError(t, err, k)
		require.Empty(t, v, k)
	}

	// Binary keys and values keep every byte.
	bin := []byte{0x00, 0xff, 0x00, 0x80}
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Put(b, bin, bin)
	}))
	v, err := get(t, s, b, string(bin))
	require.NoError(t, err)
	require.Equal(t, bin, v)

	require.Equal(t, []kv{{string(bin), string(bin)}, {"a", "1b"}, {"empty", ""}, {"nil", ""}}, contents(t, s, b))
}

func testSlicesNotRetained(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "slices"

	// Slices passed to Put may be reused by the caller at once.
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		key, val := []byte("k1"), []byte("v1")
		require.NoError(t, tx.Put(b, key, val))
		copy(key, "zz")
		copy(val, "XX")
		key, val = []byte("k2"), []byte("v2")
		require.NoError(t, tx.Put(b, key, val))
		v, err := tx.Get(b, []byte("k2"))
		require.NoError(t, err)
		require.Equal(t, "v2", string(v))
		copy(key, "zz")
		copy(val, "XX")
		return nil
	}))
	require.Equal(t, []kv{{"k1", "v1"}, {"k2", "v2"}}, contents(t, s, b))

	// Slices returned by Get and Scan belong to the caller, inside and after the tx.
	var kept []byte
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		v, err := tx.Get(b, []byte("k1"))
		require.NoError(t, err)
		copy(v, "XX")
		v, err = tx.Get(b, []byte("k1"))
		require.NoError(t, err)
		require.Equal(t, "v1", string(v))
		kept = v

		var keys, vals [][]byte
		require.NoError(t, tx.Scan(b, storage.Range{}, func(k, v []byte) error {
			keys, vals = append(keys, k), append(vals, v) // kept without copying
			return nil
		}))
		require.Equal(t, [][]byte{[]byte("k1"), []byte("k2")}, keys)
		require.Equal(t, [][]byte{[]byte("v1"), []byte("v2")}, vals)
		for i := range keys {
			copy(keys[i], "zz")
			copy(vals[i], "XX")
		}
		got, err := scan(tx, b, storage.Range{})
		require.NoError(t, err)
		require.Equal(t, []kv{{"k1", "v1"}, {"k2", "v2"}}, got)
		return nil
	}))
	// A later write does not show through a slice read earlier.
	put(t, s, b, kv{"k1", "new"})
	require.Equal(t, "v1", string(kept))
	requireValue(t, s, b, "k1", "new")
	requireMissing(t, s, b, "zz")
}

func testReadOnlyView(t *testing.T, h *harness) {
	s := h.store(t)
	put(t, s, "ro", kv{"a", "1"})
	errMine := errors.New("mine")
	err := s.View(t.Context(), func(tx storage.Tx) error {
		require.ErrorIs(t, tx.Put("ro", []byte("b"), []byte("2")), storage.ErrReadOnly)
		require.ErrorIs(t, tx.Put("ro-new", []byte("b"), []byte("2")), storage.ErrReadOnly)
		require.ErrorIs(t, tx.Delete("ro", []byte("a")), storage.ErrReadOnly)
		v, err := tx.Get("ro", []byte("a"))
		require.NoError(t, err)
		require.Equal(t, "1", string(v))
		return errMine
	})
	require.ErrorIs(t, err, errMine, "View returns the function's error")
	require.Equal(t, []kv{{"a", "1"}}, contents(t, s, "ro"))
	require.Empty(t, contents(t, s, "ro-new"))

	// A panic in View reaches the caller and releases the transaction: writers and
	// Close (at the end of the subtest) go on.
	require.PanicsWithValue(t, panicValue{3}, func() {
		_ = s.View(t.Context(), func(tx storage.Tx) error { panic(panicValue{3}) })
	})
	put(t, s, "ro", kv{"b", "2"})
	require.Equal(t, []kv{{"a", "1"}, {"b", "2"}}, contents(t, s, "ro"))
}

// panicValue is what the panicking transactions of the suite panic with.
type panicValue struct{ n int }

func testAtomicity(t *testing.T, h *harness) {
	s := h.store(t)
	errBoom := errors.New("boom")
	tests := []struct {
		name string
		end  func() error // how the function ends after its writes
		want func(t *testing.T, run func() error)
	}{
		{
			name: "error",
			end:  func() error { return errBoom },
			want: func(t *testing.T, run func() error) { require.ErrorIs(t, run(), errBoom) },
		},
		{
			name: "wrapped error",
			end:  func() error { return fmt.Errorf("op: %w", errBoom) },
			want: func(t *testing.T, run func() error) { require.ErrorIs(t, run(), errBoom) },
		},
		{
			name: "storage error",
			end:  func() error { return storage.ErrNotFound },
			want: func(t *testing.T, run func() error) { require.ErrorIs(t, run(), storage.ErrNotFound) },
		},
		{
			name: "panic",
			end:  func() error { panic(panicValue{7}) },
			want: func(t *testing.T, run func() error) {
				require.PanicsWithValue(t, panicValue{7}, func() { _ = run() })
			},
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, nb := fmt.Sprintf("atomic%d", i), fmt.Sprintf("atomic-new%d", i)
			put(t, s, b, kv{"keep", "1"}, kv{"gone", "2"})
			tc.want(t, func() error {
				return s.Update(t.Context(), func(tx storage.Tx) error {
					for _, p := range []kv{{"keep", "changed"}, {"x", "3"}, {"y", "4"}} {
						if err := tx.Put(b, []byte(p.key), []byte(p.value)); err != nil {
							return err
						}
					}
					if err := tx.Delete(b, []byte("gone")); err != nil {
						return err
					}
					if err := tx.Put(nb, []byte("k"), []byte("v")); err != nil {
						return err
					}
					return tc.end()
				})
			})
			require.Equal(t, []kv{{"gone", "2"}, {"keep", "1"}}, contents(t, s, b))
			require.Empty(t, contents(t, s, nb))

			// The store still works after the failed transaction.
			put(t, s, b, kv{"after", "ok"})
			requireValue(t, s, b, "after", "ok")
		})
	}
}

func testConcurrentCounter(t *testing.T, h *harness) {
	s := h.store(t)
	const writers, increments = 64, 100
	key := []byte("n")
	errs := make(chan error, writers)
	start := make(chan struct{})
	for range writers {
		go func() {
			<-start
			for range increments {
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					_, err := add(tx, "counter", key, 1)
					return err
				}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	close(start)
	for range writers {
		require.NoError(t, <-errs)
	}
	v, err := get(t, s, "counter", "n")
	require.NoError(t, err)
	require.Equal(t, uint64(writers*increments), u64(v), "lost updates")
}

// mixedErr is the error of one failing transaction of testMixedBatch.
type mixedErr struct{ n int }

func (e mixedErr) Error() string { return fmt.Sprintf("transaction %d fails", e.n) }

func testMixedBatch(t *testing.T, h *harness) {
	s := h.store(t)
	const rounds, n = 3, 48
	for round := range rounds {
		type result struct {
			i         int
			err       error
			recovered any
		}
		results := make(chan result, n)
		start := make(chan struct{})
		for i := range n {
			go func() {
				r := result{i: i}
				defer func() {
					r.recovered = recover()
					results <- r
				}()
				<-start
				r.err = s.Update(context.Background(), func(tx storage.Tx) error {
					key := fmt.Appendf(nil, "%d/%03d", round, i)
					if err := tx.Put("mixed", key, key); err != nil {
						return err
					}
					if _, err := add(tx, "mixed-count", []byte("n"), 1); err != nil {
						return err
					}
					switch i % 3 {
					case 1:
						return mixedErr{i}
					case 2:
						panic(panicValue{i})
					}
					return nil
				})
			}()
		}
		close(start)
		for range n {
			r := <-results
			switch r.i % 3 {
			case 0:
				require.NoError(t, r.err, "transaction %d", r.i)
				require.Nil(t, r.recovered, "transaction %d", r.i)
			case 1:
				var me mixedErr
				require.ErrorAs(t, r.err, &me, "transaction %d", r.i)
				require.Equal(t, r.i, me.n, "transaction %d got another's error", r.i)
				require.Nil(t, r.recovered, "transaction %d", r.i)
			case 2:
				require.Equal(t, panicValue{r.i}, r.recovered, "transaction %d", r.i)
			}
		}
	}
	var want []kv
	for round := range rounds {
		for i := 0; i < n; i += 3 {
			k := fmt.Sprintf("%d/%03d", round, i)
			want = append(want, kv{k, k})
		}
	}
	require.Equal(t, want, contents(t, s, "mixed"))
	v, err := get(t, s, "mixed-count", "n")
	require.NoError(t, err)
	require.Equal(t, uint64(len(want)), u64(v), "only the committed transactions count")
}

func testReopen(t *testing.T, h *harness) {
	s := h.reopen(t)
	want := map[string]string{}
	for i := range 3 {
		pairs := make([]kv, 0, 10)
		for j := range 10 {
			p := kv{fmt.Sprintf("seq-%d-%d", i, j), fmt.Sprint(i * j)}
			pairs, want[p.key] = append(pairs, p), p.value
		}
		put(t, s, "reopen", pairs...)
	}
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			for j := range 5 {
				k := fmt.Sprintf("par-%d-%d", w, j)
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					return tx.Put("reopen", []byte(k), []byte(k))
				}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
	for w := range 8 {
		for j := range 5 {
			k := fmt.Sprintf("par-%d-%d", w, j)
			want[k] = k
		}
	}
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for j := range 10 {
			k := fmt.Sprintf("seq-1-%d", j)
			delete(want, k)
			if err := tx.Delete("reopen", []byte(k)); err != nil {
				return err
			}
		}
		return tx.Put("reopen", []byte("seq-0-0"), []byte("overwritten"))
	}))
	want["seq-0-0"] = "overwritten"
	require.Error(t, s.Update(t.Context(), func(tx storage.Tx) error {
		if err := tx.Put("reopen", []byte("rolled-back"), []byte("x")); err != nil {
			return err
		}
		return errors.New("roll back")
	}))
	require.NoError(t, s.Close())

	check := func(s storage.Store) {
		t.Helper()
		got := map[string]string{}
		for _, p := range contents(t, s, "reopen") {
			got[p.key] = p.value
		}
		require.Equal(t, want, got)
	}
	s = h.reopen(t)
	check(s)
	put(t, s, "reopen", kv{"second", "session"})
	want["second"] = "session"
	require.NoError(t, s.Close())

	s = h.store(t)
	check(s)
}

func testContext(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "ctx"
	put(t, s, b, kv{"keep", "1"})

	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()

	before := []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"cancelled", cancelled, context.Canceled},
		{"deadline exceeded", expired, context.DeadlineExceeded},
	}
	for _, tc := range before {
		t.Run("Update/"+tc.name, func(t *testing.T) {
			err := s.Update(tc.ctx, func(tx storage.Tx) error {
				return tx.Put(b, []byte("new"), []byte("x"))
			})
			require.ErrorIs(t, err, tc.want)
			requireMissing(t, s, b, "new")
		})
		t.Run("View/"+tc.name, func(t *testing.T) {
			err := s.View(tc.ctx, func(tx storage.Tx) error {
				_, err := tx.Get(b, []byte("keep"))
				return err
			})
			require.ErrorIs(t, err, tc.want)
		})
	}

	during := []struct {
		name string
		fn   func(tx storage.Tx, cancel func()) error
	}{
		{"returns the error", func(tx storage.Tx, cancel func()) error {
			if err := tx.Put(b, []byte("new"), []byte("x")); err != nil {
				return err
			}
			cancel()
			return tx.Put(b, []byte("new2"), []byte("x"))
		}},
		{"ignores the error", func(tx storage.Tx, cancel func()) error {
			_ = tx.Put(b, []byte("new"), []byte("x"))
			cancel()
			_ = tx.Put(b, []byte("new2"), []byte("x"))
			return nil
		}},
	}
	for _, tc := range during {
		t.Run("Update/cancelled during, function "+tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			err := s.Update(ctx, func(tx storage.Tx) error { return tc.fn(tx, cancel) })
			require.ErrorIs(t, err, context.Canceled)
			requireMissing(t, s, b, "new")
			requireMissing(t, s, b, "new2")
		})
	}

	t.Run("Scan/cancelled during", func(t *testing.T) {
		pairs := make([]kv, 100)
		for i := range pairs {
			pairs[i] = kv{fmt.Sprintf("%03d", i), "v"}
		}
		put(t, s, "ctx-scan", pairs...)
		for _, reverse := range []bool{false, true} {
			ctx, cancel := context.WithCancel(t.Context())
			visited := 0
			err := s.View(ctx, func(tx storage.Tx) error {
				return tx.Scan("ctx-scan", storage.Range{Reverse: reverse}, func(k, v []byte) error {
					visited++
					if visited == 10 {
						cancel()
					}
					return nil
				})
			})
			cancel()
			require.ErrorIs(t, err, context.Canceled, "reverse=%v", reverse)
			require.Less(t, visited, len(pairs), "reverse=%v: the scan went on after cancellation", reverse)
		}
	})
}

func testClosed(t *testing.T, h *harness) {
	s := h.reopen(t)
	put(t, s, "closed", kv{"a", "1"})
	require.NoError(t, s.Close())

	require.NotPanics(t, func() {
		called := false
		err := s.View(t.Context(), func(tx storage.Tx) error {
			called = true
			_, err := tx.Get("closed", []byte("a"))
			return err
		})
		require.ErrorIs(t, err, storage.ErrClosed)
		require.False(t, called, "View ran its function on a closed store")

		err = s.Update(t.Context(), func(tx storage.Tx) error {
			called = true
			return tx.Put("closed", []byte("b"), []byte("2"))
		})
		require.ErrorIs(t, err, storage.ErrClosed)
		require.False(t, called, "Update ran its function on a closed store")

		_ = s.Close() // a second Close may fail, but must not panic
	})

	s = h.store(t)
	requireValue(t, s, "closed", "a", "1")
	requireMissing(t, s, "closed", "b")
}

// requireScan checks a Scan of bucket in r against want, as a forward and a reverse
// scan.
func requireScan(t *testing.T, tx storage.Tx, bucket string, r storage.Range, want []string) {
	t.Helper()
	for _, reverse := range []bool{false, true} {
		r.Reverse = reverse
		got, err := scan(tx, bucket, r)
		require.NoError(t, err)
		keys := make([]string, 0, len(got))
		for _, p := range got {
			require.Equal(t, "v:"+p.key, p.value, "value of %q", p.key)
			keys = append(keys, p.key)
		}
		exp := make([]string, 0, len(want))
		if reverse {
			for i := len(want) - 1; i >= 0; i-- {
				exp = append(exp, want[i])
			}
		} else {
			exp = append(exp, want...)
		}
		require.Equal(t, exp, keys, "range %s", fmtRange(r))
	}
}

func fmtRange(r storage.Range) string {
	q := func(b []byte) string {
		if b == nil {
			return "nil"
		}
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("{Prefix:%s Start:%s End:%s Reverse:%v}", q(r.Prefix), q(r.Start), q(r.End), r.Reverse)
}

// sortedKeys reports whether keys are in strictly increasing byte order.
func sortedKeys(keys []string) bool {
	for i := 1; i < len(keys); i++ {
		if bytes.Compare([]byte(keys[i-1]), []byte(keys[i])) >= 0 {
			return false
		}
	}
	return true
}
