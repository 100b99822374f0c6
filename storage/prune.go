package storage

import "context"

// DeleteWhere deletes the keys of bucket for which stale reports true, scanning the
// bucket in key order in transactions of at most chunk keys (default 500), so that a
// large sweep never holds the write lock for long and may run alongside other writers.
// It returns the number of keys deleted; on error, the count of the transactions that
// committed before it.
func DeleteWhere(ctx context.Context, store Store, bucket string, chunk int, stale func(key, value []byte) bool) (int, error) {
	if chunk <= 0 {
		chunk = 500
	}
	total := 0
	var start []byte
	for {
		var deleted, seen int
		var last []byte
		err := store.Update(ctx, func(tx Tx) error {
			deleted, seen, last = 0, 0, nil
			var doomed [][]byte
			err := tx.Scan(bucket, Range{Start: start}, func(k, v []byte) error {
				seen++
				last = k
				if stale(k, v) {
					doomed = append(doomed, k)
				}
				if seen == chunk {
					return ErrStop
				}
				return nil
			})
			if err != nil {
				return err
			}
			for _, k := range doomed {
				if err := tx.Delete(bucket, k); err != nil {
					return err
				}
			}
			deleted = len(doomed)
			return nil
		})
		if err != nil {
			return total, err
		}
		total += deleted
		if seen < chunk {
			return total, nil
		}
		start = append(last, 0)
	}
}
