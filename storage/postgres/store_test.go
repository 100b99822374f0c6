package postgres_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/postgres"
	"github.com/veriland/veriland/storage/storagetest"
)

// urlEnv names the environment variable with the URL of the PostgreSQL server the
// tests that need one use; testdb.sh starts a throwaway server and prints one.
const urlEnv = "VERILAND_TEST_POSTGRES_URL"

// testSchema is this test process's own schema, created by TestMain and dropped
// with everything in it when the tests end.
var testSchema = fmt.Sprintf("veriland_test_%d_%d", os.Getpid(), time.Now().UnixNano())

func TestMain(m *testing.M) {
	url := os.Getenv(urlEnv)
	if url == "" {
		os.Exit(m.Run())
	}
	code := m.Run()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if conn, err := pgx.Connect(ctx, url); err == nil {
		_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{testSchema}.Sanitize()+" CASCADE")
		if err != nil {
			fmt.Fprintln(os.Stderr, "dropping the test schema:", err)
		}
		_ = conn.Close(ctx)
	}
	os.Exit(code)
}

// serverURL returns the test server's URL. Without one it fails tb under CI=true
// and skips it elsewhere (see testenv.Require).
func serverURL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv(urlEnv)
	if url == "" {
		testenv.Require(tb, "a PostgreSQL server", "set "+urlEnv+"; storage/postgres/testdb.sh starts one and prints its URL")
	}
	return url
}

// tableFor names the table of a store path: one table per path, in the test schema.
func tableFor(path string) string {
	sum := sha256.Sum256([]byte(path))
	return "kv_" + hex.EncodeToString(sum[:12])
}

func openPath(tb testing.TB, path string, opts postgres.Options) *postgres.Store {
	tb.Helper()
	opts.DSN = serverURL(tb)
	opts.Schema = testSchema
	opts.Table = tableFor(path)
	if opts.MaxConns == 0 {
		opts.MaxConns = 8
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := postgres.Open(ctx, opts)
	require.NoError(tb, err)
	return s
}

func TestConformance(t *testing.T) {
	serverURL(t)
	storagetest.Run(t, func(t *testing.T, path string) storage.Store {
		return openPath(t, path, postgres.Options{})
	})
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	_, err := postgres.Open(ctx, postgres.Options{DSN: "postgres://u@h/db", Table: string(make([]byte, 64))})
	require.ErrorContains(t, err, "longer than 63 bytes")
	_, err = postgres.Open(ctx, postgres.Options{DSN: "no such key=value format"})
	require.Error(t, err)
}

func TestOpenMissingTable(t *testing.T) {
	url := serverURL(t)
	ctx := t.Context()
	var err error
	_, err = postgres.Open(ctx, postgres.Options{DSN: url, Schema: testSchema, Table: "never_created", NoCreate: true})
	require.ErrorContains(t, err, "never_created")
}

func TestNoCreate(t *testing.T) {
	url := serverURL(t)
	ctx := t.Context()
	opts := postgres.Options{DSN: url, Schema: testSchema, Table: "precreated"}
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, opts.DDL())
	require.NoError(t, err)

	opts.NoCreate = true
	s, err := postgres.Open(ctx, opts)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Update(ctx, func(tx storage.Tx) error { return tx.Put("b", []byte("k"), []byte("v")) }))
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{testSchema, "precreated"}.Sanitize()).Scan(&n))
	require.Equal(t, 1, n)
}

// TestConcurrentOpen opens one new table from several stores at once, as replicas
// starting together do.
func TestConcurrentOpen(t *testing.T) {
	serverURL(t)
	path := t.TempDir()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			s, err := postgres.Open(t.Context(), postgres.Options{DSN: serverURL(t), Schema: testSchema, Table: tableFor(path), MaxConns: 2})
			if err == nil {
				err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Put("b", []byte("k"), []byte("v")) })
				s.Close()
			}
			errs <- err
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}

// TestReplicas runs the counter of the conformance suite on three stores over one
// table, as three server replicas would: conflicts between processes are resolved
// by the database and retries alone.
func TestReplicas(t *testing.T) {
	serverURL(t)
	const replicas, writers, increments = 3, 8, 20
	path := t.TempDir()
	stores := make([]*postgres.Store, replicas)
	for i := range stores {
		stores[i] = openPath(t, path, postgres.Options{MaxConns: 4})
		defer stores[i].Close()
	}
	errs := make(chan error, replicas*writers)
	for i := range replicas * writers {
		go func() {
			s := stores[i%replicas]
			for range increments {
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					v, err := tx.Get("counter", []byte("n"))
					if err != nil && !errors.Is(err, storage.ErrNotFound) {
						return err
					}
					return tx.Put("counter", []byte("n"), fmt.Appendf(nil, "%d", atoi(v)+1))
				}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range replicas * writers {
		require.NoError(t, <-errs)
	}
	require.NoError(t, stores[0].View(t.Context(), func(tx storage.Tx) error {
		v, err := tx.Get("counter", []byte("n"))
		require.NoError(t, err)
		require.Equal(t, replicas*writers*increments, atoi(v))
		return nil
	}))
	var retries uint64
	for _, s := range stores {
		retries += s.Stats().Retries
	}
	t.Logf("%d retries for %d commits", retries, replicas*writers*increments)
}

func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestRetryExhausted checks that Update gives up after MaxAttempts with an error
// wrapping storage.ErrUnavailable and the serialization failure, having run its
// function that many times.
func TestRetryExhausted(t *testing.T) {
	path := t.TempDir()
	s := openPath(t, path, postgres.Options{MaxAttempts: 3, MaxBackoff: time.Millisecond})
	defer s.Close()
	ctx := t.Context()
	require.NoError(t, s.Update(ctx, func(tx storage.Tx) error { return tx.Put("b", []byte("k"), []byte("0")) }))

	// Each attempt reads k, then a second store changes k and commits before the
	// attempt writes it: the attempt must fail at its write.
	other := openPath(t, path, postgres.Options{})
	defer other.Close()
	var runs atomic.Int32
	err := s.Update(ctx, func(tx storage.Tx) error {
		n := runs.Add(1)
		if _, err := tx.Get("b", []byte("k")); err != nil {
			return err
		}
		if err := other.Update(ctx, func(tx storage.Tx) error {
			return tx.Put("b", []byte("k"), fmt.Appendf(nil, "%d", n))
		}); err != nil {
			return fmt.Errorf("other: %w", err)
		}
		return tx.Put("b", []byte("k"), []byte("mine"))
	})
	require.ErrorIs(t, err, storage.ErrUnavailable)
	require.True(t, postgres.Retryable(err), "%v", err)
	require.EqualValues(t, 3, runs.Load())
	st := s.Stats()
	require.Equal(t, postgres.Stats{Commits: 1, Attempts: 4, Retries: 2}, postgres.Stats{Commits: st.Commits, Attempts: st.Attempts, Retries: st.Retries})
}

// TestSwallowedError checks that a transaction whose function ignored a failed
// statement is not committed.
func TestSwallowedError(t *testing.T) {
	s := openPath(t, t.TempDir(), postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	err := s.Update(ctx, func(tx storage.Tx) error {
		require.NoError(t, tx.Put("b", []byte("before"), []byte("x")))
		require.Error(t, tx.Put("bad\x00bucket", []byte("k"), []byte("v"))) // TEXT holds no NUL
		return nil
	})
	require.ErrorContains(t, err, "not committed")
	require.NoError(t, s.View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get("b", []byte("before"))
		require.ErrorIs(t, err, storage.ErrNotFound)
		return nil
	}))
}

// TestScanCallbackUsesTx checks that a Scan's function may read and write in the
// same transaction, across pages.
func TestScanCallbackUsesTx(t *testing.T) {
	s := openPath(t, t.TempDir(), postgres.Options{})
	defer s.Close()
	ctx := t.Context()
	const n = 3000 // several pages
	require.NoError(t, s.Update(ctx, func(tx storage.Tx) error {
		for i := range n {
			if err := tx.Put("src", fmt.Appendf(nil, "%05d", i), []byte("v")); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, s.Update(ctx, func(tx storage.Tx) error {
		return tx.Scan("src", storage.Range{Reverse: true}, func(k, v []byte) error {
			if _, err := tx.Get("src", k); err != nil {
				return err
			}
			return tx.Put("dst", k, v)
		})
	}))
	count := 0
	require.NoError(t, s.View(ctx, func(tx storage.Tx) error {
		return tx.Scan("dst", storage.Range{}, func(k, v []byte) error {
			require.Equal(t, fmt.Sprintf("%05d", count), string(k))
			count++
			return nil
		})
	}))
	require.Equal(t, n, count)
}
