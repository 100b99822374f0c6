package parcel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

func transferReq(notaryID string) parcel.TransferRequest {
	return parcel.TransferRequest{NewOwner: &parcel.Owner{FullName: "Chidi Nwosu-Adeyemi", IDDoc: "NGA-NIN-99887766"}, Notary: notaryID}
}

func TestTransferApproved(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	oldHash, oldToken := p.CertificateHash, p.Token.TokenID

	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	require.Regexp(t, `^trf_[a-z2-7]{26}$`, tr.ID)
	require.Equal(t, parcel.TransferPendingNotary, tr.Status)
	require.Equal(t, "Chidi Nwosu-Adeyemi", tr.NewOwner.FullName)

	// A second open transfer is refused.
	_, err = f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.Equal(t, veriland.CodeInvalidState, codeOf(err))
	// Only the parcel's account or an admin may transfer; strangers see nothing.
	_, err = f.svc.RequestTransfer(ctx, otherOwner, p.ID, transferReq("NOT-ABJ-2"))
	require.Equal(t, veriland.CodeNotFound, codeOf(err))

	// The parcel's original notary is not the transfer's notary: 403.
	_, err = f.svc.ApproveTransfer(ctx, notary, tr.ID)
	require.Equal(t, veriland.CodeForbidden, codeOf(err))
	_, err = f.svc.ApproveTransfer(ctx, owner, tr.ID)
	require.Equal(t, veriland.CodeForbidden, codeOf(err))
	_, err = f.svc.ApproveTransfer(ctx, otherOwner, tr.ID)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))

	// The transfer's notary can read the parcel and the transfer.
	_, err = f.svc.Get(ctx, otherNotary, p.ID)
	require.NoError(t, err)
	f.clock.Advance(3600e9)
	done, err := f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferCompleted, done.Status)
	require.Equal(t, uint64(2), done.ToVersion)

	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.StatusCertified, got.Status)
	require.Equal(t, uint64(2), got.Version)
	require.Equal(t, "Chidi Nwosu-Adeyemi", got.Owner.FullName)
	require.Equal(t, "7766", got.Owner.IDDocLast4)
	require.NotEqual(t, oldHash, got.CertificateHash)
	require.Equal(t, parcel.TokenDisabled, got.Token.Status)
	require.Equal(t, parcel.TokenID(p.ID, 2), got.Token.TokenID)
	require.Empty(t, got.OpenTransferID)

	oldTok, err := f.svc.Token(ctx, veriland.Production, oldToken)
	require.NoError(t, err)
	require.Equal(t, parcel.TokenBurned, oldTok.Status)
	require.NotNil(t, oldTok.BurnedAt)

	h, _ := parcel.ParseHash(oldHash)
	v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateSuperseded, v.Status)
	require.Len(t, v.History, 2)
	require.Equal(t, tr.ID, v.History[0].ClosedBy)
	require.Equal(t, parcel.CertificateCurrent, v.History[1].Status)

	hist, err := f.svc.History(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Len(t, hist, 2)
	require.Equal(t, parcel.CertificateSuperseded, hist[0].Status)
	require.Equal(t, parcel.TokenBurned, hist[0].TokenStatus)

	sc, err := f.svc.Certificate(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, got.CertificateHash, sc.Hash)
	require.Contains(t, string(sc.Certificate), "Chidi Nwosu-Adeyemi")

	first, err := f.svc.CertificateVersion(ctx, owner, p.ID, 1)
	require.NoError(t, err)
	require.Equal(t, oldHash, first.Hash)
	require.Equal(t, parcel.CertificateSuperseded, first.Status)
	require.Contains(t, string(first.Certificate), "Amina Bello-Okafor")
	_, err = f.svc.CertificateVersion(ctx, owner, p.ID, 3)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	_, err = f.svc.CertificateVersion(ctx, otherOwner, p.ID, 1)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))

	list, err := f.svc.ListTransfers(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Len(t, list, 1)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.Equal(t, veriland.CodeInvalidState, codeOf(err))

	require.Equal(t, []parcel.Action{parcel.ActionCreated, parcel.ActionCertified,
		parcel.ActionTransferRequested, parcel.ActionTransferCompleted}, f.actions())
	last := f.events[len(f.events)-1]
	require.Equal(t, oldToken, last.BurnedTokenID)
	require.Equal(t, got.Token.TokenID, last.TokenID)
}

func TestTransferRejectCancel(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		do   func(f *fixture, id string) (*parcel.Transfer, error)
		code veriland.Code
		want parcel.TransferStatus
	}{
		{"notary rejects", func(f *fixture, id string) (*parcel.Transfer, error) {
			return f.svc.RejectTransfer(ctx, otherNotary, id, "papers missing")
		}, "", parcel.TransferRejected},
		{"admin rejects", func(f *fixture, id string) (*parcel.Transfer, error) { return f.svc.RejectTransfer(ctx, admin, id, "") }, "", parcel.TransferRejected},
		{"wrong notary rejects", func(f *fixture, id string) (*parcel.Transfer, error) {
			return f.svc.RejectTransfer(ctx, notary, id, "")
		}, veriland.CodeForbidden, ""},
		{"creator cancels", func(f *fixture, id string) (*parcel.Transfer, error) { return f.svc.CancelTransfer(ctx, owner, id) }, "", parcel.TransferCancelled},
		{"notary may not cancel", func(f *fixture, id string) (*parcel.Transfer, error) {
			return f.svc.CancelTransfer(ctx, otherNotary, id)
		}, veriland.CodeForbidden, ""},
		{"stranger may not cancel", func(f *fixture, id string) (*parcel.Transfer, error) {
			return f.svc.CancelTransfer(ctx, otherOwner, id)
		}, veriland.CodeNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			p := f.certified(t)
			tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
			got, err := tt.do(f, tr.ID)
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if err != nil {
				return
			}
			require.Equal(t, tt.want, got.Status)
			after, err := f.svc.Get(ctx, owner, p.ID)
			require.NoError(t, err)
			require.Empty(t, after.OpenTransferID)
			require.Equal(t, uint64(1), after.Version)
			// A new transfer may be opened again.
			_, err = f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
			require.NoError(t, err)
		})
	}
}

func TestTransferNeedsCertifiedParcel(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p, err := f.svc.Create(ctx, owner, validRequest())
	require.NoError(t, err)
	_, err = f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.Equal(t, veriland.CodeInvalidState, codeOf(err))
	_, err = f.svc.RequestTransfer(ctx, owner, p.ID, parcel.TransferRequest{})
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
}

func TestRevokeCancelsOpenTransfer(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	_, err = f.svc.Revoke(ctx, admin, p.ID, "")
	require.NoError(t, err)
	got, err := f.svc.GetTransfer(ctx, owner, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferCancelled, got.Status)
}

func TestSandboxTransfer(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	req := validRequest()
	req.Notary = parcel.NotarySandboxSuccess
	p, err := f.svc.Create(ctx, sbxOwner, req)
	require.NoError(t, err)
	tr, err := f.svc.RequestTransfer(ctx, sbxOwner, p.ID, transferReq(parcel.NotarySandboxSuccess))
	require.NoError(t, err)
	require.Equal(t, parcel.TransferCompleted, tr.Status)
	tr, err = f.svc.RequestTransfer(ctx, sbxOwner, p.ID, transferReq(parcel.NotarySandboxFailure))
	require.NoError(t, err)
	require.Equal(t, parcel.TransferRejected, tr.Status)
	// Another account's sandbox token never sees it.
	_, err = f.svc.GetTransfer(ctx, veriland.Principal{Subject: "u", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_9"}, tr.ID)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
}
