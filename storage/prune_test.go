package storage_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

func TestDeleteWhere(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "prune.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	defer store.Close()
	ctx := context.Background()
	require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
		for i := range 1234 {
			if err := tx.Put("b", fmt.Appendf(nil, "k%05d", i), []byte{byte(i % 3)}); err != nil {
				return err
			}
		}
		return nil
	}))
	for _, chunk := range []int{7, 0, 5000} {
		n, err := storage.DeleteWhere(ctx, store, "b", chunk, func(_, v []byte) bool { return v[0] == 0 })
		require.NoError(t, err)
		if chunk == 7 {
			require.Equal(t, 412, n) // i % 3 == 0 for 0..1233
		} else {
			require.Zero(t, n, "nothing left to delete")
		}
	}
	left := 0
	require.NoError(t, store.View(ctx, func(tx storage.Tx) error {
		return tx.Scan("b", storage.Range{}, func(_, v []byte) error {
			require.NotZero(t, v[0])
			left++
			return nil
		})
	}))
	require.Equal(t, 1234-412, left)

	n, err := storage.DeleteWhere(ctx, store, "missing", 10, func(_, _ []byte) bool { return true })
	require.NoError(t, err)
	require.Zero(t, n)
}
