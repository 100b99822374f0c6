package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

// severable is a replica's view of the store that can be cut off, as by kill -9:
// every transaction after the cut fails, so attempts in flight are never recorded.
type severable struct {
	storage.Store
	cut atomic.Bool
}

var errSevered = errors.New("replica killed")

func (s *severable) View(ctx context.Context, fn func(storage.Tx) error) error {
	if s.cut.Load() {
		return errSevered
	}
	return s.Store.View(ctx, fn)
}

func (s *severable) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if s.cut.Load() {
		return errSevered
	}
	return s.Store.Update(ctx, fn)
}

// countingReceiver fails its first failures requests with 500, counts requests and
// successes per webhook-id, and, once hold is set, keeps the requests of replica A
// waiting until release is closed: attempts A has in flight when it is killed.
type countingReceiver struct {
	*httptest.Server
	mu        sync.Mutex
	hits      map[string]int
	successes map[string]int
	failures  atomic.Int64
	total     atomic.Int64
	hold      atomic.Bool
	held      atomic.Int64
	release   chan struct{}
}

func newCountingReceiver(t *testing.T, failures int) *countingReceiver {
	r := &countingReceiver{hits: map[string]int{}, successes: map[string]int{}, release: make(chan struct{})}
	r.failures.Store(int64(failures))
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get(replicaHeader) == "a" && r.hold.Load() {
			r.held.Add(1)
			<-r.release
		}
		id := req.Header.Get(webhook.HeaderID)
		fail := r.failures.Add(-1) >= 0
		r.mu.Lock()
		r.hits[id]++
		if !fail {
			r.successes[id]++
		}
		r.mu.Unlock()
		r.total.Add(1)
		if fail {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

// replicaHeader tells the receiver which replica sent a request.
const replicaHeader = "X-Test-Replica"

// taggedTransport marks each request with the replica that sends it.
type taggedTransport struct {
	replica string
	next    http.RoundTripper
}

func (t taggedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(replicaHeader, t.replica)
	return t.next.RoundTrip(req)
}

// taggedClient is the outbox's default SANDBOX client, tagging requests with replica.
func taggedClient(replica string) func(veriland.Environment) *http.Client {
	c := webhook.NewClient(veriland.Sandbox, webhook.CallbackPolicy{})
	c.Transport = taggedTransport{replica: replica, next: c.Transport}
	return func(veriland.Environment) *http.Client { return c }
}

// Two replicas' outboxes deliver from one store; one is killed mid-way with attempts
// in flight. Every delivery succeeds; every request the receiver got is an attempt
// recorded in the delivery's history, except at most one per attempt the killed
// replica had in flight (at-least-once: it is made again when its claim lease ends);
// a receiver failure is retried on the schedule.
func TestOutboxAcrossReplicas(t *testing.T) {
	backends := pgtest.ReplicaBackends(8)
	const (
		events      = 40
		failures    = 3 // the receiver's first answers: 500, retried 5 s later
		workers     = 4
		claimLease  = time.Second
		killAfterOf = events / 4
	)
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			storeA, storeB := open(t)
			a := &severable{Store: storeA}
			recv := newCountingReceiver(t, failures)
			outbox := func(s storage.Store, replica string) *webhook.Outbox {
				return &webhook.Outbox{Store: s, Jitter: middle{}, Workers: workers, ClaimLease: claimLease,
					PollInterval: 50 * time.Millisecond, Client: taggedClient(replica), Logger: slog.New(slog.DiscardHandler)}
			}
			obA, obB := outbox(a, "a"), outbox(storeB, "b")

			ids := make([]string, events)
			for i := range ids {
				ev := approved(recv.URL + "/hooks")
				ev.Data = map[string]any{"requestId": fmt.Sprintf("vrq_%d", i), "status": "APPROVED"}
				err := storeB.Update(context.Background(), func(tx storage.Tx) error {
					d, err := obB.Enqueue(context.Background(), tx, veriland.Sandbox, ev)
					ids[i] = d.ID
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}

			ctxA, cancelA := context.WithCancel(context.Background())
			ctxB, cancelB := context.WithCancel(context.Background())
			doneA, doneB := make(chan error, 1), make(chan error, 1)
			defer func() {
				cancelA()
				cancelB()
			}()

			// A delivers a quarter of the events alone, then the receiver holds its next
			// attempts; B starts, and A is killed with those in flight: their answers
			// come after A can no longer record them. (B starts only then, so that A is
			// sure to have an attempt in flight however the machine schedules them.)
			go func() { doneA <- obA.Run(ctxA) }()
			waitFor(t, 30*time.Second, "the first deliveries", func() bool { return recv.total.Load() >= killAfterOf })
			recv.hold.Store(true)
			waitFor(t, 30*time.Second, "an attempt of A in flight", func() bool { return recv.held.Load() > 0 })
			go func() { doneB <- obB.Run(ctxB) }()
			a.cut.Store(true)
			cancelA()
			close(recv.release)
			if err := <-doneA; err != nil {
				t.Fatalf("A's Run: %v", err)
			}

			waitFor(t, 60*time.Second, "every delivery to succeed", func() bool {
				for _, id := range ids {
					d, err := obB.Get(context.Background(), veriland.Sandbox, id)
					if err != nil {
						t.Fatal(err)
					}
					if d.Status != webhook.StatusSucceeded {
						return false
					}
				}
				return true
			})
			cancelB()
			if err := <-doneB; err != nil {
				t.Fatalf("B's Run: %v", err)
			}

			recv.mu.Lock()
			defer recv.mu.Unlock()
			unrecorded, duplicates, retried := 0, 0, 0
			for _, id := range ids {
				d, err := obB.Get(context.Background(), veriland.Sandbox, id)
				if err != nil {
					t.Fatal(err)
				}
				extra := recv.hits[id] - len(d.Attempts)
				if extra < 0 || extra > 1 {
					t.Errorf("%s: %d requests received, %d attempts recorded", id, recv.hits[id], len(d.Attempts))
				}
				unrecorded += extra
				if recv.successes[id] == 0 {
					t.Errorf("%s: SUCCEEDED but never answered 2xx", id)
				}
				if recv.successes[id] > 1 {
					duplicates++
					if extra == 0 {
						t.Errorf("%s: delivered %d times with no lost attempt to explain it", id, recv.successes[id])
					}
				}
				if len(d.Attempts) > 1 {
					retried++
				}
			}
			if held := int(recv.held.Load()); unrecorded != held {
				t.Errorf("%d attempts unrecorded, but the killed replica had %d in flight", unrecorded, held)
			}
			if retried < failures {
				t.Errorf("%d deliveries retried, want at least the %d the receiver failed", retried, failures)
			}
			if len(recv.hits) != events {
				t.Errorf("the receiver saw %d webhook-ids, want %d", len(recv.hits), events)
			}
			t.Logf("%d events, %d requests: %d lost with the killed replica and made again (%d delivered twice), %d retried after a failure",
				events, recv.total.Load(), unrecorded, duplicates, retried)
		})
	}
}

func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
