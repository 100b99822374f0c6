package lease_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// backend opens n handles on one store: n times the same bbolt store (one process),
// or n PostgreSQL stores with their own pools on one schema (n replicas).
type backend struct {
	name string
	open func(t *testing.T, n int) []storage.Store
}

var backends = []backend{
	{"bolt", func(t *testing.T, n int) []storage.Store {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "lease.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		out := make([]storage.Store, n)
		for i := range out {
			out[i] = s
		}
		return out
	}},
	{"postgres", func(t *testing.T, n int) []storage.Store {
		var out []storage.Store
		for _, s := range pgtest.Replicas(t, n, 4) {
			out = append(out, s)
		}
		return out
	}},
}

// forEachBackend runs test on each backend as a subtest.
func forEachBackend(t *testing.T, n int, test func(t *testing.T, stores []storage.Store)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b.open(t, n)) })
	}
}

// errPartitioned is the failure of a store cut off from its process.
var errPartitioned = errors.New("partitioned")

// partitionable is a store that can be cut off: every transaction then fails.
type partitionable struct {
	storage.Store
	cut atomic.Bool
}

func (p *partitionable) View(ctx context.Context, fn func(storage.Tx) error) error {
	if p.cut.Load() {
		return errPartitioned
	}
	return p.Store.View(ctx, fn)
}

func (p *partitionable) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if p.cut.Load() {
		return errPartitioned
	}
	return p.Store.Update(ctx, fn)
}
