package consent_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
)

func TestCancel(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)

	others := map[string]veriland.Principal{
		"same sub, other account": {Subject: f.verifier.Subject, Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_2"},
		"other sub, same account": {Subject: "verifier-other", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"},
		"the holder":              {Subject: f.did, Role: veriland.RoleHolder, Env: veriland.Sandbox},
	}
	for name, p := range others {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.Cancel(f.ctx, veriland.Sandbox, r.ID, p)
			requireCode(t, err, veriland.CodeNotFound, "")
		})
	}
	_, err := f.svc.Cancel(f.ctx, veriland.Production, r.ID, f.verifier)
	requireCode(t, err, veriland.CodeNotFound, "")

	f.clock.Advance(time.Minute)
	got, err := f.svc.Cancel(f.ctx, veriland.Sandbox, r.ID, f.verifier)
	require.NoError(t, err)
	require.Equal(t, consent.StatusCancelled, got.Status)
	require.Equal(t, f.clock.Now(), *got.DecidedAt)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventCancelled))

	_, err = f.svc.Cancel(f.ctx, veriland.Sandbox, r.ID, f.verifier)
	e := requireCode(t, err, veriland.CodeInvalidState, "")
	require.Equal(t, "CANCELLED", e.Meta["status"])
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, nil))
	e = requireCode(t, err, veriland.CodeInvalidState, "")
	require.Equal(t, "CANCELLED", e.Meta["status"])
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventCancelled))

	// Past its deadline, a request expires instead of being cancelled.
	late := f.create(nil)
	f.clock.Advance(2 * time.Hour)
	_, err = f.svc.Cancel(f.ctx, veriland.Sandbox, late.ID, f.verifier)
	e = requireCode(t, err, veriland.CodeInvalidState, "")
	require.Equal(t, "EXPIRED", e.Meta["status"])
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, late.ID, consent.EventExpired))
	require.Zero(t, f.eventsOf(veriland.Sandbox, late.ID, consent.EventCancelled))
}
