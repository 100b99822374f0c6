package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/bolt"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// middle draws the middle of the jitter range, so scheduled times are the bare offsets.
type middle struct{}

func (middle) Float64() float64 { return 0.5 }

// openStore opens (or reopens) the bbolt file at path; tests skip fsync.
func openStore(tb testing.TB, path string) *bolt.Store {
	tb.Helper()
	s, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(tb, err)
	return s
}

// fixture is a store, a fake clock and an outbox over them.
type fixture struct {
	t     testing.TB
	path  string
	store *bolt.Store
	clock *clock
	audit *audit.Log
	ob    *webhook.Outbox
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	f := &fixture{t: tb, path: filepath.Join(tb.TempDir(), "outbox.db"), clock: &clock{t: t0}}
	f.audit = &audit.Log{Now: f.clock.Now}
	f.open()
	tb.Cleanup(func() { _ = f.store.Close() })
	return f
}

// open opens the store file and builds a fresh Outbox on it, as a restarted server does.
func (f *fixture) open() {
	f.store = openStore(f.t, f.path)
	f.ob = f.outbox()
}

// restart closes the store and opens it again with a new Outbox.
func (f *fixture) restart() {
	require.NoError(f.t, f.store.Close())
	f.open()
}

func (f *fixture) outbox() *webhook.Outbox {
	return &webhook.Outbox{
		Store:   f.store,
		Now:     f.clock.Now,
		Jitter:  middle{},
		Secrets: f.secrets(),
		Audit:   f.audit,
	}
}

func (f *fixture) secrets() *webhook.SecretStore {
	return &webhook.SecretStore{Store: f.store, Now: f.clock.Now, Audit: f.audit}
}

func (f *fixture) enqueue(env veriland.Environment, ev webhook.Event) webhook.Delivery {
	f.t.Helper()
	var d webhook.Delivery
	require.NoError(f.t, f.store.Update(context.Background(), func(tx storage.Tx) error {
		var err error
		d, err = f.ob.Enqueue(context.Background(), tx, env, ev)
		return err
	}))
	return d
}

func (f *fixture) get(env veriland.Environment, id string) webhook.Delivery {
	f.t.Helper()
	d, err := f.ob.Get(context.Background(), env, id)
	require.NoError(f.t, err)
	return d
}

func (f *fixture) runOnce() int {
	f.t.Helper()
	n, err := f.ob.RunOnce(context.Background())
	require.NoError(f.t, err)
	return n
}

// drive runs the outbox at each time the delivery is next due until it is no longer
// PENDING, and returns it.
func (f *fixture) drive(env veriland.Environment, id string) webhook.Delivery {
	f.t.Helper()
	for range 50 {
		f.runOnce()
		d := f.get(env, id)
		if d.Status != webhook.StatusPending {
			return d
		}
		require.False(f.t, d.NextAttemptAt.Before(f.clock.Now()), "next attempt in the past")
		f.clock.Set(d.NextAttemptAt)
	}
	f.t.Fatal("delivery still pending after 50 rounds")
	return webhook.Delivery{}
}

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is an httptest server on loopback that answers failures times with 500 and
// then 204, recording every request.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      []received
	failures atomic.Int64
	hits     atomic.Int64
}

func newReceiver(tb testing.TB, failures int) *receiver {
	r := &receiver{}
	r.failures.Store(int64(failures))
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.hits.Add(1)
		r.mu.Lock()
		r.got = append(r.got, received{header: req.Header.Clone(), body: body})
		r.mu.Unlock()
		if r.failures.Add(-1) >= 0 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	tb.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

func approved(url string) webhook.Event {
	return webhook.Event{
		Type: "verification.approved", Verifier: "verifier-1", Account: "acct_1", CallbackURL: url,
		Data: map[string]any{"requestId": "vrq_1", "status": "APPROVED", "attestationId": "att_1"},
	}
}

func isCode(code veriland.Code) func(error) bool {
	return func(err error) bool { return veriland.IsCode(err, code) }
}

var errRollback = errors.New("roll back")
