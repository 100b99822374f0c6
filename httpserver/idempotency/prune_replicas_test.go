package idempotency

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

// Two replicas prune one store at once: every expired record is deleted once (the
// counts add up to exactly the expired records) and no live one is.
func TestPruneOnTwoReplicas(t *testing.T) {
	backends := pgtest.ReplicaBackends(4)
	// More expired records than one prune transaction examines.
	const expired, live = 3 * pruneChunk, 200
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			ctx := context.Background()
			clock := newFakeClock()
			replicas := []*Store{{Store: a, Now: clock.Now, TTL: time.Hour}, {Store: b, Now: clock.Now, TTL: time.Hour}}

			// Two real records, one finished 30 minutes before the other, copied
			// under many keys.
			raw := func(key string) []byte {
				scope := testScope(key)
				_, err := replicas[0].Begin(ctx, scope, replicas[0].Fingerprint([]byte(key)))
				require.NoError(t, err)
				require.NoError(t, replicas[0].Complete(ctx, scope, Response{Status: 201, Body: []byte(key)}))
				var v []byte
				require.NoError(t, a.View(ctx, func(tx storage.Tx) error {
					var err error
					v, err = tx.Get(storage.Bucket(scope.Env, bucketName), scope.storageKey())
					return err
				}))
				return v
			}
			old := raw("old")
			clock.Advance(30 * time.Minute)
			fresh := raw("fresh")
			require.NoError(t, a.Update(ctx, func(tx storage.Tx) error {
				bucket := storage.Bucket(veriland.Production, bucketName)
				var keys [][]byte
				if err := tx.Scan(bucket, storage.Range{}, func(k, _ []byte) error {
					keys = append(keys, k)
					return nil
				}); err != nil {
					return err
				}
				for _, k := range keys {
					if err := tx.Delete(bucket, k); err != nil {
						return err
					}
				}
				for i := range expired {
					if err := tx.Put(bucket, fmt.Appendf(nil, "expired-%05d", i), old); err != nil {
						return err
					}
				}
				for i := range live {
					if err := tx.Put(bucket, fmt.Appendf(nil, "live-%05d", i), fresh); err != nil {
						return err
					}
				}
				return nil
			}))
			clock.Advance(31 * time.Minute) // old is past its TTL, fresh is not

			counts := make([]int, len(replicas))
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, r := range replicas {
				wg.Go(func() {
					<-start
					n, err := r.Prune(ctx)
					if err != nil {
						t.Errorf("replica %d: %v", i, err)
					}
					counts[i] = n
				})
			}
			close(start)
			wg.Wait()
			require.Equal(t, expired, counts[0]+counts[1], "pruned by each replica: %v", counts)
			t.Logf("pruned by replica A: %d, by replica B: %d", counts[0], counts[1])

			var left []string
			require.NoError(t, b.View(ctx, func(tx storage.Tx) error {
				return tx.Scan(storage.Bucket(veriland.Production, bucketName), storage.Range{}, func(k, _ []byte) error {
					left = append(left, string(k))
					return nil
				})
			}))
			require.Len(t, left, live)
			for i, k := range left {
				require.Equal(t, fmt.Sprintf("live-%05d", i), k)
			}
		})
	}
}
