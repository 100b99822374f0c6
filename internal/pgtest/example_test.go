package pgtest_test

import (
	"context"
	"testing"

	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

// Two replicas see each other's writes: they share one schema.
func ExampleReplicas() {
	t := &testing.T{} // in a test: the test's *testing.T
	stores := pgtest.Replicas(t, 2, 4)
	ctx := context.Background()
	_ = stores[0].Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Global("example"), []byte("k"), []byte("v"))
	})
	_ = stores[1].View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get(storage.Global("example"), []byte("k"))
		return err
	})
}
