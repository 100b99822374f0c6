package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkAllow measures admitted requests (each one durable bbolt commit, fsync
// included) from 1 and 8 concurrent callers on distinct keys.
func BenchmarkAllow(b *testing.B) {
	p := Policy{Name: "bench", Limit: 1 << 30, Window: time.Minute, Burst: 1 << 30}
	for _, callers := range []int{1, 8} {
		b.Run(fmt.Sprintf("goroutines=%d", callers), func(b *testing.B) {
			l := &Limiter{Store: openStore(b, bolt.Options{})}
			ctx := context.Background()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for g := range callers {
				n := b.N / callers
				if g < b.N%callers {
					n++
				}
				wg.Go(func() {
					key := fmt.Sprintf("0x%040d", g)
					for range n {
						d, err := l.Allow(ctx, veriland.Production, key, p)
						if err != nil || !d.Allowed {
							b.Error(d, err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "ops/s")
		})
	}
}
