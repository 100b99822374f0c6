package parcel_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
)

// TestApproveIsOneTransaction makes the event hook fail on transfer.completed: the
// supersession, the burn, the new version and the new token all roll back.
func TestApproveIsOneTransaction(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)

	boom := errors.New("audit log unavailable")
	f.svc.OnEvent = func(_ context.Context, _ storage.Tx, ev parcel.Event) error {
		if ev.Action == parcel.ActionTransferCompleted {
			return boom
		}
		return nil
	}
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.ErrorIs(t, err, boom)

	got, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, uint64(1), got.Version)
	require.Equal(t, p.CertificateHash, got.CertificateHash)
	require.Equal(t, parcel.TokenDisabled, got.Token.Status)
	require.Equal(t, tr.ID, got.OpenTransferID)
	_, err = f.svc.Token(ctx, veriland.Production, parcel.TokenID(p.ID, 2))
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	h, _ := parcel.ParseHash(p.CertificateHash)
	v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateCurrent, v.Status)
	l, err := f.svc.Statuses(ctx, veriland.Production, timeZero)
	require.NoError(t, err)
	require.Empty(t, l.Entries)
	back, err := f.svc.GetTransfer(ctx, owner, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingNotary, back.Status)

	f.svc.OnEvent = nil
	done, err := f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferCompleted, done.Status)
}

// TestConcurrentDecisions: of many simultaneous certifications (or approvals) of one
// record, exactly one wins and the others see invalid_state.
func TestConcurrentDecisions(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p, err := f.svc.Create(ctx, owner, validRequest())
	require.NoError(t, err)
	race := func(fn func() error) (ok, conflict int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := fn()
				mu.Lock()
				defer mu.Unlock()
				switch codeOf(err) {
				case "":
					ok++
				case veriland.CodeInvalidState:
					conflict++
				default:
					t.Errorf("unexpected %v", err)
				}
			}()
		}
		wg.Wait()
		return ok, conflict
	}
	ok, conflict := race(func() error { _, err := f.svc.Certify(ctx, notary, p.ID); return err })
	require.Equal(t, 1, ok)
	require.Equal(t, 15, conflict)

	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	ok, conflict = race(func() error { _, err := f.svc.ApproveTransfer(ctx, otherNotary, tr.ID); return err })
	require.Equal(t, 1, ok)
	require.Equal(t, 15, conflict)
	hist, err := f.svc.History(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Len(t, hist, 2)
}
