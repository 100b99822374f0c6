package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/testenv"
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
	table = fmt.Sprintf("idempotency_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), tableSeq.Add(1))
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

// TestReplicasRunTheSameKeyOnce: 64 clients send one key and body at once to two
// replicas, each with its own pool on one PostgreSQL table: the handler runs once,
// every other request is told the key is in flight, and afterwards both replicas
// replay the one response.
func TestReplicasRunTheSameKeyOnce(t *testing.T) {
	dsn, table := postgresTable(t)
	pools := []*postgres.Store{openPostgres(t, dsn, table, 16), openPostgres(t, dsn, table, 16)}
	handler := &creator{delay: 20 * time.Millisecond}
	replicas := []http.Handler{
		Middleware(&Store{Store: pools[0]}, scopeBySubject, writeError)(handler),
		Middleware(&Store{Store: pools[1]}, scopeBySubject, writeError)(handler),
	}
	const clients = 64
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
		bodies   = map[string]int{}
		start    = make(chan struct{})
	)
	for i := range clients {
		wg.Go(func() {
			<-start
			w := post(replicas[i%2], "/v1/parcels", `"same-key"`, `{"parcel":"A-1"}`, "X-Sub", "NOT-ABJ-0042")
			mu.Lock()
			defer mu.Unlock()
			statuses[w.Code]++
			if w.Code == http.StatusCreated {
				bodies[w.Body.String()]++
			}
		})
	}
	close(start)
	wg.Wait()
	require.EqualValues(t, 1, handler.runs.Load(), "statuses %v", statuses)
	require.Equal(t, clients, statuses[http.StatusCreated]+statuses[http.StatusConflict], "statuses %v", statuses)
	require.Len(t, bodies, 1, "every 201 is the one resource")
	for _, r := range replicas {
		w := post(r, "/v1/parcels", `"same-key"`, `{"parcel":"A-1"}`, "X-Sub", "NOT-ABJ-0042")
		require.Equal(t, http.StatusCreated, w.Code)
		require.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
		require.Contains(t, bodies, w.Body.String())
	}
	require.EqualValues(t, 1, handler.runs.Load())
	a, b := pools[0].Stats(), pools[1].Stats()
	t.Logf("statuses %v; transactions %d, retries %d", statuses, a.Commits+b.Commits, a.Retries+b.Retries)
}
