package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/postgres"
)

// benchBackends open a store for a benchmark: bbolt with fsync on, and PostgreSQL
// (skipped without VERILAND_TEST_POSTGRES_URL) with its counters.
var benchBackends = []struct {
	name string
	open func(b *testing.B) (storage.Store, func() postgres.Stats)
}{
	{"bolt", func(b *testing.B) (storage.Store, func() postgres.Stats) {
		store, err := bolt.Open(filepath.Join(b.TempDir(), "audit.db"), bolt.Options{})
		require.NoError(b, err)
		b.Cleanup(func() { _ = store.Close() })
		return store, nil
	}},
	{"postgres", func(b *testing.B) (storage.Store, func() postgres.Stats) {
		store := pgtest.Replicas(b, 1, 64)[0]
		return store, store.Stats
	}},
}

// BenchmarkAppend measures audited transactions per second with concurrent writers,
// each entry in its own Update with a state change of its own, as a server appends
// them, while RunSealing seals in the background: on bbolt (fsync on commit, group
// commit) and, when VERILAND_TEST_POSTGRES_URL is set, on PostgreSQL, where it
// reports retries per committed transaction (postgres.Store.Stats), sealing
// included.
func BenchmarkAppend(b *testing.B) {
	for _, backend := range benchBackends {
		for _, writers := range []int{1, 16, 64} {
			b.Run(fmt.Sprintf("%s/writers=%d", backend.name, writers), func(b *testing.B) {
				store, stats := backend.open(b)
				l := &Log{}
				sctx, stop := context.WithCancel(context.Background())
				sealed := make(chan error, 1)
				go func() { sealed <- l.RunSealing(sctx, store, 0) }()
				var before postgres.Stats
				if stats != nil {
					before = stats()
				}
				var next atomic.Uint64
				// RunParallel starts parallelism × GOMAXPROCS goroutines.
				b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					ctx := context.Background()
					for pb.Next() {
						i := next.Add(1)
						err := store.Update(ctx, func(tx storage.Tx) error {
							if err := tx.Put(storage.Bucket(veriland.Production, "things"), seqKey(i), []byte("x")); err != nil {
								return err
							}
							_, err := l.Append(ctx, tx, sample(veriland.Production, int(i)))
							return err
						})
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entries/s")
				if stats != nil {
					after := stats()
					b.ReportMetric(float64(after.Retries-before.Retries)/float64(max(1, after.Commits-before.Commits)), "retries/tx")
				}
				b.StopTimer()
				stop()
				require.NoError(b, <-sealed)
				rep, err := Verify(context.Background(), store, veriland.Production)
				require.NoError(b, err)
				require.True(b, rep.Valid)
				require.Equal(b, int(next.Load()), rep.Entries)
			})
		}
	}
}

// BenchmarkSeal measures how fast one sealer moves pending entries into the chain,
// in batches of SealBatch, on bbolt and PostgreSQL: the most entries per second that
// the sealers of one database keep up with.
func BenchmarkSeal(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend.name, func(b *testing.B) {
			store, _ := backend.open(b)
			l := &Log{}
			ctx := context.Background()
			const chunk = 1000
			for b.Loop() {
				b.StopTimer()
				require.NoError(b, store.Update(ctx, func(tx storage.Tx) error {
					for j := range chunk {
						if _, err := l.Append(ctx, tx, sample(veriland.Sandbox, j)); err != nil {
							return err
						}
					}
					return nil
				}))
				b.StartTimer()
				n, err := Seal(ctx, store, veriland.Sandbox)
				if err != nil || n != chunk {
					b.Fatalf("%d %v", n, err)
				}
			}
			b.ReportMetric(float64(chunk)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkVerify measures a full check of a 10,000-entry chain.
func BenchmarkVerify(b *testing.B) {
	const n = 10_000
	store := openStore(b)
	l := &Log{}
	for i := 0; i < n; i += 500 {
		require.NoError(b, store.Update(context.Background(), func(tx storage.Tx) error {
			for j := range 500 {
				if _, err := l.Append(context.Background(), tx, sample(veriland.Sandbox, i+j)); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	_, err := Seal(context.Background(), store, veriland.Sandbox)
	require.NoError(b, err)
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify(context.Background(), store, veriland.Sandbox)
		if err != nil || !rep.Valid || rep.Entries != n {
			b.Fatalf("%v %+v", err, rep)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
