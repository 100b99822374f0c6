package ratelimit

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/postgres"
)

// benchClients is how many goroutines BenchmarkAllow runs at once: the 64 clients
// of the load tests.
const benchClients = 64

// BenchmarkAllow measures Allow from 64 concurrent callers on bbolt (durable commits,
// fsync included), on PostgreSQL through serializable transactions (the path a
// Store without GCRA takes) and on PostgreSQL with the single-statement GCRA, each
// with three workloads:
//
//   - hot: every caller on one key, under a policy that admits everything (each
//     call is a write to one row);
//   - distinct: one key per caller, same policy;
//   - hot-limited: every caller on one key under IPPolicy, as a load test whose
//     clients all come from 127.0.0.1: nearly every call is a denial.
//
// ops/s is the throughput of all callers together; admitted/op the share of calls
// admitted; retries/op the serializable transactions that failed and ran again per
// call (postgres.Store.Stats). The PostgreSQL ones need VERILAND_TEST_POSTGRES_URL.
func BenchmarkAllow(b *testing.B) {
	open := []struct {
		name string
		open func(b *testing.B) (storage.Store, *postgres.Store)
	}{
		{"bbolt", func(b *testing.B) (storage.Store, *postgres.Store) { return openStore(b, bolt.Options{}), nil }},
		{"postgres-transactional", func(b *testing.B) (storage.Store, *postgres.Store) {
			pg := pgtest.Replicas(b, 1, 16)[0]
			return transactional{pg}, pg
		}},
		{"postgres-atomic", func(b *testing.B) (storage.Store, *postgres.Store) {
			pg := pgtest.Replicas(b, 1, 16)[0]
			return pg, pg
		}},
	}
	open100 := Policy{Name: "bench", Limit: 1 << 30, Window: time.Minute, Burst: 1 << 30}
	workloads := []struct {
		name     string
		p        Policy
		distinct bool
	}{
		{"hot", open100, false},
		{"distinct", open100, true},
		{"hot-limited", IPPolicy(), false},
	}
	for _, o := range open {
		for _, w := range workloads {
			b.Run(o.name+"/"+w.name, func(b *testing.B) {
				store, pg := o.open(b)
				l := &Limiter{Store: store}
				var before postgres.Stats
				if pg != nil {
					before = pg.Stats()
				}
				var ids, admitted atomic.Int64
				b.SetParallelism((benchClients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					key := "127.0.0.1"
					if w.distinct {
						key = fmt.Sprintf("0x%040d", ids.Add(1))
					}
					n := int64(0)
					for pb.Next() {
						d, err := l.Allow(context.Background(), veriland.Production, key, w.p)
						if err != nil {
							b.Error(err)
							return
						}
						if d.Allowed {
							n++
						}
					}
					admitted.Add(n)
				})
				b.StopTimer()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
				b.ReportMetric(float64(admitted.Load())/float64(b.N), "admitted/op")
				if pg != nil {
					after := pg.Stats()
					b.ReportMetric(float64(after.Retries-before.Retries)/float64(b.N), "retries/op")
				}
			})
		}
	}
}
