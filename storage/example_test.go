package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// A typed repository writes several records in one transaction, in its
// environment's namespace, and scans them back in key order.
func Example() {
	dir, _ := os.MkdirTemp("", "storage-example")
	defer os.RemoveAll(dir)
	var store storage.Store
	store, err := bolt.Open(filepath.Join(dir, "example.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	ctx := context.Background()
	parcels := storage.Bucket(veriland.Sandbox, "parcels")
	err = store.Update(ctx, func(tx storage.Tx) error {
		for _, id := range []string{"prc_b", "prc_a", "prc_c"} {
			if err := tx.Put(parcels, []byte(id), []byte(`{"status":"PENDING_NOTARY"}`)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	_ = store.View(ctx, func(tx storage.Tx) error {
		_ = tx.Scan(parcels, storage.Range{Prefix: []byte("prc_")}, func(k, _ []byte) error {
			fmt.Println(string(k))
			return nil
		})
		_, err := tx.Get(storage.Bucket(veriland.Production, "parcels"), []byte("prc_a"))
		fmt.Println("production sees it:", err == nil)
		return nil
	})
	// Output:
	// prc_a
	// prc_b
	// prc_c
	// production sees it: false
}

// ViewOne reads one record by its id as cheaply as the store allows (one statement
// on PostgreSQL), and refuses a second read.
func ExampleViewOne() {
	dir, _ := os.MkdirTemp("", "storage-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "example.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	ctx := context.Background()
	parcels := storage.Bucket(veriland.Sandbox, "parcels")
	_ = store.Update(ctx, func(tx storage.Tx) error {
		return tx.Put(parcels, []byte("prc_a"), []byte(`{"status":"CERTIFIED"}`))
	})
	err = storage.ViewOne(ctx, store, func(tx storage.Tx) error {
		v, err := tx.Get(parcels, []byte("prc_a"))
		fmt.Println(string(v), err)
		_, err = tx.Get(parcels, []byte("prc_b"))
		return err
	})
	fmt.Println(errors.Is(err, storage.ErrOneRead))
	// Output:
	// {"status":"CERTIFIED"} <nil>
	// true
}
