package consent_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
)

func TestLazyExpiry(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)

	f.clock.Advance(time.Hour - time.Second)
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusPending, got.Status)
	require.True(t, got.Open(f.clock.Now()))

	f.clock.Advance(time.Second) // exactly the deadline: closed
	for range 3 {
		got, err = f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
		require.NoError(t, err)
		require.Equal(t, consent.StatusExpired, got.Status)
		require.Equal(t, r.ExpiresAt, *got.DecidedAt)
	}
	view, err := f.svc.Context(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusExpired, view.Status)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventExpired))

	// Nothing is left for the sweeper.
	n, err := f.svc.ExpireDue(f.ctx, f.clock.Now(), 0)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventExpired))
}

func TestDecideAfterDeadline(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	d := signed(t, r, f.holder, consent.StatusApproved, nil)
	f.clock.Advance(time.Hour)
	for range 2 {
		_, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, d)
		e := requireCode(t, err, veriland.CodeInvalidState, "")
		require.Equal(t, "EXPIRED", e.Meta["status"])
	}
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusExpired, got.Status)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventExpired))
	require.Zero(t, f.attestationCount(veriland.Sandbox))
}

func TestSweeper(t *testing.T) {
	f := newFixture(t)
	short := []*consent.Request{
		f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(60) }),
		f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(120) }),
		f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(180) }),
	}
	long := f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(3600) })
	decided := f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(60) })
	_, err := f.svc.Decide(f.ctx, veriland.Sandbox, decided.ID, signed(t, decided, f.holder, consent.StatusRejected, nil))
	require.NoError(t, err)
	prodVerifier := f.verifier
	prodVerifier.Env = veriland.Production
	prod, err := f.svc.Create(f.ctx, veriland.Production, prodVerifier, consent.CreateRequest{
		SubjectRef: identity.PKHDID(testChainID, addr(f.holder).Hex()), Scope: []string{"is_adult"}, Reason: "r",
		ExpiresInSeconds: intp(60),
	})
	require.NoError(t, err)

	f.clock.Advance(59 * time.Second)
	n, err := f.svc.ExpireDue(f.ctx, f.clock.Now(), 10)
	require.NoError(t, err)
	require.Zero(t, n)

	f.clock.Advance(5 * time.Minute)
	n, err = f.svc.ExpireDue(f.ctx, f.clock.Now(), 2) // the limit spans environments
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = f.svc.ExpireDue(f.ctx, f.clock.Now(), 10)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = f.svc.ExpireDue(f.ctx, f.clock.Now(), 10)
	require.NoError(t, err)
	require.Zero(t, n)

	for _, r := range short {
		got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
		require.NoError(t, err)
		require.Equal(t, consent.StatusExpired, got.Status)
		require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventExpired))
	}
	got, err := f.svc.Get(f.ctx, veriland.Production, prod.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusExpired, got.Status)
	require.Equal(t, 1, f.eventsOf(veriland.Production, prod.ID, consent.EventExpired))
	prodEvents := f.events(veriland.Production)
	require.Equal(t, consent.EventExpired, prodEvents[len(prodEvents)-1].Type)
	require.Equal(t, consent.ActorSystem, prodEvents[len(prodEvents)-1].Actor)

	got, err = f.svc.Get(f.ctx, veriland.Sandbox, long.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusPending, got.Status)
	got, err = f.svc.Get(f.ctx, veriland.Sandbox, decided.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusRejected, got.Status)
	require.Zero(t, f.eventsOf(veriland.Sandbox, decided.ID, consent.EventExpired))
}
