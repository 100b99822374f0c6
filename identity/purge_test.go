package identity_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpIdentities returns every key and value of the identity buckets of both
// environments.
func dumpIdentities(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	return storagetest.Dump(t, st, storagetest.EnvBuckets("identities", "identity_subjects", "identity_wallets", "identity_kyc_refs", "identity_reviews")...)
}

func TestPurgeSandboxSubject(t *testing.T) {
	ctx := context.Background()
	const subjectRef = "sandbox-holder-acct_A"
	for _, tc := range []struct {
		scenario string
		status   identity.Status
		keys     int // identity, subject, wallet, and a review or a provider reference
	}{
		{identity.ScenarioSuccess, identity.StatusActive, 3},
		{identity.ScenarioReview, identity.StatusPendingReview, 4},
		{identity.ScenarioTimeout, identity.StatusPendingKYC, 4},
		{identity.ScenarioFailure, identity.StatusRejected, 3},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			f := newFixture(t, nil)
			issue := func(env veriland.Environment, ref string) *identity.IssueResult {
				key, err := crypto.GenerateKey()
				require.NoError(t, err)
				res, err := f.svc.Issue(ctx, env, identity.IssueRequest{SubjectRef: ref, CountryCode: "NG",
					WalletAddress: crypto.PubkeyToAddress(key.PublicKey).Hex(), Payload: payload(tc.scenario)})
				require.NoError(t, err)
				require.Equal(t, tc.status, res.Status)
				return res
			}
			issue(veriland.Sandbox, "sandbox-holder-acct_B")
			issue(veriland.Production, subjectRef)
			others := dumpIdentities(t, f.store)
			mine := issue(veriland.Sandbox, subjectRef)
			before := dumpIdentities(t, f.store)

			n, did, err := f.svc.PurgeSandboxSubject(ctx, subjectRef)
			require.NoError(t, err)
			require.Equal(t, mine.DID, did)
			require.Equal(t, others, dumpIdentities(t, f.store))
			require.Equal(t, len(before)-len(others), n)
			require.Equal(t, tc.keys, n)
			_, err = f.svc.Get(ctx, veriland.Sandbox, did)
			requireCode(t, err, veriland.CodeNotFound)

			// The subjectRef (and a wallet) can be issued again: the reset re-seeds.
			again := issue(veriland.Sandbox, subjectRef)
			require.NotEqual(t, did, again.DID)
			n, did, err = f.svc.PurgeSandboxSubject(ctx, "nobody")
			require.NoError(t, err)
			require.Zero(t, n)
			require.Empty(t, did)
		})
	}
}

func TestPurgeSandboxSubjectRefused(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		_, err := f.svc.Issue(ctx, env, identity.IssueRequest{SubjectRef: "holder", Payload: payload("success")})
		require.NoError(t, err)
	}
	before := dumpIdentities(t, f.store)
	prod := veriland.WithPrincipal(ctx, veriland.Principal{Subject: "ops", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_A"})
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		subjectRef string
		code       veriland.Code
	}{
		{"production principal", prod, "holder", veriland.CodeForbidden},
		{"empty subjectRef", ctx, "", veriland.CodeValidationFailed},
		{"invalid UTF-8", ctx, "\xff", veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, did, err := f.svc.PurgeSandboxSubject(tc.ctx, tc.subjectRef)
			requireCode(t, err, tc.code)
			require.Zero(t, n)
			require.Empty(t, did)
			require.Equal(t, before, dumpIdentities(t, f.store))
		})
	}
}
