package postgres_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/postgres"
)

// gcraRecord is httpserver/ratelimit's record format.
func gcraRecord(tat int64) []byte {
	return binary.BigEndian.AppendUint64([]byte{1}, uint64(tat))
}

// gcraModel is the algorithm in Go, as httpserver/ratelimit runs it in a transaction.
func gcraModel(tat, now, emission, tolerance int64) (int64, bool) {
	base := max(tat, now)
	if base+emission-tolerance > now {
		return base, false
	}
	return base + emission, true
}

func TestGCRAMatchesTheAlgorithm(t *testing.T) {
	const sec = int64(time.Second)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano()
	tests := []struct {
		name                string
		emission, tolerance int64
		steps               []int64 // clock advance before each request
	}{
		{"burst of one", sec, sec, []int64{0, 0, sec - 1, 1, 0, 10 * sec, 0}},
		{"burst of three", sec, 3 * sec, []int64{0, 0, 0, 0, 0, sec / 2, sec / 2, 0, 0, 5 * sec, 0, 0, 0, 0}},
		{"wallet 500ms burst 30", sec / 2, 15 * sec, append(make([]int64, 35), sec/2, 1, sec/2-1, 0, time.Hour.Nanoseconds(), 0)},
		{"odd interval", 10 * sec / 7, 3 * 10 * sec / 7, []int64{0, 0, 0, 0, 1, 10*sec/7 - 2, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openPath(t, uniquePath(t), postgres.Options{})
			defer s.Close()
			ctx := t.Context()
			now, model := start, int64(0)
			for i, step := range tt.steps {
				now += step
				wantTAT, wantAllowed := gcraModel(model, now, tt.emission, tt.tolerance)
				tat, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now, tt.emission, tt.tolerance)
				require.NoError(t, err)
				require.Equal(t, wantAllowed, allowed, "request %d", i)
				if allowed {
					require.Equal(t, wantTAT, tat, "request %d", i)
					model = wantTAT
				} else {
					require.Equal(t, model, tat, "request %d: the stored TAT", i)
				}
				// The record is ratelimit's: 0x01 and the big-endian TAT.
				require.Equal(t, gcraRecord(model), get(t, s, "rl", []byte("k")))
			}
		})
	}
}

func TestGCRAReadsTransactionalRecords(t *testing.T) {
	path := uniquePath(t)
	s := openPath(t, path, postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	now := time.Now().UnixNano()
	sec := int64(time.Second)
	// A record written by a transaction, one second ahead: with a tolerance of two
	// seconds one more request fits, then none.
	require.NoError(t, s.Update(ctx, func(tx storage.Tx) error {
		return tx.Put("rl", []byte("k"), gcraRecord(now+sec))
	}))
	tat, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now, sec, 2*sec)
	require.NoError(t, err)
	require.True(t, allowed)
	require.Equal(t, now+2*sec, tat)
	tat, allowed, err = s.GCRA(ctx, "rl", []byte("k"), now, sec, 2*sec)
	require.NoError(t, err)
	require.False(t, allowed)
	require.Equal(t, now+2*sec, tat)
	// Other buckets and keys are other records.
	_, allowed, err = s.GCRA(ctx, "rl2", []byte("k"), now, sec, 2*sec)
	require.NoError(t, err)
	require.True(t, allowed)
	_, allowed, err = s.GCRA(ctx, "rl", []byte("k2"), now, sec, 2*sec)
	require.NoError(t, err)
	require.True(t, allowed)
}

// rowVersion is what changes when PostgreSQL writes or locks a row: its physical
// location, the inserting transaction and the locking or deleting one.
type rowVersion struct{ ctid, xmin, xmax string }

func TestGCRADenialWritesNothing(t *testing.T) {
	path := uniquePath(t)
	s := openPath(t, path, postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, serverURL(t))
	require.NoError(t, err)
	defer conn.Close(ctx)
	table := pgx.Identifier{testSchema, tableFor(path)}.Sanitize()
	version := func() rowVersion {
		var v rowVersion
		require.NoError(t, conn.QueryRow(ctx, "SELECT ctid::text, xmin::text, xmax::text FROM "+table+" WHERE bucket = 'rl'").Scan(&v.ctid, &v.xmin, &v.xmax))
		return v
	}
	now, sec := time.Now().UnixNano(), int64(time.Second)
	for range 3 {
		_, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now, sec, 3*sec)
		require.NoError(t, err)
		require.True(t, allowed)
	}
	before := version()
	for range 50 {
		_, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now, sec, 3*sec)
		require.NoError(t, err)
		require.False(t, allowed)
	}
	require.Equal(t, before, version(), "a denial neither writes nor locks the row")
	_, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now+sec, sec, 3*sec)
	require.NoError(t, err)
	require.True(t, allowed)
	require.NotEqual(t, before, version(), "an admission writes a new row version")
}

func TestGCRAMalformedRecord(t *testing.T) {
	path := uniquePath(t)
	s := openPath(t, path, postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	now, sec := time.Now().UnixNano(), int64(time.Second)
	for _, bad := range [][]byte{{}, {1}, {2, 0, 0, 0, 0, 0, 0, 0, 0}, append(gcraRecord(0), 0)} {
		require.NoError(t, s.Update(ctx, func(tx storage.Tx) error { return tx.Put("rl", []byte("k"), bad) }))
		_, allowed, err := s.GCRA(ctx, "rl", []byte("k"), now, sec, sec)
		require.ErrorContains(t, err, "malformed")
		require.False(t, allowed)
		require.Equal(t, bad, get(t, s, "rl", []byte("k")), "left alone")
	}
}

func TestGCRARejectsBadArguments(t *testing.T) {
	path := uniquePath(t)
	s := openPath(t, path, postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	for _, c := range []struct {
		name                string
		bucket              string
		key                 []byte
		emission, tolerance int64
	}{
		{"zero emission", "rl", []byte("k"), 0, 1},
		{"tolerance below emission", "rl", []byte("k"), 2, 1},
		{"empty key", "rl", nil, 1, 1},
		{"bucket not UTF-8", "\xff", []byte("k"), 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := s.GCRA(ctx, c.bucket, c.key, 1, c.emission, c.tolerance)
			require.Error(t, err)
		})
	}
	require.NoError(t, s.Close())
	_, _, err := s.GCRA(ctx, "rl", []byte("k"), 1, 1, 1)
	require.ErrorIs(t, err, storage.ErrClosed)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = s.GCRA(cancelled, "rl", []byte("k"), 1, 1, 1)
	require.ErrorIs(t, err, context.Canceled)
}

// TestGCRAConcurrentReplicas: 64 callers on one key over two pools (two replicas)
// with a frozen clock admit exactly the burst, and after the clock moves by n
// intervals exactly n more.
func TestGCRAConcurrentReplicas(t *testing.T) {
	path := uniquePath(t)
	a := openPath(t, path, postgres.Options{MaxConns: 16})
	defer a.Close()
	b := openPath(t, path, postgres.Options{MaxConns: 16})
	defer b.Close()
	const burst = 30
	sec := int64(time.Second)
	now := time.Now().UnixNano()
	round := func() int64 {
		var admitted atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 64 {
			s := []*postgres.Store{a, b}[i%2]
			wg.Go(func() {
				<-start
				_, allowed, err := s.GCRA(context.Background(), "rl", []byte("hot"), now, sec, burst*sec)
				if err != nil {
					t.Error(err)
				}
				if allowed {
					admitted.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		return admitted.Load()
	}
	require.EqualValues(t, burst, round())
	require.Zero(t, round())
	now += 7 * sec
	require.EqualValues(t, 7, round())
	require.Equal(t, gcraRecord(now+burst*sec), get(t, a, "rl", []byte("hot")))
	require.Zero(t, a.Stats().Attempts+b.Stats().Attempts, "no transaction was begun")
}

func get(t *testing.T, s *postgres.Store, bucket string, key []byte) []byte {
	t.Helper()
	var v []byte
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		v, err = tx.Get(bucket, key)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		return err
	}))
	return v
}

// uniquePath names a table no other test (or -count run) uses.
func uniquePath(t *testing.T) string {
	return fmt.Sprint(t.Name(), "/", time.Now().UnixNano())
}
