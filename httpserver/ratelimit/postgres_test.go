package ratelimit

import (
	"context"
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
)

// postgresURLEnv names the variable with the URL of the PostgreSQL server the tests
// and benchmarks on PostgreSQL use; storage/postgres/testdb.sh starts one.
const postgresURLEnv = "VERILAND_TEST_POSTGRES_URL"

var tableSeq atomic.Int64

// postgresTable returns the DSN of the test server and a table name no other test
// uses, dropped when tb ends. Without a server it skips tb, or fails it under CI=true.
func postgresTable(tb testing.TB) (dsn, table string) {
	tb.Helper()
	dsn = os.Getenv(postgresURLEnv)
	if dsn == "" {
		testenv.Require(tb, "a PostgreSQL server", "set "+postgresURLEnv+"; storage/postgres/testdb.sh starts one and prints its URL")
	}
	table = fmt.Sprintf("ratelimit_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), tableSeq.Add(1))
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			tb.Logf("dropping %s: %v", table, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS "+pgx.Identifier{table}.Sanitize()); err != nil {
			tb.Logf("dropping %s: %v", table, err)
		}
	})
	return dsn, table
}

// openPostgres opens a Store (one replica's pool) on table, closed when tb ends.
func openPostgres(tb testing.TB, dsn, table string, maxConns int) *postgres.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := postgres.Open(ctx, postgres.Options{DSN: dsn, Table: table, MaxConns: maxConns})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// transactional hides a store's GCRA method, so that a Limiter on it takes the
// transactional path.
type transactional struct{ storage.Store }
