package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkOutbox measures end-to-end throughput: 1,000 deliveries enqueued by
// concurrent transactions (as concurrent consent decisions would), sent by Run to a
// local receiver and recorded. deliveries/s counts from the first enqueue to the last
// recorded success.
func BenchmarkOutbox(b *testing.B) {
	for _, fsync := range []bool{true, false} {
		for _, workers := range []int{4, 16} {
			b.Run(fmt.Sprintf("fsync=%v/workers=%d", fsync, workers), func(b *testing.B) {
				benchmarkOutbox(b, 1000, workers, fsync)
			})
		}
	}
}

func benchmarkOutbox(b *testing.B, n, workers int, fsync bool) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		store, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{NoSync: !fsync})
		if err != nil {
			b.Fatal(err)
		}
		ob := &webhook.Outbox{Store: store, Workers: workers, PollInterval: 10 * time.Millisecond}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- ob.Run(ctx) }()
		hits.Store(0)
		b.StartTimer()

		start := time.Now()
		var wg sync.WaitGroup
		const writers = 32
		for w := range writers {
			wg.Go(func() {
				for i := w; i < n; i += writers {
					err := store.Update(ctx, func(tx storage.Tx) error {
						_, err := ob.Enqueue(ctx, tx, veriland.Sandbox, webhook.Event{
							Type: "verification.approved", Verifier: "verifier-1", CallbackURL: srv.URL + "/cb",
							Data: map[string]any{"requestId": fmt.Sprintf("vrq_%d", i), "status": "APPROVED"},
						})
						return err
					})
					if err != nil {
						b.Error(err)
						return
					}
					ob.Notify()
				}
			})
		}
		wg.Wait()
		for {
			pending, err := ob.Pending(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if pending == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		total += time.Since(start)

		b.StopTimer()
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		if got := hits.Load(); got != int64(n) {
			b.Fatalf("receiver got %d requests, want %d", got, n)
		}
		store.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/total.Seconds(), "deliveries/s")
}
