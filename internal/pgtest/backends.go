package pgtest

import (
	"path/filepath"
	"testing"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// Pair opens the two stores of two replicas sharing one store, for a test of what
// several replicas do at once.
type Pair func(t *testing.T) (storage.Store, storage.Store)

// ReplicaBackends returns the two shapes of "two replicas on one store" by name:
// "bolt", both replicas on one bbolt file (one process, as when goroutines share a
// store; fsync off, the file is a test's), and "postgres", two stores with their own
// pools of at most maxConns connections on one fresh schema (Replicas; skipped, or
// failed under CI=true, without a test server).
func ReplicaBackends(maxConns int) map[string]Pair {
	return map[string]Pair{
		"bolt": func(t *testing.T) (storage.Store, storage.Store) {
			s, err := bolt.Open(filepath.Join(t.TempDir(), "replicas.db"), bolt.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s, s
		},
		"postgres": func(t *testing.T) (storage.Store, storage.Store) {
			pg := Replicas(t, 2, maxConns)
			return pg[0], pg[1]
		},
	}
}
