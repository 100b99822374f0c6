package ratelimit

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/storage/bolt"
)

// fakeClock is the shared settable test clock.
type fakeClock = clocktest.Clock

func newFakeClock() *fakeClock {
	return clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// openStore opens a bbolt store in a temporary directory, closed at the end of the test.
func openStore(t testing.TB, opts bolt.Options) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(filepath.Join(t.TempDir(), "ratelimit.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}
