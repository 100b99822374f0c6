package storagetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Dump returns every key and value of the named buckets as "bucket|key" → value, read
// in one transaction, for tests that check what an operation wrote and that it left
// everything else alone (compare a Dump before with one after). A missing bucket
// contributes nothing.
func Dump(tb testing.TB, st storage.Store, buckets ...string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	require.NoError(tb, st.View(context.Background(), func(tx storage.Tx) error {
		for _, name := range buckets {
			if err := tx.Scan(name, storage.Range{}, func(k, v []byte) error {
				out[name+"|"+string(k)] = string(v)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}))
	return out
}

// EnvBuckets returns storage.Bucket(env, name) for both environments and every name:
// the buckets of one domain's records in SANDBOX and PRODUCTION.
func EnvBuckets(names ...string) []string {
	var out []string
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		for _, n := range names {
			out = append(out, storage.Bucket(env, n))
		}
	}
	return out
}
