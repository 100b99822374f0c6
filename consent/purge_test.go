package consent_test

import (
	"context"
	"crypto/ecdsa"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpConsent returns every key and value of the consent buckets of both environments.
func dumpConsent(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	return storagetest.Dump(t, st, storagetest.EnvBuckets("consent_requests", "consent_expiry")...)
}

// requests makes, as verifier, one request of every status on subject did (whose
// wallet key is holder) and returns their ids and the CONSENT attestation's id.
func (f *fixture) requests(env veriland.Environment, verifier veriland.Principal, did string, holder *ecdsa.PrivateKey) ([]string, string) {
	f.t.Helper()
	mk := func() *consent.Request {
		r, err := f.svc.Create(f.ctx, env, verifier, consent.CreateRequest{
			SubjectRef: did, Scope: []string{"is_adult"}, Reason: "Opening a savings account",
			CallbackURL: "https://verifier.example/hooks/veriland",
		})
		require.NoError(f.t, err)
		return r
	}
	approved, rejected, cancelled, pending := mk(), mk(), mk(), mk()
	res, err := f.svc.Decide(f.ctx, env, approved.ID, signed(f.t, approved, holder, consent.StatusApproved, approved.Scope))
	require.NoError(f.t, err)
	require.NotNil(f.t, res.Attestation)
	_, err = f.svc.Decide(f.ctx, env, rejected.ID, signed(f.t, rejected, holder, consent.StatusRejected, nil))
	require.NoError(f.t, err)
	_, err = f.svc.Cancel(f.ctx, env, cancelled.ID, verifier)
	require.NoError(f.t, err)
	return []string{approved.ID, rejected.ID, cancelled.ID, pending.ID}, res.Attestation.ID
}

func TestPurgeSandboxAccount(t *testing.T) {
	f := newFixture(t)
	verifierOf := func(env veriland.Environment, acct string) veriland.Principal {
		return veriland.Principal{Subject: "verifier-acme", Role: veriland.RoleVerifier, Env: env, Account: acct}
	}
	prodKey, prodDID := f.newIdentity(veriland.Production)
	f.requests(veriland.Sandbox, verifierOf(veriland.Sandbox, "acct_B"), f.did, f.holder)
	f.requests(veriland.Production, verifierOf(veriland.Production, "acct_A"), prodDID, prodKey)
	others := dumpConsent(t, f.store)
	ids, att := f.requests(veriland.Sandbox, verifierOf(veriland.Sandbox, "acct_A"), f.did, f.holder)
	before := dumpConsent(t, f.store)

	n, atts, err := f.svc.PurgeSandboxAccount(f.ctx, "acct_A")
	require.NoError(t, err)
	require.Equal(t, []string{att}, atts)
	require.Equal(t, others, dumpConsent(t, f.store))
	require.Equal(t, len(before)-len(others), n)
	require.Equal(t, 5, n, "4 requests and the pending one's expiry entry")
	for _, id := range ids {
		_, err := f.svc.Get(f.ctx, veriland.Sandbox, id)
		requireCode(t, err, veriland.CodeNotFound, "-")
	}
	// The expiry sweeper has nothing left of acct_A to expire.
	_, err = f.svc.ExpireDue(f.ctx, f.clock.Now().AddDate(1, 0, 0), 100)
	require.NoError(t, err)
	require.Zero(t, f.eventsOf(veriland.Sandbox, ids[3], consent.EventExpired), "a purged request never expires")

	n, atts, err = f.svc.PurgeSandboxAccount(f.ctx, "acct_A")
	require.NoError(t, err)
	require.Zero(t, n)
	require.Empty(t, atts)
}

func TestPurgeSandboxAccountRefused(t *testing.T) {
	f := newFixture(t)
	prodKey, prodDID := f.newIdentity(veriland.Production)
	f.requests(veriland.Sandbox, veriland.Principal{Subject: "v", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_A"}, f.did, f.holder)
	f.requests(veriland.Production, veriland.Principal{Subject: "v", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_A"}, prodDID, prodKey)
	before := dumpConsent(t, f.store)
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		account string
		code    veriland.Code
	}{
		{"production principal", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_A"}), "acct_A", veriland.CodeForbidden},
		{"another account", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_B"}), "acct_A", veriland.CodeForbidden},
		{"empty account", context.Background(), "", veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, atts, err := f.svc.PurgeSandboxAccount(tc.ctx, tc.account)
			requireCode(t, err, tc.code, "-")
			require.Zero(t, n)
			require.Empty(t, atts)
			require.Equal(t, before, dumpConsent(t, f.store))
		})
	}
}
