package idempotency

import (
	"crypto/sha256"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/storage/bolt"
)

// fakeClock is the shared settable test clock.
type fakeClock = clocktest.Clock

func newFakeClock() *fakeClock {
	return clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// newStore returns a Store on a fresh bbolt file with a fake clock.
func newStore(t testing.TB, opts bolt.Options) (*Store, *fakeClock) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "idempotency.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	clock := newFakeClock()
	return &Store{Store: db, Now: clock.Now}, clock
}

func testScope(key string) Scope {
	return Scope{Env: veriland.Production, Subject: "did:key:z6Mk", Method: "POST", Path: "/consent/vrq_1/approve", Key: key}
}

func sha256Of(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}
