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
	now := s.now().UnixNano()
	total := 0
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		n, err := storage.DeleteWhere(ctx, s.Store, storage.Bucket(env, bucketName), pruneChunk, func(_, v []byte) bool {
			var head struct {
				Expires int64 `json:"exp"`
			}
			// A record that does not decode is garbage too.
			return json.Unmarshal(v, &head) != nil || head.Expires <= now
		})
		total += n
		if err != nil {
			return total, storeError(err)
		}
	}
	return total, nil
}
