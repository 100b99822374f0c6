package pgtest_test

import (
	"context"
	"testing"

	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

func TestReplicasShareOneSchema(t *testing.T) {
	stores := pgtest.Replicas(t, 2, 2)
	ctx := context.Background()
	if err := stores[0].Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Global("t"), []byte("k"), []byte("v"))
	}); err != nil {
		t.Fatal(err)
	}
	err := stores[1].View(ctx, func(tx storage.Tx) error {
		v, err := tx.Get(storage.Global("t"), []byte("k"))
		if err == nil && string(v) != "v" {
			t.Errorf("replica 1 read %q, want v", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	other := pgtest.Replicas(t, 1, 2)[0]
	err = other.View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get(storage.Global("t"), []byte("k"))
		return err
	})
	if err != storage.ErrNotFound {
		t.Fatalf("a second Replicas call shares rows: %v", err)
	}
}
