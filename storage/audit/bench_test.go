package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkAppend measures entries per second with concurrent writers, each entry in
// its own Update (fsync on commit, group commit), as a server appends them.
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			store, err := bolt.Open(filepath.Join(b.TempDir(), "audit.db"), bolt.Options{})
			require.NoError(b, err)
			defer store.Close()
			l := &Log{}
			e := sample(veriland.Production, 1)
			// RunParallel starts parallelism × GOMAXPROCS goroutines.
			b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					err := store.Update(ctx, func(tx storage.Tx) error {
						_, err := l.Append(ctx, tx, e)
						return err
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entries/s")
			b.StopTimer()
			rep, err := Verify(context.Background(), store, veriland.Production)
			require.NoError(b, err)
			require.True(b, rep.Valid)
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
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify(context.Background(), store, veriland.Sandbox)
		if err != nil || !rep.Valid || rep.Entries != n {
			b.Fatalf("%v %+v", err, rep)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
