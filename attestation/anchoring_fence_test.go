package attestation_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/storage/lease"
)

// A replica anchors only while it holds the anchoring lease in the term it acquired:
// the fence is checked before each send, so a replica that lost the lease sends
// nothing, and its claimed jobs go to the next leader once their claim expires.
func TestAnchoringFencedByLease(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	flaky := &flakyAnchor{}
	s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Production: flaky}
	claim := time.Minute
	ttl := 15 * time.Second
	mine := &lease.Lease{Store: s.Store, Name: "anchoring", Holder: "replica-a", TTL: ttl, Now: clock.Now}
	theirs := &lease.Lease{Store: s.Store, Name: "anchoring", Holder: "replica-b", TTL: ttl, Now: clock.Now}
	s.Anchoring = attestation.AnchoringPolicy{Lease: claim, Fence: mine.Check}

	status := func(id string) attestation.AnchorStatus {
		t.Helper()
		got, err := s.Get(ctx, veriland.Production, id)
		if err != nil {
			t.Fatal(err)
		}
		return got.Anchor.Status
	}
	att := issue(t, s, veriland.Production, livenessDraft())

	// Never acquired: nothing is sent.
	if n, err := s.AnchorPending(ctx); n != 0 || !errors.Is(err, lease.ErrLost) || flaky.calls != 0 {
		t.Fatalf("without the lease: n=%d err=%v calls=%d", n, err, flaky.calls)
	}
	if status(att.ID) != attestation.AnchorPending {
		t.Fatalf("status %s", status(att.ID))
	}

	// Leading: the job is anchored once its claim has expired.
	clock.Advance(claim)
	if _, err := mine.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := s.AnchorPending(ctx); n != 1 || err != nil || flaky.calls != 1 {
		t.Fatalf("leading: n=%d err=%v calls=%d", n, err, flaky.calls)
	}
	if status(att.ID) != attestation.AnchorAnchored {
		t.Fatalf("status %s", status(att.ID))
	}

	// The lease ran out (a long pause) and another replica took it: this one's
	// fence stops it before it sends.
	next := issue(t, s, veriland.Production, consentDraft())
	clock.Advance(ttl)
	if _, err := theirs.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := s.AnchorPending(ctx); n != 0 || !errors.Is(err, lease.ErrLost) || flaky.calls != 1 {
		t.Fatalf("after losing the lease: n=%d err=%v calls=%d", n, err, flaky.calls)
	}
	// The new leader anchors it once the claim the old one left has expired.
	clock.Advance(claim)
	if _, err := theirs.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	s.Anchoring.Fence = theirs.Check
	if n, err := s.AnchorPending(ctx); n != 1 || err != nil || flaky.calls != 2 {
		t.Fatalf("new leader: n=%d err=%v calls=%d", n, err, flaky.calls)
	}
	if status(next.ID) != attestation.AnchorAnchored {
		t.Fatalf("status %s", status(next.ID))
	}
}
