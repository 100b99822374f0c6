package httpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/lease"
)

// sealingReplica is one server process of a deployment on a shared store.
type sealingReplica struct {
	srv    *Server
	store  storage.Store
	cancel context.CancelFunc
	done   chan struct{}
}

func startSealingReplica(t *testing.T, store storage.Store, id string) *sealingReplica {
	t.Helper()
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	srv, err := New(Config{Store: store, Tokens: tokens, ReplicaID: id, RateLimits: RateLimits{Disabled: true}})
	require.NoError(t, err)
	srv.sealLease.TTL = 600 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	r := &sealingReplica{srv: srv, store: store, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		if err := srv.Run(ctx); err != nil {
			t.Errorf("replica %s: Run: %v", id, err)
		}
	}()
	t.Cleanup(r.stop)
	return r
}

func (r *sealingReplica) stop() {
	r.cancel()
	<-r.done
}

// journal appends n audit entries of SANDBOX through r's log, as its requests would.
func (r *sealingReplica) journal(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		require.NoError(t, r.store.Update(t.Context(), func(tx storage.Tx) error {
			_, err := r.srv.auditLog.Append(t.Context(), tx, audit.Entry{Env: veriland.Sandbox, Actor: "test", Role: veriland.RoleAdmin,
				Action: "test.journal", ResourceID: fmt.Sprintf("r%d", i), Outcome: audit.OutcomeSuccess})
			return err
		}))
	}
}

// countAudit counts SANDBOX's pending and sealed entries.
func countAudit(t *testing.T, store storage.Store) (pending, sealed int) {
	t.Helper()
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		count := func(bucket string, n *int) error {
			return tx.Scan(storage.Bucket(veriland.Sandbox, bucket), storage.Range{}, func(_, _ []byte) error {
				*n++
				return nil
			})
		}
		if err := count("audit_pending", &pending); err != nil {
			return err
		}
		return count("audit", &sealed)
	}))
	return pending, sealed
}

// Two replicas run Run on one store: only the sealing lease's holder seals, every
// entry journaled on either is sealed once, the other takes over when the holder
// stops, and a replica that stops seals what is pending on its way out.
func TestRunSealsOnOneReplica(t *testing.T) {
	for name, open := range replicaStores() {
		t.Run(name, func(t *testing.T) {
			stores := open(t)
			a := startSealingReplica(t, stores[0], "replica-a")
			b := startSealingReplica(t, stores[1], "replica-b")
			require.Eventually(t, func() bool { return a.srv.sealLeading.Load() != b.srv.sealLeading.Load() },
				10*time.Second, 10*time.Millisecond, "one replica, and one only, holds the sealing lease")
			leader, standby := a, b
			if b.srv.sealLeading.Load() {
				leader, standby = b, a
			}

			a.journal(t, 5)
			b.journal(t, 5)
			require.Eventually(t, func() bool { p, s := countAudit(t, stores[0]); return p == 0 && s == 10 },
				10*time.Second, 10*time.Millisecond, "the holder seals what both journal")
			require.False(t, standby.srv.sealLeading.Load())

			leader.stop()
			require.Eventually(t, standby.srv.sealLeading.Load, 10*time.Second, 10*time.Millisecond,
				"the standby takes the lease the holder released")
			standby.journal(t, 3)
			require.Eventually(t, func() bool { p, s := countAudit(t, stores[1]); return p == 0 && s == 13 },
				10*time.Second, 10*time.Millisecond, "the new holder seals")

			// A replica that does not hold the lease when it stops seals what is
			// pending on its way out: the lease is held by a holder that never seals.
			standby.stop()
			other := &lease.Lease{Store: stores[0], Name: SealingLease, Holder: "not-sealing", TTL: time.Hour}
			_, err := other.Acquire(t.Context())
			require.NoError(t, err)
			c := startSealingReplica(t, stores[0], "replica-c")
			c.journal(t, 2)
			require.Never(t, c.srv.sealLeading.Load, 300*time.Millisecond, 20*time.Millisecond)
			if p, _ := countAudit(t, stores[0]); p != 2 {
				t.Fatalf("%d pending while nobody seals, want 2", p)
			}
			c.stop()
			if p, s := countAudit(t, stores[0]); p != 0 || s != 15 {
				t.Fatalf("after the last replica stopped: %d pending, %d sealed; want 0 and 15", p, s)
			}
		})
	}
}
