package parcel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
	"github.com/veriland/veriland/storage/storagetest"
)

// parcelBuckets are every bucket of package parcel.
var parcelBuckets = []string{"parcels", "parcel_index", "parcel_versions", "parcel_hashes", "parcel_tokens",
	"parcel_statuses", "parcel_transfers", "parcel_transfer_index", "parcel_boundaries", chainjob.Bucket}

// dump returns every key and value of the parcel buckets of both environments.
func dump(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	return storagetest.Dump(t, st, storagetest.EnvBuckets(parcelBuckets...)...)
}

// populate gives p's account every kind of parcel record in p's environment: parcels
// CERTIFIED (with a boundary), REJECTED, PENDING, REVOKED, one with a completed
// transfer to another notary, one with an open transfer, one with a rejected
// transfer. seq keeps the boundaries of successive calls apart.
func populate(t *testing.T, f *fixture, p veriland.Principal, seq int) []string {
	t.Helper()
	ctx := context.Background()
	notaryOf := func(id string) veriland.Principal {
		return veriland.Principal{Subject: id, Role: veriland.RoleNotary, Env: p.Env, Account: p.Account}
	}
	adm := veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: p.Env, Account: p.Account}
	n := 0
	create := func(notary string) *parcel.Parcel {
		n++
		req := withBoundary(t, square(7.0+0.01*float64(seq*20+n), 9.0, 0.001))
		req.Notary = notary
		pr, err := f.svc.Create(ctx, p, req)
		require.NoError(t, err)
		return pr
	}
	certify := func(notary string) *parcel.Parcel {
		pr := create(notary)
		if pr.Status == parcel.StatusCertified {
			return pr
		}
		pr, err := f.svc.Certify(ctx, notaryOf(notary), pr.ID)
		require.NoError(t, err)
		return pr
	}
	var out []string
	certified := certify("NOT-ABJ-1")
	out = append(out, certified.ID)
	rejected := create("NOT-ABJ-1")
	_, err := f.svc.Reject(ctx, notaryOf("NOT-ABJ-1"), rejected.ID, "no")
	require.NoError(t, err)
	pending := create("NOT-ABJ-3")
	revoked := certify("NOT-ABJ-1")
	_, err = f.svc.Revoke(ctx, adm, revoked.ID, "fraud")
	require.NoError(t, err)
	moved := certify("NOT-ABJ-1")
	tr, err := f.svc.RequestTransfer(ctx, p, moved.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, notaryOf("NOT-ABJ-2"), tr.ID)
	require.NoError(t, err)
	open := certify("NOT-ABJ-1")
	_, err = f.svc.RequestTransfer(ctx, p, open.ID, transferReq("NOT-ABJ-4"))
	require.NoError(t, err)
	refused := certify("NOT-ABJ-1")
	tr, err = f.svc.RequestTransfer(ctx, p, refused.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	_, err = f.svc.RejectTransfer(ctx, notaryOf("NOT-ABJ-2"), tr.ID, "")
	require.NoError(t, err)
	out = append(out, rejected.ID, pending.ID, revoked.ID, moved.ID, open.ID, refused.ID)
	if p.Env == veriland.Sandbox { // the sandbox notaries answer at once
		for _, notary := range []string{parcel.NotarySandboxSuccess, parcel.NotarySandboxFailure, parcel.NotarySandboxTimeout} {
			out = append(out, create(notary).ID)
		}
		sbx := certify(parcel.NotarySandboxSuccess)
		_, err = f.svc.RequestTransfer(ctx, p, sbx.ID, transferReq(parcel.NotarySandboxSuccess))
		require.NoError(t, err)
		out = append(out, sbx.ID)
	}
	return out
}

func TestPurgeSandboxAccount(t *testing.T) {
	ctx := context.Background()
	acctA := veriland.Principal{Subject: "user-a", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_A"}
	acctB := veriland.Principal{Subject: "user-a", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_B"}
	prodA := veriland.Principal{Subject: "user-a", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_A"}
	for _, tc := range []struct {
		name  string
		chain bool
	}{
		{"chain off", false},
		{"chain on", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var titles map[veriland.Environment]parcel.TitleChain
			if tc.chain {
				titles = simulatedTitles(t)
			}
			f := newFixture(t, titles)
			populate(t, f, acctB, 0)
			populate(t, f, prodA, 1)
			others := dump(t, f.store)
			ids := populate(t, f, acctA, 2)
			before := dump(t, f.store)
			require.Greater(t, len(before), len(others))

			n, err := f.svc.PurgeSandboxAccount(ctx, "acct_A")
			require.NoError(t, err)
			// Exactly acct_A's sandbox keys are gone; every other key is as it was.
			require.Equal(t, others, dump(t, f.store))
			require.Equal(t, len(before)-len(others), n)
			for _, id := range ids {
				_, err := f.svc.Get(ctx, acctA, id)
				require.Equal(t, veriland.CodeNotFound, codeOf(err), id)
			}
			list, _, err := f.svc.List(ctx, acctA, "", 100)
			require.NoError(t, err)
			require.Empty(t, list)
			// B's sandbox and A's production still work.
			list, _, err = f.svc.List(ctx, acctB, "", 100)
			require.NoError(t, err)
			require.NotEmpty(t, list)
			if tc.chain {
				// The jobs of acct_A's tokens went with them: only the others' run.
				_, err = f.svc.ChainJobsOnce(ctx)
				require.NoError(t, err)
			}

			// A second purge finds nothing; the account can be used again at once.
			n, err = f.svc.PurgeSandboxAccount(ctx, "acct_A")
			require.NoError(t, err)
			require.Zero(t, n)
			populate(t, f, acctA, 3)
		})
	}
}

func TestPurgeSandboxAccountRefused(t *testing.T) {
	f := newFixture(t, nil)
	populate(t, f, veriland.Principal{Subject: "u", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_A"}, 0)
	populate(t, f, veriland.Principal{Subject: "u", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_A"}, 1)
	before := dump(t, f.store)
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
			n, err := f.svc.PurgeSandboxAccount(tc.ctx, tc.account)
			require.Equal(t, tc.code, codeOf(err))
			require.Zero(t, n)
			require.Equal(t, before, dump(t, f.store))
		})
	}
	// The account's own sandbox principal may purge it.
	ctx := veriland.WithPrincipal(context.Background(),
		veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_A"})
	n, err := f.svc.PurgeSandboxAccount(ctx, "acct_A")
	require.NoError(t, err)
	require.Positive(t, n)
}
