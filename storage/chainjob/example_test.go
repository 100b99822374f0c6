package chainjob_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/chainjob"
)

// printer is a Handler that "sends" by printing.
type printer struct{}

func (printer) Run(_ context.Context, env veriland.Environment, j chainjob.Job) (chainjob.Result, error) {
	fmt.Println("send", j.Kind, j.Ref, "in", env)
	return chainjob.Result{TxHash: "0x01", Action: "send"}, nil
}

func (printer) Settle(_ context.Context, tx storage.Tx, env veriland.Environment, j chainjob.Job, r chainjob.Result, err error) error {
	fmt.Println("settled", j.Ref, r.TxHash, err)
	return nil
}

func Example() {
	dir, _ := os.MkdirTemp("", "chainjob")
	defer os.RemoveAll(dir)
	store, _ := bolt.Open(filepath.Join(dir, "jobs.db"), bolt.Options{})
	defer store.Close()

	// The state change and its chain work commit together.
	_ = store.Update(context.Background(), func(tx storage.Tx) error {
		// ... the state change's own writes ...
		return chainjob.Enqueue(tx, veriland.Production, chainjob.Job{Kind: "demo.mint", Ref: "token-1"}, time.Now())
	})

	q := &chainjob.Queue{Store: store}
	q.Handle("demo.mint", printer{})
	n, err := q.RunOnce(context.Background()) // or q.Run(ctx) in the background
	fmt.Println(n, err)
	// Output:
	// send demo.mint token-1 in PRODUCTION
	// settled token-1 0x01 <nil>
	// 1 <nil>
}
