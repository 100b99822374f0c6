package audit

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/postgres"
)

// postgresURLEnv names the environment variable with the URL of the PostgreSQL
// server of the tests that need one (storage/postgres/testdb.sh starts one).
const postgresURLEnv = "VERILAND_TEST_POSTGRES_URL"

// openReplicas opens n stores, separate connection pools as n server replicas would
// have, on one new table of a schema of the test's own, dropped when it ends. Without
// a server it fails tb under CI=true and skips it elsewhere.
func openReplicas(tb testing.TB, n, maxConns int) []*postgres.Store {
	tb.Helper()
	url := os.Getenv(postgresURLEnv)
	if url == "" {
		testenv.Require(tb, "a PostgreSQL server", "set "+postgresURLEnv+"; storage/postgres/testdb.sh starts one and prints its URL")
	}
	schema := fmt.Sprintf("audit_test_%d_%d", os.Getpid(), time.Now().UnixNano())
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			tb.Logf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			tb.Logf("dropping schema %s: %v", schema, err)
		}
	})
	stores := make([]*postgres.Store, n)
	for i := range stores {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, err := postgres.Open(ctx, postgres.Options{DSN: url, Schema: schema, Table: "kv", MaxConns: maxConns})
		cancel()
		require.NoError(tb, err)
		tb.Cleanup(func() { _ = s.Close() })
		stores[i] = s
	}
	return stores
}

// Two replicas on one PostgreSQL table append and seal at once.
func TestConcurrentAppendersAndSealersPostgres(t *testing.T) {
	pg := openReplicas(t, 2, 8)
	replicas := []storage.Store{pg[0], pg[1]}
	replicaTest(t, replicas, 16, 25)
	for i, s := range pg {
		st := s.Stats()
		t.Logf("replica %d: %d commits, %d retries", i, st.Commits, st.Retries)
	}
}
