package postgres_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/postgres"
)

// BenchmarkUpdate measures Update throughput with 1, 8 and 64 concurrent writers,
// each making one small Put per Update on distinct keys (so that conflicts come
// only from the database's own predicate locking). ns/op is per transaction; txs/s
// is the throughput of all writers together; retries/op counts serialization
// failures retried. It needs the server of VERILAND_TEST_POSTGRES_URL; commits are
// as durable as that server's configuration (testdb.sh runs with fsync off).
func BenchmarkUpdate(b *testing.B) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchmarkWriters(b, writers)
		})
	}
}

// BenchmarkUpdateHotKey is BenchmarkUpdate with every transaction incrementing one
// counter: the worst case of conflicts, served one commit at a time.
func BenchmarkUpdateHotKey(b *testing.B) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := openPath(b, b.TempDir(), postgres.Options{MaxConns: 16})
			defer s.Close()
			run(b, s, writers, func(int64) func(storage.Tx) error {
				return func(tx storage.Tx) error {
					v, err := tx.Get("bench", []byte("n"))
					if err != nil && !errors.Is(err, storage.ErrNotFound) {
						return err
					}
					var n uint64
					if len(v) == 8 {
						n = binary.BigEndian.Uint64(v)
					}
					return tx.Put("bench", []byte("n"), binary.BigEndian.AppendUint64(nil, n+1))
				}
			})
		})
	}
}

func benchmarkWriters(b *testing.B, writers int) {
	s := openPath(b, b.TempDir(), postgres.Options{MaxConns: 16})
	defer s.Close()
	value := make([]byte, 100)
	run(b, s, writers, func(i int64) func(storage.Tx) error {
		key := binary.BigEndian.AppendUint64(nil, uint64(i))
		return func(tx storage.Tx) error { return tx.Put("bench", key, value) }
	})
}

func run(b *testing.B, s *postgres.Store, writers int, txn func(i int64) func(storage.Tx) error) {
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
				if err := s.Update(context.Background(), txn(i)); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	after := s.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
	b.ReportMetric(float64(after.Retries-before.Retries)/float64(b.N), "retries/op")
}
