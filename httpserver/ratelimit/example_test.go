package ratelimit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "ratelimit-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &ratelimit.Limiter{Store: store, Now: func() time.Time { return now }}
	p := ratelimit.Policy{Name: "wallet", Limit: 60, Window: time.Minute, Burst: 2}

	for range 3 {
		d, err := l.Allow(context.Background(), veriland.Production, "0x52908400098527886e0f7030069857d2e4169ee7", p)
		if err != nil {
			panic(err)
		}
		fmt.Printf("allowed=%v remaining=%d retryAfter=%s\n", d.Allowed, d.Remaining, d.RetryAfter)
	}
	now = now.Add(time.Second)
	d, _ := l.Allow(context.Background(), veriland.Production, "0x52908400098527886e0f7030069857d2e4169ee7", p)
	fmt.Printf("after 1s: allowed=%v\n", d.Allowed)
	// Output:
	// allowed=true remaining=1 retryAfter=0s
	// allowed=true remaining=0 retryAfter=0s
	// allowed=false remaining=0 retryAfter=1s
	// after 1s: allowed=true
}
