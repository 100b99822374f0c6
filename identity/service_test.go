package identity_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// events records the events of committed transactions only: the hook writes into the
// transaction's own bucket, so rolled-back or retried runs leave nothing behind.
type events struct{ store storage.Store }

const eventBucket = "test/events"

func (e events) hook(_ context.Context, tx storage.Tx, ev identity.Event) error {
	var n int
	if err := tx.Scan(eventBucket, storage.Range{}, func(_, _ []byte) error { n++; return nil }); err != nil {
		return err
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	return tx.Put(eventBucket, []byte{byte(n >> 8), byte(n)}, b)
}

func (e events) list(t *testing.T) []identity.Event {
	t.Helper()
	var out []identity.Event
	require.NoError(t, e.store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(eventBucket, storage.Range{}, func(_, v []byte) error {
			var ev identity.Event
			if err := json.Unmarshal(v, &ev); err != nil {
				return err
			}
			out = append(out, ev)
			return nil
		})
	}))
	return out
}

type fixture struct {
	svc    *identity.Service
	store  *bolt.Store
	path   string
	clock  *clock
	events events
}

func newFixture(t testing.TB, kyc identity.KYCProvider) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "veriland.db")
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	if kyc == nil {
		kyc = identity.SandboxKYC{AllowProduction: true}
	}
	f := &fixture{store: store, path: path, clock: newClock(), events: events{store: store}}
	f.svc = &identity.Service{
		Store:    store,
		Pepper:   []byte("test-pepper-0123456789abcdef"),
		KYC:      kyc,
		Now:      f.clock.Now,
		Rand:     rand.Reader,
		OnChange: f.events.hook,
	}
	return f
}

func payload(scenario string) json.RawMessage {
	if scenario == "" {
		return nil
	}
	return json.RawMessage(`{"scenario":"` + scenario + `"}`)
}

func requireCode(t *testing.T, err error, code veriland.Code) *veriland.Error {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, veriland.CodeOf(err), "error: %v", err)
	var list veriland.Errors
	if errors.As(err, &list) {
		return list[0]
	}
	var verr *veriland.Error
	if !errors.As(err, &verr) {
		return &veriland.Error{Code: veriland.CodeInternal}
	}
	return verr
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

type atomicCounter struct{ v atomic.Int64 }

func (c *atomicCounter) next() int64 { return c.v.Add(1) }
