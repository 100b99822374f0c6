package httpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/chainjob"
)

// countingAnchor is one replica's chain: it counts what it anchored.
type countingAnchor struct {
	mu      sync.Mutex
	digests map[[32]byte]int
}

func (a *countingAnchor) Anchor(_ context.Context, d [32]byte) (anchor.Receipt, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.digests == nil {
		a.digests = map[[32]byte]int{}
	}
	a.digests[d]++
	return anchor.Receipt{TxHash: "0x" + common.Bytes2Hex(d[:]), BlockNumber: uint64(len(a.digests))}, nil
}

func (a *countingAnchor) Name() string { return "counting" }

func (a *countingAnchor) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, c := range a.digests {
		n += c
	}
	return n
}

// anchoringReplica is one server process of a deployment: its own Server, anchoring
// service and chain on the shared store.
type anchoringReplica struct {
	srv    *Server
	atts   *attestation.Service
	chain  *countingAnchor
	cancel context.CancelFunc
	done   chan struct{}
}

func startAnchoringReplica(t *testing.T, store storage.Store, issuerKey []byte, id string) *anchoringReplica {
	t.Helper()
	key, err := crypto.ToECDSA(issuerKey)
	if err != nil {
		t.Fatal(err)
	}
	r := &anchoringReplica{chain: &countingAnchor{}, done: make(chan struct{})}
	r.atts = &attestation.Service{
		Store:   store,
		Issuer:  &attestation.Issuer{Key: key, ChainID: 1},
		Anchors: map[veriland.Environment]anchor.Anchor{veriland.Production: r.chain},
	}
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	r.srv, err = New(Config{Store: store, Tokens: tokens, Attestations: r.atts, ReplicaID: id, RateLimits: RateLimits{Disabled: true},
		ChainJobs: chainjob.Policy{PollInterval: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	r.srv.anchorLease.TTL = 600 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		defer close(r.done)
		if err := r.srv.Run(ctx); err != nil {
			t.Errorf("replica %s: Run: %v", id, err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

func (r *anchoringReplica) stop() {
	r.cancel()
	<-r.done
}

// Two replicas run Run on one store: only the anchoring lease's holder anchors, each
// attestation once; when it shuts down, the other takes over.
func TestRunAnchorsOnOneReplica(t *testing.T) {
	for name, open := range replicaStores() {
		t.Run(name, func(t *testing.T) {
			stores := open(t)
			issuerKey := bytes.Repeat([]byte{7}, 32)
			a := startAnchoringReplica(t, stores[0], issuerKey, "replica-a")
			b := startAnchoringReplica(t, stores[1], issuerKey, "replica-b")

			issued := issueProduction(t, a.atts, 10)
			waitAnchored(t, a.atts, issued)
			leader, standby := a, b
			if b.chain.count() > 0 {
				leader, standby = b, a
			}
			if leader.chain.count() != len(issued) || standby.chain.count() != 0 {
				t.Fatalf("anchored %d on the leader and %d on the standby, want %d and 0",
					leader.chain.count(), standby.chain.count(), len(issued))
			}

			if !leader.srv.anchorLeading.Load() || standby.srv.anchorLeading.Load() {
				t.Fatal("veriland_anchoring_leader does not name the leader")
			}
			leader.stop()
			more := issueProduction(t, standby.atts, 5)
			waitAnchored(t, standby.atts, more)
			if standby.chain.count() != len(more) || leader.chain.count() != len(issued) {
				t.Fatalf("after the handover: %d on the new leader, %d on the old one", standby.chain.count(), leader.chain.count())
			}
			for _, c := range []*countingAnchor{a.chain, b.chain} {
				for d, n := range c.digests {
					if n != 1 {
						t.Fatalf("digest %x anchored %d times", d, n)
					}
				}
			}
		})
	}
}

func issueProduction(t *testing.T, s *attestation.Service, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		var id string
		err := s.Store.Update(context.Background(), func(tx storage.Tx) error {
			att, err := s.Issue(context.Background(), tx, veriland.Production, attestation.Draft{
				Kind: attestation.KindLiveness, Subject: "did:veriland:test", Claims: map[string]any{"level": "L2", "passed": true},
			})
			if err == nil {
				id = att.ID // the last run of fn is the one that committed
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func waitAnchored(t *testing.T, s *attestation.Service, ids []string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, id := range ids {
		for {
			att, err := s.Get(context.Background(), veriland.Production, id)
			if err != nil {
				t.Fatal(err)
			}
			if att.Anchor.Status == attestation.AnchorAnchored {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still %s", id, att.Anchor.Status)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// replicaStores are the two ways the lease tests give two replicas one store: one
// bbolt file opened once (two Servers in one process), and two connection pools on
// one PostgreSQL database (skipped without one, failed under CI=true).
func replicaStores() map[string]func(t *testing.T) []storage.Store {
	return map[string]func(t *testing.T) []storage.Store{
		"bolt": func(t *testing.T) []storage.Store {
			s, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return []storage.Store{s, s}
		},
		"postgres": func(t *testing.T) []storage.Store {
			pg := pgtest.Replicas(t, 2, 4)
			return []storage.Store{pg[0], pg[1]}
		},
	}
}
