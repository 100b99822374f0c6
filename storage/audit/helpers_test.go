package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// openStore opens a bbolt store in a temporary directory. Tests skip fsync: the
// semantics under test do not depend on it, and the benchmarks measure it.
func openStore(tb testing.TB) *bolt.Store {
	tb.Helper()
	s, err := bolt.Open(filepath.Join(tb.TempDir(), "audit.db"), bolt.Options{NoSync: true})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// clock is a settable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// sample returns a valid entry for env; i varies its action and resource.
func sample(env veriland.Environment, i int) Entry {
	actions := []string{"consent.approve", "consent.revoke", "attestation.issue"}
	sev := []Severity{SeverityInfo, SeverityNotice, SeverityWarning}
	return Entry{
		Env:          env,
		Action:       actions[i%len(actions)],
		ResourceType: "verification_request",
		ResourceID:   fmt.Sprintf("vrq_%d", i),
		Severity:     sev[i%len(sev)],
		Outcome:      OutcomeSuccess,
		Detail:       map[string]any{"n": i},
	}
}

// appendN appends n sample entries to env's chain, one transaction each, advancing
// clk (when not nil) by a second per entry, and seals each one before the next, so
// that the returned (sealed) entries have seqs in the order of the calls.
func appendN(tb testing.TB, store storage.Store, l *Log, clk *clock, env veriland.Environment, n int) []Entry {
	tb.Helper()
	out := make([]Entry, 0, n)
	for i := range n {
		out = append(out, writeSealed(tb, context.Background(), store, l, sample(env, i)))
		if clk != nil {
			clk.Advance(time.Second)
		}
	}
	return out
}

// writeSealed writes e (Log.Write), seals its environment and returns the entry as
// sealed.
func writeSealed(tb testing.TB, ctx context.Context, store storage.Store, l *Log, e Entry) Entry {
	tb.Helper()
	pending, err := l.Write(ctx, store, e)
	require.NoError(tb, err)
	require.Zero(tb, pending.Seq, "pending until sealed")
	require.Empty(tb, pending.Hash)
	_, err = Seal(ctx, store, e.Env)
	require.NoError(tb, err)
	return sealed(tb, store, e.Env, pending.ID)
}

// sealed returns the sealed entry of env with the given id, the last one when
// several share it (tests with a fixed Rand).
func sealed(tb testing.TB, store storage.Store, env veriland.Environment, id string) Entry {
	tb.Helper()
	var found *Entry
	require.NoError(tb, store.View(context.Background(), func(tx storage.Tx) error {
		found = nil
		return tx.Scan(storage.Bucket(env, entriesBucket), storage.Range{Reverse: true}, func(_, v []byte) error {
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			if e.ID == id {
				found = &e
				return storage.ErrStop
			}
			return nil
		})
	}))
	require.NotNil(tb, found, "entry %s is not sealed", id)
	return *found
}

// pendingCount counts env's pending records.
func pendingCount(tb testing.TB, store storage.Store, env veriland.Environment) int {
	tb.Helper()
	n := 0
	require.NoError(tb, store.View(context.Background(), func(tx storage.Tx) error {
		n = 0
		return tx.Scan(storage.Bucket(env, pendingBucket), storage.Range{}, func(_, _ []byte) error {
			n++
			return nil
		})
	}))
	return n
}

func rawGet(tb testing.TB, store storage.Store, bucket string, key []byte) []byte {
	tb.Helper()
	var v []byte
	require.NoError(tb, store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		v, err = tx.Get(bucket, key)
		return err
	}))
	return v
}

func rawPut(tb testing.TB, store storage.Store, bucket string, key, value []byte) {
	tb.Helper()
	require.NoError(tb, store.Update(context.Background(), func(tx storage.Tx) error {
		return tx.Put(bucket, key, value)
	}))
}

func rawDelete(tb testing.TB, store storage.Store, bucket string, key []byte) {
	tb.Helper()
	require.NoError(tb, store.Update(context.Background(), func(tx storage.Tx) error {
		return tx.Delete(bucket, key)
	}))
}

func requireValid(tb testing.TB, store storage.Store, env veriland.Environment, entries int) Report {
	tb.Helper()
	rep, err := Verify(context.Background(), store, env)
	require.NoError(tb, err)
	require.True(tb, rep.Valid, "%+v", rep)
	require.Equal(tb, entries, rep.Entries)
	require.Zero(tb, rep.FirstBrokenSeq)
	return rep
}
