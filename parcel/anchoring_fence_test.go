package parcel_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/lease"
)

// Token anchoring checks the anchoring lease before each send, like attestations'.
func TestAnchoringFencedByLease(t *testing.T) {
	rec := &recordingAnchor{}
	f := newFixture(t, map[veriland.Environment]anchor.Anchor{veriland.Production: rec})
	ctx := context.Background()
	claim := time.Minute
	l := &lease.Lease{Store: f.store, Name: "anchoring", Holder: "replica-a", Now: f.clock.Now}
	f.svc.Anchoring = parcel.AnchoringPolicy{Lease: claim, Fence: l.Check}
	p := f.certified(t)

	n, err := f.svc.AnchorPending(ctx)
	require.Zero(t, n)
	require.True(t, errors.Is(err, lease.ErrLost), "err = %v", err)
	require.Empty(t, rec.digests)

	f.clock.Advance(claim)
	_, err = l.Acquire(ctx)
	require.NoError(t, err)
	n, err = f.svc.AnchorPending(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	tok, err := f.svc.Token(ctx, veriland.Production, p.Token.TokenID)
	require.NoError(t, err)
	require.Equal(t, "ANCHORED", string(tok.Anchor.Status))
}
