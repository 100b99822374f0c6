package attestation_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
)

// flakyAnchor fails its first failures calls.
type flakyAnchor struct {
	mu       sync.Mutex
	failures int
	calls    int
	digests  [][32]byte
}

func (f *flakyAnchor) Anchor(_ context.Context, d [32]byte) (anchor.Receipt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls <= f.failures {
		return anchor.Receipt{}, errors.New("node unreachable")
	}
	f.digests = append(f.digests, d)
	return anchor.Receipt{TxHash: "0x" + common.Bytes2Hex(d[:]), BlockNumber: uint64(f.calls)}, nil
}

func (f *flakyAnchor) Name() string { return "flaky" }

func TestAnchoringWithTheSimulatedChain(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	key, _ := crypto.HexToECDSA(otherKeyHex)
	sim, err := anchor.NewSimulated(key)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Sandbox: sim}

	att := issue(t, s, veriland.Sandbox, livenessDraft())
	prod := issue(t, s, veriland.Production, livenessDraft())
	if att.Anchor.Status != attestation.AnchorPending || prod.Anchor.Status != attestation.AnchorDisabled {
		t.Fatalf("anchor status = %s / %s", att.Anchor.Status, prod.Anchor.Status)
	}
	n, err := s.AnchorPending(ctx)
	if err != nil || n != 1 {
		t.Fatalf("AnchorPending = %d, %v", n, err)
	}
	got, _ := s.Get(ctx, veriland.Sandbox, att.ID)
	if got.Anchor.Status != attestation.AnchorAnchored || got.Anchor.BlockNumber == nil || *got.Anchor.BlockNumber != 1 || len(got.Anchor.TxHash) != 66 {
		t.Fatalf("anchor = %+v", got.Anchor)
	}
	// The chain holds the attestation's EIP-712 digest as calldata.
	tx, _, err := sim.Backend().Client().TransactionByHash(ctx, common.HexToHash(got.Anchor.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := got.Message()
	if common.BytesToHash(tx.Data()) != m.Digest(1) {
		t.Fatalf("calldata %x is not the digest", tx.Data())
	}
	// Anchored attestations still verify: the anchor is not signed.
	if err := attestation.Verify(got, attestation.VerifyOptions{TrustedIssuers: []common.Address{s.Issuer.Address()}, Now: t0}); err != nil {
		t.Fatal(err)
	}

	// Revocations are anchored too.
	rev, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "", admin)
	if err != nil || rev.RevocationAnchor == nil || rev.RevocationAnchor.Status != attestation.AnchorPending {
		t.Fatalf("revoke: %+v, %v", rev.RevocationAnchor, err)
	}
	if n, err := s.AnchorPending(ctx); err != nil || n != 1 {
		t.Fatalf("AnchorPending = %d, %v", n, err)
	}
	got, _ = s.Get(ctx, veriland.Sandbox, att.ID)
	if got.RevocationAnchor.Status != attestation.AnchorAnchored || *got.RevocationAnchor.BlockNumber != 2 || got.Anchor.Status != attestation.AnchorAnchored {
		t.Fatalf("after revocation: %+v / %+v", got.Anchor, got.RevocationAnchor)
	}
	want, _ := attestation.RevocationDigest(got)
	tx, _, _ = sim.Backend().Client().TransactionByHash(ctx, common.HexToHash(got.RevocationAnchor.TxHash))
	if common.BytesToHash(tx.Data()) != want {
		t.Fatalf("revocation calldata %x", tx.Data())
	}
	if n, err := s.AnchorPending(ctx); err != nil || n != 0 {
		t.Fatalf("queue not empty: %d, %v", n, err)
	}
}

func TestAnchoringRetriesWithBackoffThenFails(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	flaky := &flakyAnchor{failures: 2}
	s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Production: flaky}
	s.Anchoring = attestation.AnchoringPolicy{MaxAttempts: 3, Backoff: 10 * time.Second}

	att := issue(t, s, veriland.Production, livenessDraft())
	status := func() attestation.AnchorStatus {
		got, err := s.Get(ctx, veriland.Production, att.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Anchor.Status
	}
	if n, _ := s.AnchorPending(ctx); n != 0 || flaky.calls != 1 || status() != attestation.AnchorPending {
		t.Fatalf("first attempt: n=%d calls=%d status=%s", n, flaky.calls, status())
	}
	// Not due again before the backoff.
	clock.Advance(9 * time.Second)
	if s.AnchorPending(ctx); flaky.calls != 1 {
		t.Fatalf("retried before the backoff: %d calls", flaky.calls)
	}
	clock.Advance(time.Second)
	if s.AnchorPending(ctx); flaky.calls != 2 {
		t.Fatalf("second attempt: %d calls", flaky.calls)
	}
	// The second failure doubles the wait.
	clock.Advance(19 * time.Second)
	if s.AnchorPending(ctx); flaky.calls != 2 {
		t.Fatalf("retried before the doubled backoff: %d calls", flaky.calls)
	}
	clock.Advance(time.Second)
	if n, _ := s.AnchorPending(ctx); n != 1 || status() != attestation.AnchorAnchored {
		t.Fatalf("third attempt: n=%d status=%s", n, status())
	}

	// An anchor that never works: FAILED after MaxAttempts.
	flaky.failures, flaky.calls = 1000, 0
	att = issue(t, s, veriland.Production, consentDraft())
	for range 5 {
		s.AnchorPending(ctx)
		clock.Advance(time.Hour)
	}
	got, _ := s.Get(ctx, veriland.Production, att.ID)
	if got.Anchor.Status != attestation.AnchorFailed || flaky.calls != 3 {
		t.Fatalf("status %s after %d calls", got.Anchor.Status, flaky.calls)
	}
}

func TestAnchoringTurnedOffSettlesQueuedJobs(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Sandbox: &flakyAnchor{}}
	att := issue(t, s, veriland.Sandbox, livenessDraft())
	s.Anchors = nil
	if _, err := s.AnchorPending(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, veriland.Sandbox, att.ID); got.Anchor.Status != attestation.AnchorDisabled {
		t.Fatalf("status = %s", got.Anchor.Status)
	}
}

func TestRunAnchoringStopsWithContext(t *testing.T) {
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	flaky := &flakyAnchor{}
	s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Sandbox: flaky}
	s.Anchoring.PollInterval = time.Millisecond
	att := issue(t, s, veriland.Sandbox, livenessDraft())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.RunAnchoring(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _ := s.Get(context.Background(), veriland.Sandbox, att.ID)
		if got.Anchor.Status == attestation.AnchorAnchored {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("RunAnchoring did not anchor")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
