package ratelimit

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// pruneChunk bounds how many records one prune transaction examines, so that pruning a
// large bucket never holds the write lock for long.
const pruneChunk = 1000

// Prune deletes, in both environments, the records of keys that have been idle since
// before: keys whose theoretical arrival time is not after before. A pruned key behaves
// exactly like a key never seen, so calling Prune with the current time loses nothing.
// It returns the number of records deleted. Prune may run concurrently with Allow.
func (l *Limiter) Prune(ctx context.Context, before time.Time) (int, error) {
	cutoff := before.UnixNano()
	total := 0
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		bucket := storage.Bucket(env, bucketName)
		var start []byte
		for {
			var (
				deleted int
				last    []byte
				seen    int
			)
			err := l.Store.Update(ctx, func(tx storage.Tx) error {
				deleted, last, seen = 0, nil, 0
				var stale [][]byte
				err := tx.Scan(bucket, storage.Range{Start: start}, func(k, v []byte) error {
					seen++
					last = k
					if tat, err := decodeTAT(v); err != nil || tat <= cutoff {
						stale = append(stale, k)
					}
					if seen == pruneChunk {
						return storage.ErrStop
					}
					return nil
				})
				if err != nil {
					return err
				}
				for _, k := range stale {
					if err := tx.Delete(bucket, k); err != nil {
						return err
					}
				}
				deleted = len(stale)
				return nil
			})
			if err != nil {
				return total, unavailable(err)
			}
			total += deleted
			if seen < pruneChunk {
				break
			}
			start = append(last, 0)
		}
	}
	return total, nil
}
