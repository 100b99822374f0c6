package idempotency

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/pgtest"
)

// TestReplicasRunTheSameKeyOnce: 64 clients send one key and body at once to two
// replicas, each with its own pool on one PostgreSQL table: the handler runs once,
// every other request is told the key is in flight, and afterwards both replicas
// replay the one response.
func TestReplicasRunTheSameKeyOnce(t *testing.T) {
	pools := pgtest.Replicas(t, 2, 16)
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
