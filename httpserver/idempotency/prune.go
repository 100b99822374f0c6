package idempotency

import (
	"context"
	"encoding/json"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// pruneChunk bounds how many records one prune transaction examines, so that pruning a
// large bucket never holds the write lock for long.
const pruneChunk = 500

// Prune deletes, in both environments, the records that have expired (they already
// behave as absent) and returns how many it deleted. It may run concurrently with
// requests.
func (s *Store) Prune(ctx context.Context) (int, error) {
	total := 0
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		bucket := storage.Bucket(env, bucketName)
		var start []byte
		for {
			var (
				deleted, seen int
				last          []byte
			)
			err := s.Store.Update(ctx, func(tx storage.Tx) error {
				deleted, seen, last = 0, 0, nil
				now := s.now().UnixNano()
				var expired [][]byte
				err := tx.Scan(bucket, storage.Range{Start: start}, func(k, v []byte) error {
					seen++
					last = k
					var head struct {
						Expires int64 `json:"exp"`
					}
					// A record that does not decode is garbage too.
					if json.Unmarshal(v, &head) != nil || head.Expires <= now {
						expired = append(expired, k)
					}
					if seen == pruneChunk {
						return storage.ErrStop
					}
					return nil
				})
				if err != nil {
					return err
				}
				for _, k := range expired {
					if err := tx.Delete(bucket, k); err != nil {
						return err
					}
				}
				deleted = len(expired)
				return nil
			})
			if err != nil {
				return total, storeError(err)
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
