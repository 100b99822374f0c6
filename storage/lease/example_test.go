package lease_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/lease"
)

// Two replicas contend for the "anchoring" lease: the first takes it, the second is
// refused until the first releases it, and then takes it in the next term.
func Example() {
	dir, _ := os.MkdirTemp("", "lease-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "example.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()
	ctx := context.Background()

	a := &lease.Lease{Store: store, Name: "anchoring", Holder: "replica-a", TTL: 15 * time.Second}
	b := &lease.Lease{Store: store, Name: "anchoring", Holder: "replica-b", TTL: 15 * time.Second}

	st, _ := a.Acquire(ctx)
	fmt.Println("a holds term", st.Term)
	_, err = b.Acquire(ctx)
	fmt.Println("b:", err)

	// Before each action that must not overlap, the holder checks it still leads.
	fmt.Println("a checks:", a.Check(ctx))

	_ = a.Release(ctx)
	st, _ = b.Acquire(ctx)
	fmt.Println("b holds term", st.Term, "and a checks:", a.Check(ctx))
	// Output:
	// a holds term 1
	// b: lease: held by another holder
	// a checks: <nil>
	// b holds term 2 and a checks: lease: not held
}

// Run keeps a worker running on one replica at a time.
func ExampleLease_Run() {
	dir, _ := os.MkdirTemp("", "lease-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "example.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	l := &lease.Lease{Store: store, Name: "anchoring", Holder: "replica-a"}
	ctx, cancel := context.WithCancel(context.Background())
	err = l.Run(ctx, func(ctx context.Context) error {
		fmt.Println("leading; check:", l.Check(ctx))
		cancel() // the server shuts down
		<-ctx.Done()
		return nil
	})
	st, _ := l.Get(context.Background())
	fmt.Println("Run:", err, "released:", st.Holder == "")
	// Output:
	// leading; check: <nil>
	// Run: <nil> released: true
}
