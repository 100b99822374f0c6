package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bbolt "go.etcd.io/bbolt"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T, path string) storage.Store {
		s, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		return s
	})
}

func open(t *testing.T, opts bolt.Options) (*bolt.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "veriland.db")
	s, err := bolt.Open(path, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

func putFn(key string) func(storage.Tx) error {
	return func(tx storage.Tx) error { return tx.Put("b", []byte(key), []byte("v")) }
}

// concurrent runs writers goroutines that each make n Updates, all released at once,
// and returns the first error.
func concurrent(s storage.Store, writers, n int) error {
	errs := make(chan error, writers)
	start := make(chan struct{})
	for w := range writers {
		go func() {
			<-start
			for i := range n {
				if err := s.Update(context.Background(), putFn(fmt.Sprintf("%d-%d", w, i))); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	close(start)
	var first error
	for range writers {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func TestStatsGroupCommit(t *testing.T) {
	s, _ := open(t, bolt.Options{})
	const writers, n = 32, 20
	require.NoError(t, concurrent(s, writers, n))
	st := s.Stats()
	require.Equal(t, uint64(writers*n), st.Transactions)
	require.Positive(t, st.Commits)
	require.Less(t, st.Commits, st.Transactions, "concurrent writers shared no commit")
	t.Logf("%d writers x %d: %d transactions in %d commits", writers, n, st.Transactions, st.Commits)
}

// WriterTime holds the time the write lock was held, FunctionTime the part of it in
// the transaction functions, failed runs included.
func TestStatsWriterTime(t *testing.T) {
	s, _ := open(t, bolt.Options{NoSync: true})
	const hold = 5 * time.Millisecond
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		time.Sleep(hold)
		return tx.Put("b", []byte("k"), []byte("v"))
	}))
	boom := errors.New("boom")
	require.ErrorIs(t, s.Update(t.Context(), func(storage.Tx) error { time.Sleep(hold); return boom }), boom)
	st := s.Stats()
	require.GreaterOrEqual(t, st.FunctionTime, 2*hold)
	require.GreaterOrEqual(t, st.WriterTime, st.FunctionTime)
	require.Equal(t, uint64(1), st.Transactions)
}

func TestMaxBatch(t *testing.T) {
	s, _ := open(t, bolt.Options{MaxBatch: 4, NoSync: true})
	require.NoError(t, concurrent(s, 16, 10))
	st := s.Stats()
	require.Equal(t, uint64(160), st.Transactions)
	require.GreaterOrEqual(t, st.Commits, st.Transactions/4)
}

func TestLoneWriterCommitsAtOnce(t *testing.T) {
	s, _ := open(t, bolt.Options{NoSync: true})
	// Sequential Updates never wait for company: each commits on its own, and with
	// no fsync fifty of them take far less than one batching delay each would.
	const n = 50
	started := time.Now()
	for i := range n {
		require.NoError(t, s.Update(t.Context(), putFn(fmt.Sprint(i))))
		st := s.Stats()
		require.Equal(t, uint64(i+1), st.Commits)
		require.Equal(t, uint64(i+1), st.Transactions)
	}
	require.Less(t, time.Since(started), n*8*time.Millisecond, "a lone writer waited to batch")
}

func TestFileMode(t *testing.T) {
	_, path := open(t, bolt.Options{})
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
}

func TestSecondOpenTimesOut(t *testing.T) {
	s, path := open(t, bolt.Options{})
	started := time.Now()
	s2, err := bolt.Open(path, bolt.Options{LockTimeout: 100 * time.Millisecond})
	require.Error(t, err)
	require.Nil(t, s2)
	require.ErrorIs(t, err, bbolt.ErrTimeout)
	require.Less(t, time.Since(started), 2*time.Second, "the second Open ignored LockTimeout")

	// Once the first store closes, the file opens again.
	require.NoError(t, s.Close())
	s2, err = bolt.Open(path, bolt.Options{LockTimeout: time.Second})
	require.NoError(t, err)
	require.NoError(t, s2.Close())
}

func TestOpenBadPath(t *testing.T) {
	_, err := bolt.Open(filepath.Join(t.TempDir(), "missing", "dir", "x.db"), bolt.Options{})
	require.Error(t, err)
}

// A function that ends its goroutine (t.FailNow in a test) must not stall the
// writers behind it.
func TestGoexitDoesNotStallWriters(t *testing.T) {
	s, _ := open(t, bolt.Options{NoSync: true})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Update(context.Background(), func(tx storage.Tx) error {
			_ = tx.Put("b", []byte("goexit"), []byte("v"))
			runtime.Goexit()
			return nil
		})
	}()
	<-done

	finished := make(chan error, 1)
	go func() { finished <- s.Update(context.Background(), putFn("after")) }()
	select {
	case err := <-finished:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Update hung after a function called runtime.Goexit")
	}
	err := s.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Get("b", []byte("goexit"))
		return err
	})
	require.ErrorIs(t, err, storage.ErrNotFound)
}

// Goexit in the middle of a batch answers the other callers instead of stranding
// them.
func TestGoexitInBatch(t *testing.T) {
	s, _ := open(t, bolt.Options{})
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			<-start
			err := s.Update(context.Background(), func(tx storage.Tx) error {
				if err := tx.Put("b", fmt.Append(nil, i), []byte("v")); err != nil {
					return err
				}
				if i == 5 {
					runtime.Goexit()
				}
				return nil
			})
			errs <- err
		})
	}
	close(start)
	waited := make(chan struct{})
	go func() { wg.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("writers hung after a function called runtime.Goexit")
	}
	close(errs)
	for err := range errs {
		if err != nil {
			require.ErrorContains(t, err, "aborted")
		}
	}
	require.NoError(t, s.Update(t.Context(), putFn("after")))
}

// Writers racing with Close get ErrClosed and never hang or panic.
func TestCloseWithWritersRunning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "veriland.db")
	s, err := bolt.Open(path, bolt.Options{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 16 {
		wg.Go(func() {
			for i := 0; ; i++ {
				err := s.Update(context.Background(), putFn(fmt.Sprintf("%d-%d", w, i)))
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, s.Close())
	wg.Wait()
	close(errs)
	for err := range errs {
		require.ErrorIs(t, err, storage.ErrClosed)
	}
	require.ErrorIs(t, s.View(t.Context(), func(storage.Tx) error { return nil }), storage.ErrClosed)
	require.NotPanics(t, func() { _ = s.Close() })
}

// A failing function in a batch is run again on its own, so its caller gets its own
// error, and the rest of the batch commits.
func TestFailingFunctionGetsOwnError(t *testing.T) {
	s, _ := open(t, bolt.Options{})
	errA := errors.New("a")
	var wg sync.WaitGroup
	start := make(chan struct{})
	var gotA, gotB error
	wg.Go(func() {
		<-start
		gotA = s.Update(context.Background(), func(storage.Tx) error { return errA })
	})
	wg.Go(func() {
		<-start
		gotB = s.Update(context.Background(), putFn("b"))
	})
	close(start)
	wg.Wait()
	require.ErrorIs(t, gotA, errA)
	require.NoError(t, gotB)
}
