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
		n, err := storage.DeleteWhere(ctx, l.Store, storage.Bucket(env, bucketName), pruneChunk, func(_, v []byte) bool {
			tat, err := decodeTAT(v)
			return err != nil || tat <= cutoff
		})
		total += n
		if err != nil {
			return total, unavailable(err)
		}
	}
	return total, nil
}
