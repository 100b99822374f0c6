package parcel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

func TestOpenTransfers(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	request := func(notaryID string) string {
		t.Helper()
		p := f.certified(t)
		f.clock.Advance(60e9)
		tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq(notaryID))
		require.NoError(t, err)
		return tr.ID
	}
	first := request("NOT-ABJ-2")  // named a notary other than the parcel's
	second := request("NOT-ABJ-2") // newer
	closed := request("NOT-ABJ-1")
	_, err := f.svc.ApproveTransfer(ctx, notary, closed)
	require.NoError(t, err)

	ids := func(trs []*parcel.Transfer) []string {
		out := []string{}
		for _, tr := range trs {
			require.Equal(t, parcel.TransferPendingNotary, tr.Status)
			out = append(out, tr.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		p    veriland.Principal
		want []string
	}{
		{"the named notary, newest first", otherNotary, []string{second, first}},
		{"the parcels' own notary, whose transfer is closed", notary, []string{}},
		{"the account", owner, []string{second, first}},
		{"another account", otherOwner, []string{}},
		{"admin", admin, []string{second, first}},
		{"the account's sandbox", sbxOwner, []string{}},
		{"a token without account", veriland.Principal{Subject: "v", Role: veriland.RoleVerifier, Env: veriland.Production}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, next, err := f.svc.OpenTransfers(ctx, tc.p, parcel.TransferPendingNotary, "", 0)
			require.NoError(t, err)
			require.Equal(t, tc.want, ids(got))
			require.Empty(t, next)
		})
	}

	t.Run("pages", func(t *testing.T) {
		page, next, err := f.svc.OpenTransfers(ctx, otherNotary, parcel.TransferPendingNotary, "", 1)
		require.NoError(t, err)
		require.Equal(t, []string{second}, ids(page))
		require.NotEmpty(t, next)
		page, next, err = f.svc.OpenTransfers(ctx, otherNotary, parcel.TransferPendingNotary, next, 1)
		require.NoError(t, err)
		require.Equal(t, []string{first}, ids(page))
		require.Empty(t, next)
	})

	for _, tc := range []struct {
		name, cursor string
		limit        int
		param        string
	}{
		{"limit too large", "", parcel.MaxListLimit + 1, "limit"},
		{"negative limit", "", -1, "limit"},
		{"cursor not base64", "!!", 1, "cursor"},
		{"cursor of another list", "cHJjX2FhYWFhYWFh", 1, "cursor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.svc.OpenTransfers(ctx, otherNotary, parcel.TransferPendingNotary, tc.cursor, tc.limit)
			require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
			var e *veriland.Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.param, e.Meta["parameter"])
		})
	}
}
