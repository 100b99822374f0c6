package parcel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

// Principals of the separation-of-duties tests: admins and a notary that hold the
// registry account acct_1 (the account of owner, which creates the test parcels).
var (
	acctAdmin   = veriland.Principal{Subject: "clerk-admin", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_1"}
	acctAdmin2  = veriland.Principal{Subject: "second-admin", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_1"}
	acctNotary  = veriland.Principal{Subject: "NOT-ABJ-1", Role: veriland.RoleNotary, Env: veriland.Production, Account: "acct_1"}
	acctNotary2 = veriland.Principal{Subject: "NOT-ABJ-2", Role: veriland.RoleNotary, Env: veriland.Production, Account: "acct_1"}
	sbxAdmin    = veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_1"}
)

func requireSeparation(t *testing.T, err error) {
	t.Helper()
	require.Equal(t, veriland.CodeForbidden, codeOf(err), "%v", err)
	require.Equal(t, "separation_of_duties", metaOf(err, "reason"))
}

// TestSeparationOfDuties: no single principal moves land. A notary never requests a
// transfer, the requester never approves it and the creator never certifies, admins
// included; someone else may.
func TestSeparationOfDuties(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		run  func(t *testing.T, f *fixture) error
		ok   bool // the refusal's counterpart, done by another principal, succeeds
	}{
		{"the parcel's notary requests a transfer", func(t *testing.T, f *fixture) error {
			_, err := f.svc.RequestTransfer(ctx, notary, f.certified(t).ID, transferReq("NOT-ABJ-2"))
			return err
		}, false},
		{"a notary of the parcel's account requests a transfer", func(t *testing.T, f *fixture) error {
			_, err := f.svc.RequestTransfer(ctx, acctNotary2, f.certified(t).ID, transferReq("NOT-ABJ-2"))
			return err
		}, false},
		{"a notary requests a transfer of a wallet owner's parcel", func(t *testing.T, f *fixture) error {
			_, err := f.svc.RequestTransfer(ctx, notary, f.walletParcel(t, newWallet(t)).ID, transferReq("NOT-ABJ-2"))
			return err
		}, false},
		{"the requesting admin approves", func(t *testing.T, f *fixture) error {
			tr, err := f.svc.RequestTransfer(ctx, admin, f.certified(t).ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
			if _, err := f.svc.ApproveTransfer(ctx, admin, tr.ID); err != nil {
				return err
			}
			return nil
		}, false},
		{"the requesting admin approves after the owner signed", func(t *testing.T, f *fixture) error {
			seller := newWallet(t)
			p := f.walletParcel(t, seller)
			tr, err := f.svc.RequestTransfer(ctx, acctAdmin, p.ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
			_, err = f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionApproved))
			require.NoError(t, err)
			_, err = f.svc.ApproveTransfer(ctx, acctAdmin, tr.ID)
			return err
		}, false},
		{"the creating admin certifies", func(t *testing.T, f *fixture) error {
			p, err := f.svc.Create(ctx, acctAdmin, validRequest())
			require.NoError(t, err)
			_, err = f.svc.Certify(ctx, acctAdmin, p.ID)
			return err
		}, false},
		{"the creating notary certifies", func(t *testing.T, f *fixture) error {
			p, err := f.svc.Create(ctx, acctNotary, validRequest()) // it names itself, NOT-ABJ-1
			require.NoError(t, err)
			_, err = f.svc.Certify(ctx, acctNotary, p.ID)
			return err
		}, false},
		{"another admin approves", func(t *testing.T, f *fixture) error {
			tr, err := f.svc.RequestTransfer(ctx, acctAdmin, f.certified(t).ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
			_, err = f.svc.ApproveTransfer(ctx, acctAdmin2, tr.ID)
			return err
		}, true},
		{"the named notary approves an admin's request", func(t *testing.T, f *fixture) error {
			tr, err := f.svc.RequestTransfer(ctx, acctAdmin, f.certified(t).ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
			_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
			return err
		}, true},
		{"another admin certifies", func(t *testing.T, f *fixture) error {
			p, err := f.svc.Create(ctx, acctAdmin, validRequest())
			require.NoError(t, err)
			_, err = f.svc.Certify(ctx, acctAdmin2, p.ID)
			return err
		}, true},
		{"the named notary certifies an admin's request", func(t *testing.T, f *fixture) error {
			p, err := f.svc.Create(ctx, acctAdmin, validRequest())
			require.NoError(t, err)
			_, err = f.svc.Certify(ctx, notary, p.ID)
			return err
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			before := len(f.actions())
			err := tt.run(t, f)
			if tt.ok {
				require.NoError(t, err)
				return
			}
			requireSeparation(t, err)
			require.NotContains(t, f.actions()[before:], parcel.ActionTransferCompleted)
		})
	}
	// A refused certification leaves the parcel to its notary.
	f := newFixture(t, nil)
	p, err := f.svc.Create(ctx, acctAdmin, validRequest())
	require.NoError(t, err)
	_, err = f.svc.Certify(ctx, acctAdmin, p.ID)
	requireSeparation(t, err)
	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.StatusPendingNotary, got.Status)
	require.Equal(t, []parcel.Action{parcel.ActionCreated}, f.actions())
}

// TestSandboxNotariesDecideAtOnce: the separation of duties does not slow the
// sandbox: NOT-SBX-1 certifies and approves at once, after the owner's signature when
// the owner holds a wallet, and NOT-SBX-2 rejects at once.
func TestSandboxNotariesDecideAtOnce(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	ids := identities{}
	f.svc.Identities = ids
	create := func(t *testing.T, w *wallet) *parcel.Parcel {
		req := validRequest()
		req.Notary = parcel.NotarySandboxSuccess
		if w != nil {
			req.Owner.WalletAddress = w.addr
		}
		p, err := f.svc.Create(ctx, sbxAdmin, req)
		require.NoError(t, err)
		require.Equal(t, parcel.StatusCertified, p.Status, "certified at once, though an admin created it")
		return p
	}
	t.Run("owner without a wallet", func(t *testing.T) {
		p := create(t, nil)
		tr, err := f.svc.RequestTransfer(ctx, sbxAdmin, p.ID, transferReq(parcel.NotarySandboxSuccess))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferCompleted, tr.Status)
		require.Equal(t, parcel.ConsentNotaryWitnessed, tr.OwnerConsent.Method)
	})
	t.Run("owner with a wallet approves, NOT-SBX-1 completes", func(t *testing.T) {
		seller, buyer := newWallet(t), newWallet(t)
		did := ids.activeIdentity(buyer, veriland.Sandbox, "did:veriland:sbx-buyer")
		p := create(t, &seller)
		req := transferReq(parcel.NotarySandboxSuccess)
		req.NewOwner.WalletAddress = buyer.addr
		tr, err := f.svc.RequestTransfer(ctx, sbxAdmin, p.ID, req)
		require.NoError(t, err)
		require.Equal(t, parcel.TransferPendingOwner, tr.Status, "the owner signs first, even in the sandbox")
		done, err := f.svc.DecideOwner(ctx, veriland.Sandbox, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionApproved))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferCompleted, done.Status)
		got, err := f.svc.Get(ctx, sbxAdmin, p.ID)
		require.NoError(t, err)
		require.Equal(t, buyer.lower(), got.Owner.WalletAddress)
		require.Equal(t, parcel.BindingIdentityVerified, got.Owner.Binding)
		require.Equal(t, did, got.Owner.DID)
		require.Equal(t, buyer.lower(), got.Token.Holder)
	})
	t.Run("owner with a wallet approves, NOT-SBX-2 rejects", func(t *testing.T) {
		seller := newWallet(t)
		p := create(t, &seller)
		tr, err := f.svc.RequestTransfer(ctx, sbxAdmin, p.ID, transferReq(parcel.NotarySandboxFailure))
		require.NoError(t, err)
		done, err := f.svc.DecideOwner(ctx, veriland.Sandbox, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionApproved))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferRejected, done.Status)
		require.Equal(t, parcel.RejectedByNotary, done.RejectedBy)
	})
	t.Run("the owner refuses before NOT-SBX-1", func(t *testing.T) {
		seller := newWallet(t)
		p := create(t, &seller)
		tr, err := f.svc.RequestTransfer(ctx, sbxAdmin, p.ID, transferReq(parcel.NotarySandboxSuccess))
		require.NoError(t, err)
		done, err := f.svc.DecideOwner(ctx, veriland.Sandbox, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionRejected))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferRejected, done.Status)
		require.Equal(t, parcel.RejectedByOwner, done.RejectedBy)
	})
}
