package parcel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

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
