package audit_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	// Deterministic clock and randomness, so that the hashes below are stable.
	log := &audit.Log{
		Now:  func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) },
		Rand: bytes.NewReader(make([]byte, 1024)),
	}
	ctx := veriland.WithPrincipal(context.Background(), veriland.Principal{
		Subject: "verifier-7", Role: veriland.RoleVerifier, Env: veriland.Sandbox,
	})

	// The state change and its audit entry commit together.
	err = store.Update(ctx, func(tx storage.Tx) error {
		if err := tx.Put(storage.Bucket(veriland.Sandbox, "requests"), []byte("vrq_1"), []byte(`{"status":"APPROVED"}`)); err != nil {
			return err
		}
		e, err := log.Append(ctx, tx, audit.Entry{
			Env: veriland.Sandbox, Action: "consent.approve", Outcome: audit.OutcomeSuccess,
			ResourceType: "verification_request", ResourceID: "vrq_1",
			Detail: map[string]any{"status": "APPROVED"},
		})
		fmt.Println("pending:", e.Seq, e.ID, e.Actor, e.Severity, e.Hash == "")
		return err
	})
	if err != nil {
		panic(err)
	}

	// A sealer (Log.RunSealing on every replica; List and Verify seal first too)
	// gives the entry its place in the chain.
	n, err := audit.Seal(context.Background(), store, veriland.Sandbox)
	if err != nil {
		panic(err)
	}
	entries, _, err := audit.List(context.Background(), store, veriland.Sandbox, audit.Filter{})
	if err != nil {
		panic(err)
	}
	fmt.Println("sealed:", n, entries[0].Seq, entries[0].PrevHash == audit.GenesisHash)

	rep, err := audit.Verify(context.Background(), store, veriland.Sandbox)
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Valid, rep.Entries, rep.HeadHash, rep.FirstBrokenSeq)
	// Output:
	// pending: 0 aud_aaaaaaaaaaaaaaaaaaaaaaaaaa verifier-7 INFO true
	// sealed: 1 1 true
	// true 1 5541c083844ebc00e588d85fcabcd1162277040c144bef16673fee55a57525dc 0
}

func ExampleCoalescer() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	now := time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC)
	clock := func() time.Time { return now }
	c := &audit.Coalescer{Log: &audit.Log{Now: clock}, Now: clock}

	// An attacker replays a bad token 500 times; the key (here the client IP) stays
	// in memory and is never written.
	for range 500 {
		_ = c.Record(veriland.Production, "bad_token:203.0.113.7", audit.Entry{
			Action: "auth.bad_token", Severity: audit.SeverityWarning, Outcome: audit.OutcomeFailure,
		})
	}
	now = now.Add(time.Minute) // the minute closes
	if err := c.Flush(context.Background(), store); err != nil {
		panic(err)
	}

	entries, _, err := audit.List(context.Background(), store, veriland.Production, audit.Filter{})
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Println(e.Seq, e.Action, e.Detail["count"], e.Detail["windowStart"])
	}
	// Output:
	// 1 auth.bad_token 500 2026-11-22T10:00:00Z
}
