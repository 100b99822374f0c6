package bolt_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkUpdate measures durable commits (fsync on a real file) with 1, 8 and 64
// concurrent writers, each making small Puts in separate Update calls. ns/op is per
// transaction; txs/s is the throughput of all writers together; commits/op is how
// many fsync'ed commits each transaction cost (1 without group commit).
func BenchmarkUpdate(b *testing.B) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchmarkWriters(b, writers, bolt.Options{})
		})
	}
}

// BenchmarkUpdateNoGroupCommit is the baseline for BenchmarkUpdate: 64 writers with
// MaxBatch 1, so that every transaction pays its own commit.
func BenchmarkUpdateNoGroupCommit(b *testing.B) {
	b.Run("writers=64", func(b *testing.B) {
		benchmarkWriters(b, 64, bolt.Options{MaxBatch: 1})
	})
}

func benchmarkWriters(b *testing.B, writers int, opts bolt.Options) {
	s, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	value := make([]byte, 100)
	var next atomic.Int64
	before := s.Stats()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				key := binary.BigEndian.AppendUint64(nil, uint64(i))
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					return tx.Put("bench", key, value)
				}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	commits := s.Stats().Commits - before.Commits
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
	b.ReportMetric(float64(commits)/float64(b.N), "commits/op")
	b.ReportMetric(float64(b.N)/float64(max(commits, 1)), "txs/commit")
}
