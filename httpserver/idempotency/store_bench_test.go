package idempotency

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkBeginComplete measures one idempotent request's storage work, a reservation
// and a stored response (two durable bbolt commits, fsync included), from 1 and 8
// concurrent callers.
func BenchmarkBeginComplete(b *testing.B) {
	resp := Response{
		Status: http.StatusCreated,
		Header: http.Header{"Content-Type": {"application/vnd.api+json"}, "Location": {"/v1/parcels/prc_1"}},
		Body:   []byte(`{"data":{"type":"parcels","id":"prc_1","attributes":{"lga":"Abuja","status":"PENDING"}}}`),
	}
	fp := sha256.Sum256([]byte(`{"lga":"Abuja"}`))
	for _, callers := range []int{1, 8} {
		b.Run(fmt.Sprintf("goroutines=%d", callers), func(b *testing.B) {
			s, _ := newStore(b, bolt.Options{})
			s.Now = time.Now
			ctx := context.Background()
			var seq atomic.Int64
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for g := range callers {
				n := b.N / callers
				if g < b.N%callers {
					n++
				}
				wg.Go(func() {
					for range n {
						sc := testScope(fmt.Sprint("key-", seq.Add(1)))
						out, err := s.Begin(ctx, sc, fp)
						if err != nil || out.Kind != Proceed {
							b.Error(out.Kind, err)
							return
						}
						if err := s.Complete(ctx, sc, resp); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "requests/s")
		})
	}
}
