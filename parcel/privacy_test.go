package parcel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

// TestStoreHoldsNoPersonalData runs a full flow on a bbolt file and scans its bytes:
// neither an owner's full name nor an id_doc may appear.
func TestStoreHoldsNoPersonalData(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	req := validRequest()
	p, err := f.svc.Create(ctx, owner, req)
	require.NoError(t, err)
	_, err = f.svc.Certify(ctx, notary, p.ID)
	require.NoError(t, err)
	treq := transferReq("NOT-ABJ-2")
	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, treq)
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	// A sandbox flow too (certified at once).
	sreq := validRequest()
	sreq.Notary = parcel.NotarySandboxSuccess
	_, err = f.svc.Create(ctx, sbxOwner, sreq)
	require.NoError(t, err)
	// The reads still return the names: they are sealed, not lost.
	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, treq.NewOwner.FullName, got.Owner.FullName)
	require.NoError(t, f.store.Close())

	data, err := os.ReadFile(f.path)
	require.NoError(t, err)
	require.Greater(t, len(data), 0)
	for _, secret := range []string{req.Owner.FullName, req.Owner.IDDoc, treq.NewOwner.FullName, treq.NewOwner.IDDoc, "Amina", "Chidi"} {
		for _, form := range [][]byte{[]byte(secret), mustJSON(secret)} {
			require.False(t, bytes.Contains(data, form), "the store holds %q", form)
		}
	}
	// The id_doc hash is there (it is what the registry keeps).
	require.True(t, bytes.Contains(data, []byte(got.Owner.IDDocHash)))
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// TestStoreHoldsNoPersonalDataOwnerSigned: the owner-signed flow of SPEC S13 (wallet
// owner, owner's signature, notary's approval, and a refused and an expired transfer)
// adds wallets and signatures to the store, never a name or an id_doc.
func TestStoreHoldsNoPersonalDataOwnerSigned(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	seller, buyer := newWallet(t), newWallet(t)
	p, tr := f.ownerTransfer(t, seller, &buyer, nil)
	_, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionApproved))
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	refused, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-1"))
	require.NoError(t, err)
	_, err = f.svc.DecideOwner(ctx, veriland.Production, refused.ID, signDecision(t, refused, buyer.key, parcel.DecisionRejected))
	require.NoError(t, err)
	_, err = f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-1"))
	require.NoError(t, err)
	f.clock.Advance(week)
	n, err := f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 0)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, "Chidi Nwosu-Adeyemi", got.Owner.FullName, "sealed, not lost")
	require.NoError(t, f.store.Close())

	data, err := os.ReadFile(f.path)
	require.NoError(t, err)
	req, treq := validRequest(), transferReq("")
	for _, secret := range []string{req.Owner.FullName, req.Owner.IDDoc, treq.NewOwner.FullName, treq.NewOwner.IDDoc, "Amina", "Chidi", "Nwosu"} {
		for _, form := range [][]byte{[]byte(secret), mustJSON(secret)} {
			require.False(t, bytes.Contains(data, form), "the store holds %q", form)
		}
	}
	require.True(t, bytes.Contains(data, []byte(buyer.lower())), "wallets are public addresses and are kept as they are")
}
