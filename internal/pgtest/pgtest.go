package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/storage/postgres"
)

// URLEnv names the environment variable with the test server's URL.
const URLEnv = "VERILAND_TEST_POSTGRES_URL"

// URL returns the test server's URL. Without one it fails tb under CI=true and skips
// it elsewhere.
func URL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv(URLEnv)
	if url == "" {
		testenv.Require(tb, "a PostgreSQL server", "set "+URLEnv+"; storage/postgres/testdb.sh starts one and prints its URL")
	}
	return url
}

// Replicas opens n stores on one fresh schema of the test server, each with its own
// pool of at most maxConns connections (0: 8), as n replicas would. The stores are
// closed and the schema dropped when tb ends.
func Replicas(tb testing.TB, n, maxConns int) []*postgres.Store {
	tb.Helper()
	url := URL(tb)
	if maxConns <= 0 {
		maxConns = 8
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	schema := "veriland_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb.Cleanup(func() { drop(tb, url, schema) })
	stores := make([]*postgres.Store, n)
	for i := range stores {
		s, err := postgres.Open(ctx, postgres.Options{DSN: url, Schema: schema, MaxConns: maxConns})
		if err != nil {
			tb.Fatalf("opening store %d on %s: %v", i, schema, err)
		}
		tb.Cleanup(func() { _ = s.Close() })
		stores[i] = s
	}
	return stores
}

// drop removes schema and everything in it.
func drop(tb testing.TB, url, schema string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		tb.Logf("dropping test schema %s: %v", schema, err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
		tb.Logf("dropping test schema %s: %v", schema, err)
	}
}
