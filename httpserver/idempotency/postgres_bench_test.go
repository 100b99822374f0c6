package idempotency

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland/internal/pgtest"
)

// benchClients is how many goroutines the PostgreSQL benchmarks run at once: the 64
// clients of the load tests.
const benchClients = 64

// BenchmarkBeginCompletePostgres measures idempotent requests' storage work on
// PostgreSQL from 64 concurrent callers spread over two pools (two replicas):
//
//   - distinct: every request has its own key: Begin reserves, Complete stores;
//   - shared: runs of 64 consecutive requests share a key (one client's retries
//     sent to every replica at once): the first reserves and completes, the others
//     get in_flight or the replay.
//
// requests/s is the throughput of all callers together; retries/tx the serializable
// transactions that failed and ran again per committed transaction, and retries/op
// per request (postgres.Store.Stats). It needs VERILAND_TEST_POSTGRES_URL.
func BenchmarkBeginCompletePostgres(b *testing.B) {
	resp := Response{
		Status: http.StatusCreated,
		Header: http.Header{"Content-Type": {"application/vnd.api+json"}, "Location": {"/v1/parcels/prc_1"}},
		Body:   []byte(`{"data":{"type":"parcels","id":"prc_1","attributes":{"lga":"Abuja","status":"PENDING"}}}`),
	}
	fp := sha256.Sum256([]byte(`{"lga":"Abuja"}`))
	for _, w := range []struct {
		name  string
		group int64 // consecutive requests per key
	}{{"distinct", 1}, {"shared", benchClients}} {
		b.Run(w.name, func(b *testing.B) {
			pgs := pgtest.Replicas(b, 2, 16)
			replicas := []*Store{{Store: pgs[0]}, {Store: pgs[1]}}
			var seq, goroutines atomic.Int64
			var kinds [Reused + 1]atomic.Int64
			b.SetParallelism((benchClients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				s := replicas[goroutines.Add(1)%2]
				ctx := context.Background()
				for pb.Next() {
					sc := testScope(fmt.Sprint("key-", seq.Add(1)/w.group))
					out, err := s.Begin(ctx, sc, fp)
					if err != nil {
						b.Error(err)
						return
					}
					kinds[out.Kind].Add(1)
					if out.Kind != Proceed {
						continue
					}
					if err := s.Complete(ctx, sc, resp); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			var commits, retries uint64
			for _, pg := range pgs {
				st := pg.Stats()
				commits += st.Commits
				retries += st.Retries
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			b.ReportMetric(float64(retries)/float64(commits), "retries/tx")
			b.ReportMetric(float64(retries)/float64(b.N), "retries/op")
			b.ReportMetric(float64(kinds[Proceed].Load())/float64(b.N), "proceed/op")
		})
	}
}
