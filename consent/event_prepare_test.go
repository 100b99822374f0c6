package consent_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/storage"
)

// TestPrepareEvent checks that Decide hands PrepareEvent, before its transaction, the
// very event the transaction then gives the prepared function, and that without a
// usable preparation (it failed, or the Service has no OnEvent) OnEvent records it.
func TestPrepareEvent(t *testing.T) {
	for _, tc := range []struct {
		name        string
		decision    consent.Status
		prepareErr  error
		noOnEvent   bool
		wantPrepare int // PrepareEvent calls
		wantFinish  int // prepared function calls that committed
		wantOnEvent int // OnEvent calls for the decision that committed
	}{
		{name: "approval", decision: consent.StatusApproved, wantPrepare: 1, wantFinish: 1},
		{name: "rejection", decision: consent.StatusRejected, wantPrepare: 1, wantFinish: 1},
		{name: "preparation fails", decision: consent.StatusApproved, prepareErr: errors.New("no"), wantPrepare: 1, wantOnEvent: 1},
		{name: "no OnEvent", decision: consent.StatusApproved, noOnEvent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			r := f.create(nil)
			svc := *f.svc
			svc.Attestations = f.atts.svc // a PreSigner: approvals are signed ahead
			var expected consent.Event
			prepares, finishes, onEvents := 0, 0, 0
			svc.OnEvent = func(ctx context.Context, tx storage.Tx, ev consent.Event) error {
				if ev.Type != consent.EventCreated {
					onEvents++
				}
				return recordEvent(ctx, tx, ev)
			}
			if tc.noOnEvent {
				svc.OnEvent = nil
			}
			svc.PrepareEvent = func(_ context.Context, ev consent.Event) (func(context.Context, storage.Tx, consent.Event) error, error) {
				prepares++
				expected = ev
				if tc.prepareErr != nil {
					return nil, tc.prepareErr
				}
				return func(ctx context.Context, tx storage.Tx, got consent.Event) error {
					finishes++
					require.Equal(t, expected.Type, got.Type)
					require.Equal(t, expected.Env, got.Env)
					require.Equal(t, expected.Actor, got.Actor)
					require.True(t, expected.At.Equal(got.At))
					require.Same(t, expected.Attestation, got.Attestation)
					require.Equal(t, expected.Request, got.Request)
					require.NotSame(t, expected.Request, got.Request) // each gets its own copy
					return recordEvent(ctx, tx, got)
				}, nil
			}
			res, err := svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, tc.decision, nil))
			require.NoError(t, err)
			require.Equal(t, tc.decision, res.Status)
			require.Equal(t, tc.wantPrepare, prepares)
			require.Equal(t, tc.wantFinish, finishes)
			require.Equal(t, tc.wantOnEvent, onEvents)
			if tc.noOnEvent {
				return
			}
			require.Equal(t, res.Request.Status, expected.Request.Status)
			require.Equal(t, res.Request.AttestationID, expected.Request.AttestationID)
			typ := map[consent.Status]consent.EventType{consent.StatusApproved: consent.EventApproved, consent.StatusRejected: consent.EventRejected}[tc.decision]
			require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, typ))
		})
	}
}

// TestPrepareEventRefusedDecision checks that a preparation never stands in for the
// checks of the transaction: a request decided meanwhile is refused with
// invalid_state, and the prepared function never runs.
func TestPrepareEventRefusedDecision(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	svc := *f.svc
	svc.Attestations = f.atts.svc
	finished := 0
	svc.PrepareEvent = func(_ context.Context, _ consent.Event) (func(context.Context, storage.Tx, consent.Event) error, error) {
		// The holder's other device rejects while this approval is being prepared.
		_, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusRejected, nil))
		require.NoError(t, err)
		return func(ctx context.Context, tx storage.Tx, ev consent.Event) error {
			finished++
			return recordEvent(ctx, tx, ev)
		}, nil
	}
	_, err := svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, nil))
	requireCode(t, err, veriland.CodeInvalidState, "")
	require.Zero(t, finished)
	require.Zero(t, f.attestationCount(veriland.Sandbox))
	require.Equal(t, 0, f.eventsOf(veriland.Sandbox, r.ID, consent.EventApproved))
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventRejected))
}

// TestPreparedDecision checks the decision Decide prepares before its transaction
// (an issuer that signs ahead, no liveness): the stored request, its attestation and
// its expiry index are those of a decision made inside the transaction, and of
// concurrent decisions on one request exactly one wins.
func TestPreparedDecision(t *testing.T) {
	for _, decision := range []consent.Status{consent.StatusApproved, consent.StatusRejected} {
		t.Run(string(decision), func(t *testing.T) {
			f := newFixture(t)
			svc := *f.svc
			svc.Attestations = f.atts.svc
			r := f.create(nil)
			d := signed(t, r, f.holder, decision, nil)
			const n = 8
			var wg sync.WaitGroup
			results := make([]*consent.DecisionResult, n)
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() { results[i], errs[i] = svc.Decide(f.ctx, veriland.Sandbox, r.ID, d) })
			}
			wg.Wait()
			var res *consent.DecisionResult
			for i, err := range errs {
				if err != nil {
					requireCode(t, err, veriland.CodeInvalidState, "")
					continue
				}
				require.Nil(t, res, "two decisions succeeded")
				res = results[i]
			}
			require.NotNil(t, res)

			got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
			require.NoError(t, err)
			require.Equal(t, res.Request, got)
			want := r.Clone()
			want.Status = decision
			now := f.clock.Now().UTC()
			want.DecidedAt = &now
			if decision == consent.StatusApproved {
				require.NotNil(t, res.Attestation)
				want.AttestationID = res.Attestation.ID
				want.DisclosedScope = r.Scope // PROOF_ONLY: the whole scope
				att, err := f.atts.svc.Get(f.ctx, veriland.Sandbox, res.Attestation.ID)
				require.NoError(t, err)
				require.Equal(t, res.Attestation, att)
			} else {
				require.Nil(t, res.Attestation)
			}
			require.Equal(t, want, got)
			typ := map[consent.Status]consent.EventType{consent.StatusApproved: consent.EventApproved, consent.StatusRejected: consent.EventRejected}[decision]
			require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, typ))

			// Out of the expiry index: the sweeper never sees it again.
			f.clock.Advance(48 * time.Hour)
			expired, err := f.svc.ExpireDue(f.ctx, f.clock.Now(), 10)
			require.NoError(t, err)
			require.Zero(t, expired)
		})
	}
}
