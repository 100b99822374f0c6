package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// Open a store, write two records in one transaction, read one back, and scan a
// prefix in key order.
func Example() {
	dir, err := os.MkdirTemp("", "veriland-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	orders := storage.Bucket(veriland.Sandbox, "orders")

	// Both records commit together, with one fsync, or not at all.
	err = s.Update(ctx, func(tx storage.Tx) error {
		if err := tx.Put(orders, []byte("order/1"), []byte("paid")); err != nil {
			return err
		}
		if err := tx.Put(orders, []byte("order/2"), []byte("pending")); err != nil {
			return err
		}
		return tx.Put(orders, []byte("refund/1"), []byte("done"))
	})
	if err != nil {
		log.Fatal(err)
	}

	err = s.View(ctx, func(tx storage.Tx) error {
		v, err := tx.Get(orders, []byte("order/1"))
		if err != nil {
			return err
		}
		fmt.Printf("order/1: %s\n", v)

		// Production's namespace holds none of the sandbox's records.
		_, err = tx.Get(storage.Bucket(veriland.Production, "orders"), []byte("order/1"))
		if errors.Is(err, storage.ErrNotFound) {
			fmt.Println("order/1 in production: not found")
		}

		return tx.Scan(orders, storage.Range{Prefix: []byte("order/"), Reverse: true}, func(k, v []byte) error {
			fmt.Printf("%s = %s\n", k, v)
			return nil
		})
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// order/1: paid
	// order/1 in production: not found
	// order/2 = pending
	// order/1 = paid
}

// Stats shows how many durable commits the transactions cost.
func ExampleStore_Stats() {
	dir, err := os.MkdirTemp("", "veriland-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	for i := range 3 {
		if err := s.Update(context.Background(), func(tx storage.Tx) error {
			return tx.Put("counters", fmt.Append(nil, i), []byte("1"))
		}); err != nil {
			log.Fatal(err)
		}
	}
	// A lone writer commits each transaction at once, on its own.
	st := s.Stats()
	fmt.Printf("%d transactions in %d commits\n", st.Transactions, st.Commits)
	// Output:
	// 3 transactions in 3 commits
}

// Scan stops early when its function returns storage.ErrStop.
func ExampleStore_View() {
	dir, err := os.MkdirTemp("", "veriland-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	events := storage.Global("events")
	if err := s.Update(ctx, func(tx storage.Tx) error {
		for _, k := range []string{"2026-01-01", "2026-01-02", "2026-02-01", "2026-02-15", "2026-03-01"} {
			if err := tx.Put(events, []byte(k), nil); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		log.Fatal(err)
	}

	// The first two events from February on.
	n := 0
	err = s.View(ctx, func(tx storage.Tx) error {
		return tx.Scan(events, storage.Range{Start: []byte("2026-02")}, func(k, _ []byte) error {
			fmt.Println(string(k))
			if n++; n == 2 {
				return storage.ErrStop
			}
			return nil
		})
	})
	fmt.Println("err:", err)
	// Output:
	// 2026-02-01
	// 2026-02-15
	// err: <nil>
}
