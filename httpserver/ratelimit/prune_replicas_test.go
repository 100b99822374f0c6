package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

// Two replicas prune one store at once: every idle key is deleted once (the counts
// add up to exactly the idle keys) and no live key is.
func TestPruneOnTwoReplicas(t *testing.T) {
	backends := pgtest.ReplicaBackends(4)
	// More idle keys than one prune transaction examines, in both environments.
	const idle, live = 3 * pruneChunk / 2, 300
	cutoff := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			ctx := context.Background()
			err := a.Update(ctx, func(tx storage.Tx) error {
				for i := range idle + live {
					env := []veriland.Environment{veriland.Sandbox, veriland.Production}[i%2]
					tat := cutoff.Add(-time.Duration(i+1) * time.Second) // idle: at or before the cutoff
					key := fmt.Sprintf("idle-%05d", i)
					if i >= idle {
						tat, key = cutoff.Add(time.Duration(i)*time.Second), fmt.Sprintf("live-%05d", i)
					}
					if err := tx.Put(storage.Bucket(env, bucketName), []byte(key), encodeTAT(tat.UnixNano())); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}

			counts := make([]int, 2)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, s := range []storage.Store{a, b} {
				wg.Go(func() {
					<-start
					n, err := (&Limiter{Store: s}).Prune(ctx, cutoff)
					if err != nil {
						t.Errorf("replica %d: %v", i, err)
					}
					counts[i] = n
				})
			}
			close(start)
			wg.Wait()
			if counts[0]+counts[1] != idle {
				t.Fatalf("pruned %v, want %d in all", counts, idle)
			}
			left := map[string]bool{}
			err = b.View(ctx, func(tx storage.Tx) error {
				for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
					err := tx.Scan(storage.Bucket(env, bucketName), storage.Range{}, func(k, _ []byte) error {
						left[string(k)] = true
						return nil
					})
					if err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := idle; i < idle+live; i++ {
				if !left[fmt.Sprintf("live-%05d", i)] {
					t.Errorf("live key %d pruned", i)
				}
			}
			if len(left) != live {
				t.Errorf("%d keys left, want the %d live ones", len(left), live)
			}
			t.Logf("pruned by replica A: %d, by replica B: %d", counts[0], counts[1])
		})
	}
}
