package liveness

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

// Two replicas prune one store's sessions at once, in bounded transactions: every
// session expired before the cutoff is deleted once (the counts add up), no other
// session is, and a record that does not decode is left alone.
func TestPruneSessionsOnTwoReplicas(t *testing.T) {
	backends := pgtest.ReplicaBackends(4)
	const stale, fresh = 3*pruneChunk + 7, 150
	cutoff := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			ctx := context.Background()
			err := a.Update(ctx, func(tx storage.Tx) error {
				r := repo(tx, veriland.Sandbox)
				for i := range stale + fresh {
					rec := &sessionRecord{ID: fmt.Sprintf("lvs_%05d", i), Holder: "did:veriland:h", Level: L2,
						CreatedAt: cutoff.Add(-time.Hour), ExpiresAt: cutoff.Add(-time.Duration(i+1) * time.Second)}
					if i >= stale {
						rec.ExpiresAt = cutoff.Add(time.Duration(i-stale) * time.Second) // at or after the cutoff: kept
					}
					if err := r.putSession(rec); err != nil {
						return err
					}
				}
				// A session of the other environment, expired, is not env's to prune.
				if err := repo(tx, veriland.Production).putSession(&sessionRecord{ID: "lvs_prod", ExpiresAt: cutoff.Add(-time.Hour)}); err != nil {
					return err
				}
				return tx.Put(storage.Bucket(veriland.Sandbox, bucketSessions), []byte("lvs_zzzcorrupt"), []byte("{"))
			})
			if err != nil {
				t.Fatal(err)
			}

			replicas := []*Service{{Store: a}, {Store: b}}
			counts := make([]int, len(replicas))
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, s := range replicas {
				wg.Go(func() {
					<-start
					n, err := s.PruneSessions(ctx, veriland.Sandbox, cutoff)
					if err != nil {
						t.Errorf("replica %d: %v", i, err)
					}
					counts[i] = n
				})
			}
			close(start)
			wg.Wait()
			if counts[0]+counts[1] != stale {
				t.Fatalf("pruned %v, want %d in all", counts, stale)
			}
			t.Logf("pruned by replica A: %d, by replica B: %d", counts[0], counts[1])

			var left []string
			err = b.View(ctx, func(tx storage.Tx) error {
				for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
					if err := tx.Scan(storage.Bucket(env, bucketSessions), storage.Range{}, func(k, _ []byte) error {
						left = append(left, string(k))
						return nil
					}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for i := stale; i < stale+fresh; i++ {
				want = append(want, fmt.Sprintf("lvs_%05d", i))
			}
			want = append(want, "lvs_zzzcorrupt", "lvs_prod")
			if fmt.Sprint(left) != fmt.Sprint(want) {
				t.Fatalf("left %d sessions %v…, want %d", len(left), left[:min(len(left), 3)], len(want))
			}
		})
	}
}
