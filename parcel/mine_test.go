package parcel_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

// TestMyParcels: a holder signed in with a wallet lists the certified parcels whose
// bound owner wallet it is, across accounts, in its environment, newest first, with
// the open transfer it may have to sign, and no name.
func TestMyParcels(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	ids := identities{}
	f.svc.Identities = ids
	w, other := newWallet(t), newWallet(t)
	did := ids.activeIdentity(w, veriland.Production, "did:veriland:me")
	me := holderOf(w, veriland.Production)

	first := f.walletParcel(t, w)
	f.clock.Advance(time.Minute)
	// Another account's parcel of the same owner.
	req := validRequest()
	req.Owner.WalletAddress = w.lower()
	second, err := f.svc.Create(ctx, otherOwner, req)
	require.NoError(t, err)
	second, err = f.svc.Certify(ctx, notary, second.ID)
	require.NoError(t, err)
	f.clock.Advance(time.Minute)
	// Not yet certified: the wallet is not bound, so it is not listed.
	pending, err := f.svc.Create(ctx, owner, req)
	require.NoError(t, err)
	// Someone else's parcel, and the owner's wallet in the sandbox.
	f.walletParcel(t, other)
	sreq := validRequest()
	sreq.Notary, sreq.Owner.WalletAddress = parcel.NotarySandboxSuccess, w.addr
	_, err = f.svc.Create(ctx, sbxOwner, sreq)
	require.NoError(t, err)
	// An open transfer the owner has to sign.
	tr, err := f.svc.RequestTransfer(ctx, owner, first.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)

	list, next, err := f.svc.MyParcels(ctx, me, "", 0)
	require.NoError(t, err)
	require.Empty(t, next)
	require.Len(t, list, 2)
	require.Equal(t, second.ID, list[0].ID, "newest first")
	require.Equal(t, first.ID, list[1].ID)
	for _, op := range list {
		require.NotEqual(t, pending.ID, op.ID)
		require.Equal(t, veriland.Production, op.Env)
		require.Equal(t, parcel.StatusCertified, op.Status)
		require.Equal(t, parcel.OwnerRef{WalletAddress: w.lower(), Binding: parcel.BindingIdentityVerified, DID: did, IDDocLast4: "5678"}, op.Owner)
		require.Equal(t, w.lower(), op.Token.Holder)
	}
	require.Nil(t, list[0].OpenTransfer)
	require.Equal(t, &parcel.OpenTransferRef{ID: tr.ID, Status: parcel.TransferPendingOwner, Notary: "NOT-ABJ-2", Deadline: tr.OwnerConsent.Deadline}, list[1].OpenTransfer)
	b, err := json.Marshal(list)
	require.NoError(t, err)
	for _, s := range []string{"Amina", "fullName", "acct_1", "acct_2", "account", "NGA-PASS"} {
		require.NotContains(t, string(b), s)
	}

	// Pages of one.
	page, next, err := f.svc.MyParcels(ctx, me, "", 1)
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, second.ID, page[0].ID)
	require.NotEmpty(t, next)
	page, next, err = f.svc.MyParcels(ctx, me, next, 1)
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, first.ID, page[0].ID)
	require.Empty(t, next, "the last page")
	_, _, err = f.svc.MyParcels(ctx, holderOf(other, veriland.Production), "not-a-cursor", 1)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
	// Another wallet's cursor is not this list's.
	_, cur, err := f.svc.MyParcels(ctx, me, "", 1)
	require.NoError(t, err)
	_, _, err = f.svc.MyParcels(ctx, holderOf(other, veriland.Production), cur, 1)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))

	// The sandbox lists only the sandbox parcel; another wallet only its own.
	sbx, _, err := f.svc.MyParcels(ctx, holderOf(w, veriland.Sandbox), "", 0)
	require.NoError(t, err)
	require.Len(t, sbx, 1)
	require.Equal(t, veriland.Sandbox, sbx[0].Env)
	theirs, _, err := f.svc.MyParcels(ctx, holderOf(other, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Len(t, theirs, 1)

	// Only a holder signed in with a wallet.
	for _, p := range []veriland.Principal{owner, notary, admin, {Subject: "did:x", Role: veriland.RoleHolder, Env: veriland.Production}} {
		_, _, err := f.svc.MyParcels(ctx, p, "", 0)
		require.Equal(t, veriland.CodeForbidden, codeOf(err), "%+v", p)
	}
	// A wallet in upper case (as a token never carries it, but a caller might) is
	// the same wallet.
	up := me
	up.Wallet = "0x" + strings.ToUpper(w.lower()[2:])
	got, _, err := f.svc.MyParcels(ctx, up, "", 0)
	require.NoError(t, err)
	require.Len(t, got, 2)
}

// TestMyParcelsFollowsOwnership: a completed transfer moves the parcel from the old
// owner's list to the new owner's; a revoked parcel stays listed, REVOKED.
func TestMyParcelsFollowsOwnership(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller, buyer := newWallet(t), newWallet(t)
	p, tr := f.ownerTransfer(t, seller, &buyer, nil)
	_, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionApproved))
	require.NoError(t, err)
	mine, _, err := f.svc.MyParcels(ctx, holderOf(seller, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Len(t, mine, 1, "the owner holds it until the notary approves")
	require.Equal(t, parcel.TransferPendingNotary, mine[0].OpenTransfer.Status)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	mine, _, err = f.svc.MyParcels(ctx, holderOf(seller, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Empty(t, mine)
	mine, _, err = f.svc.MyParcels(ctx, holderOf(buyer, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	require.Equal(t, p.ID, mine[0].ID)
	require.Equal(t, parcel.BindingNotaryVerified, mine[0].Owner.Binding)
	require.Equal(t, "7766", mine[0].Owner.IDDocLast4)

	// A transfer to a new owner without a wallet leaves nobody's list holding it.
	next, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-1"))
	require.NoError(t, err)
	_, err = f.svc.DecideOwner(ctx, veriland.Production, next.ID, signDecision(t, next, buyer.key, parcel.DecisionApproved))
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, notary, next.ID)
	require.NoError(t, err)
	mine, _, err = f.svc.MyParcels(ctx, holderOf(buyer, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Empty(t, mine)
	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.BindingNone, got.Owner.Binding)
	require.Empty(t, got.Owner.WalletAddress)
	// The next transfer is NOTARY_WITNESSED again.
	again, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-1"))
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingNotary, again.Status)
	require.Equal(t, parcel.ConsentNotaryWitnessed, again.OwnerConsent.Method)

	// Revoked: still the owner's, shown REVOKED.
	q := f.walletParcel(t, seller)
	_, err = f.svc.Revoke(ctx, admin, q.ID, "court order")
	require.NoError(t, err)
	mine, _, err = f.svc.MyParcels(ctx, holderOf(seller, veriland.Production), "", 0)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	require.Equal(t, parcel.StatusRevoked, mine[0].Status)
}
