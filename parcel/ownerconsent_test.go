package parcel_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
)

// TestTransferStartsByOwnerWallet: an owner with a bound wallet must sign
// (PENDING_OWNER, with the owner's deadline); an owner without one appears before the
// notary (PENDING_NOTARY, NOTARY_WITNESSED).
func TestTransferStartsByOwnerWallet(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		wallet    bool
		expiresIn *int64
		code      veriland.Code
		status    parcel.TransferStatus
		deadline  time.Duration
	}{
		{"wallet, default deadline", true, nil, "", parcel.TransferPendingOwner, week},
		{"wallet, shortest deadline", true, ptr[int64](parcel.MinOwnerDeadline), "", parcel.TransferPendingOwner, time.Minute},
		{"wallet, longest deadline", true, ptr[int64](parcel.MaxOwnerDeadline), "", parcel.TransferPendingOwner, 30 * 24 * time.Hour},
		{"deadline too short", true, ptr[int64](parcel.MinOwnerDeadline - 1), veriland.CodeValidationFailed, "", 0},
		{"deadline too long", true, ptr[int64](parcel.MaxOwnerDeadline + 1), veriland.CodeValidationFailed, "", 0},
		{"no wallet", false, nil, "", parcel.TransferPendingNotary, 0},
		{"no wallet, a deadline given", false, ptr[int64](3600), "", parcel.TransferPendingNotary, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			seller := newWallet(t)
			var p *parcel.Parcel
			if tt.wallet {
				p = f.walletParcel(t, seller)
			} else {
				p = f.certified(t)
			}
			req := transferReq("NOT-ABJ-2")
			req.ExpiresInSeconds = tt.expiresIn
			tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, req)
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if err != nil {
				require.Equal(t, []string{"/expiresInSeconds"}, pointersOf(err))
				return
			}
			require.Equal(t, tt.status, tr.Status)
			oc := tr.OwnerConsent
			require.NotNil(t, oc)
			ev := f.lastEvent(t, parcel.ActionTransferRequested)
			require.Equal(t, string(tt.status), ev.Status)
			require.Equal(t, oc.Method, ev.OwnerConsent)
			if !tt.wallet {
				require.Equal(t, &parcel.OwnerConsent{Method: parcel.ConsentNotaryWitnessed}, oc)
				require.Empty(t, ev.OwnerWallet)
				return
			}
			require.Equal(t, parcel.ConsentOwnerSignature, oc.Method)
			require.Equal(t, f.clock.Now().Add(tt.deadline), *oc.Deadline)
			require.Equal(t, seller.lower(), oc.OwnerWallet)
			require.NotNil(t, oc.TypedData)
			require.Empty(t, oc.Decision)
			require.Empty(t, oc.Signature)
			require.Equal(t, seller.lower(), ev.OwnerWallet)
			got, err := f.svc.Get(ctx, owner, p.ID)
			require.NoError(t, err)
			require.Equal(t, tr.ID, got.OpenTransferID, "the parcel is held for this transfer")
		})
	}
}

// TestDecideOwner: the owner's signed APPROVED hands the transfer to the notary, which
// completes it; a signed REJECTED ends it, rejected by the OWNER.
func TestDecideOwner(t *testing.T) {
	ctx := context.Background()
	t.Run("approved, then completed", func(t *testing.T) {
		f := newFixture(t, nil)
		seller, buyer := newWallet(t), newWallet(t)
		p, tr := f.ownerTransfer(t, seller, &buyer, nil)
		f.clock.Advance(time.Hour)
		d := signDecision(t, tr, seller.key, parcel.DecisionApproved)
		got, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, d)
		require.NoError(t, err)
		require.Equal(t, parcel.TransferPendingNotary, got.Status)
		oc := got.OwnerConsent
		require.Equal(t, parcel.DecisionApproved, oc.Decision)
		require.Equal(t, seller.lower(), oc.Signer)
		require.Equal(t, hexutil.MustDecode(d.OwnerSignature), []byte(oc.Signature))
		require.Equal(t, f.clock.Now(), *oc.DecidedAt)
		require.NotNil(t, oc.TypedData, "still served, for the record")
		require.Nil(t, got.DecidedAt, "the transfer itself is not decided yet")
		ev := f.lastEvent(t, parcel.ActionTransferOwnerApproved)
		require.Equal(t, seller.lower(), ev.Actor)
		require.Equal(t, veriland.RoleHolder, ev.Role)
		require.Equal(t, seller.lower(), ev.OwnerWallet)
		require.Equal(t, parcel.ConsentOwnerSignature, ev.OwnerConsent)
		require.Equal(t, string(parcel.TransferPendingNotary), ev.Status)

		// The owner's page shows the decision.
		view, err := f.svc.OwnerConsentContext(ctx, veriland.Production, tr.ID)
		require.NoError(t, err)
		require.Equal(t, &parcel.OwnerDecisionRef{Decision: parcel.DecisionApproved, Signer: seller.lower(), DecidedAt: oc.DecidedAt}, view.OwnerDecision)

		done, err := f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
		require.NoError(t, err)
		require.Equal(t, parcel.TransferCompleted, done.Status)
		require.Equal(t, parcel.DecisionApproved, done.OwnerConsent.Decision, "the owner's signature stays on the record")

		after, err := f.svc.Get(ctx, owner, p.ID)
		require.NoError(t, err)
		require.Equal(t, buyer.lower(), after.Owner.WalletAddress)
		require.Equal(t, parcel.BindingNotaryVerified, after.Owner.Binding)
		require.Equal(t, buyer.lower(), after.Token.Holder, "the new token is the new owner's wallet's")
		hist, err := f.svc.History(ctx, owner, p.ID)
		require.NoError(t, err)
		require.Len(t, hist, 2)
		require.Equal(t, seller.lower(), hist[0].OwnerWallet)
		require.Empty(t, hist[0].TransferID)
		require.Equal(t, tr.ID, hist[1].TransferID)
		require.Equal(t, parcel.ConsentOwnerSignature, hist[1].OwnerConsent)
		require.Equal(t, buyer.lower(), hist[1].OwnerWallet)
		completed := f.lastEvent(t, parcel.ActionTransferCompleted)
		require.Equal(t, parcel.ConsentOwnerSignature, completed.OwnerConsent)
		require.Equal(t, buyer.lower(), completed.OwnerWallet)

		// The old owner's wallet no longer lists the parcel; the new owner's does.
		mine, _, err := f.svc.MyParcels(ctx, holderOf(seller, veriland.Production), "", 0)
		require.NoError(t, err)
		require.Empty(t, mine)
		mine, _, err = f.svc.MyParcels(ctx, holderOf(buyer, veriland.Production), "", 0)
		require.NoError(t, err)
		require.Len(t, mine, 1)
		require.Equal(t, p.ID, mine[0].ID)
		require.EqualValues(t, 2, mine[0].Version)
		require.Nil(t, mine[0].OpenTransfer)

		// The new owner now signs the next transfer.
		next, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferPendingOwner, next.Status)
		require.Equal(t, buyer.lower(), next.OwnerConsent.OwnerWallet)
		require.EqualValues(t, 2, next.FromVersion)
		_, err = f.svc.DecideOwner(ctx, veriland.Production, next.ID, signDecision(t, next, seller.key, parcel.DecisionApproved))
		require.Equal(t, veriland.CodeInvalidSignature, codeOf(err), "the former owner cannot sign any more")
	})
	t.Run("rejected", func(t *testing.T) {
		f := newFixture(t, nil)
		seller := newWallet(t)
		p, tr := f.ownerTransfer(t, seller, nil, nil)
		got, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, parcel.DecisionRejected))
		require.NoError(t, err)
		require.Equal(t, parcel.TransferRejected, got.Status)
		require.Equal(t, parcel.RejectedByOwner, got.RejectedBy)
		require.Equal(t, parcel.DecisionRejected, got.OwnerConsent.Decision)
		require.NotNil(t, got.DecidedAt)
		ev := f.lastEvent(t, parcel.ActionTransferOwnerRejected)
		require.Equal(t, seller.lower(), ev.OwnerWallet)
		require.Equal(t, string(parcel.TransferRejected), ev.Status)
		require.Zero(t, f.count(parcel.ActionTransferOwnerApproved, ""))
		// The parcel is free again and unchanged.
		after, err := f.svc.Get(ctx, owner, p.ID)
		require.NoError(t, err)
		require.Empty(t, after.OpenTransferID)
		require.EqualValues(t, 1, after.Version)
		require.Equal(t, seller.lower(), after.Owner.WalletAddress)
		_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
		require.Equal(t, veriland.CodeInvalidState, codeOf(err))
	})
	t.Run("NOTARY_WITNESSED in the history", func(t *testing.T) {
		f := newFixture(t, nil)
		p := f.certified(t)
		tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
		require.NoError(t, err)
		_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
		require.NoError(t, err)
		hist, err := f.svc.History(ctx, owner, p.ID)
		require.NoError(t, err)
		require.Equal(t, tr.ID, hist[1].TransferID)
		require.Equal(t, parcel.ConsentNotaryWitnessed, hist[1].OwnerConsent)
		require.Equal(t, parcel.ConsentNotaryWitnessed, f.lastEvent(t, parcel.ActionTransferCompleted).OwnerConsent)
		require.Equal(t, parcel.ConsentNotaryWitnessed, f.lastEvent(t, parcel.ActionTransferRequested).OwnerConsent)
	})
}

// TestDecideOwnerRefusals: only the bound wallet's low-s signature over this
// transfer's TransferConsent, with the decision sent, counts; every other answer is
// refused and changes nothing.
func TestDecideOwnerRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller, buyer, stranger := newWallet(t), newWallet(t), newWallet(t)
	_, tr := f.ownerTransfer(t, seller, &buyer, nil)
	_, other := f.ownerTransfer(t, seller, &buyer, nil)
	good := func() parcel.OwnerDecision { return signDecision(t, tr, seller.key, parcel.DecisionApproved) }
	// tampered signs, with the owner's key, this transfer's message changed by mut.
	tampered := func(mut func(m *parcel.TransferConsent)) func() parcel.OwnerDecision {
		return func() parcel.OwnerDecision {
			m := parcel.TransferConsentOf(tr, parcel.DecisionApproved)
			mut(m)
			d := good()
			d.OwnerSignature = signMessage(t, m, seller.key, testChainID)
			return d
		}
	}
	withSig := func(edit func(sig []byte) []byte) func() parcel.OwnerDecision {
		return func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = hexutil.Encode(edit(hexutil.MustDecode(d.OwnerSignature)))
			return d
		}
	}
	tests := []struct {
		name    string
		d       func() parcel.OwnerDecision
		code    veriland.Code
		pointer string
		cause   error
	}{
		{"signed by another wallet", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = signDecision(t, tr, stranger.key, parcel.DecisionApproved).OwnerSignature
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"signed by the new owner", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = signDecision(t, tr, buyer.key, parcel.DecisionApproved).OwnerSignature
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"ownerAddress is not the bound wallet", func() parcel.OwnerDecision {
			return signDecision(t, tr, stranger.key, parcel.DecisionApproved)
		}, veriland.CodeInvalidSignature, "/ownerAddress", nil},
		{"signed REJECTED, sent APPROVED", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = signDecision(t, tr, seller.key, parcel.DecisionRejected).OwnerSignature
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"signed another transfer", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = signDecision(t, other, seller.key, parcel.DecisionApproved).OwnerSignature
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: another new owner's wallet", tampered(func(m *parcel.TransferConsent) { m.NewOwnerWallet[19] ^= 1 }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: another id_doc", tampered(func(m *parcel.TransferConsent) { m.NewOwnerIDDocHash[0] ^= 1 }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: another notary", tampered(func(m *parcel.TransferConsent) { m.Notary = "NOT-ABJ-1" }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: a later deadline", tampered(func(m *parcel.TransferConsent) { m.Deadline += 3600 }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: another version", tampered(func(m *parcel.TransferConsent) { m.FromVersion = 2 }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"tampered: another nonce", tampered(func(m *parcel.TransferConsent) { m.Nonce = [32]byte{} }),
			veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"another chain", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = signMessage(t, parcel.TransferConsentOf(tr, parcel.DecisionApproved), seller.key, 1)
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", nil},
		{"high-s twin", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = highS(t, d.OwnerSignature)
			return d
		}, veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrHighS},
		{"v 29", withSig(func(sig []byte) []byte { sig[64] = 29; return sig }), veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrBadV},
		{"64 bytes", withSig(func(sig []byte) []byte { return sig[:64] }), veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrSignatureLength},
		{"empty signature", withSig(func([]byte) []byte { return []byte{} }), veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrSignatureLength},
		{"r zero", withSig(func(sig []byte) []byte { clear(sig[:32]); return sig }), veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrRecover},
		{"decision MAYBE", func() parcel.OwnerDecision {
			d := good()
			d.Decision = "MAYBE"
			return d
		}, veriland.CodeValidationFailed, "/decision", nil},
		{"decision in lower case", func() parcel.OwnerDecision {
			d := good()
			d.Decision = "approved"
			return d
		}, veriland.CodeValidationFailed, "/decision", nil},
		{"ownerAddress with a bad checksum", func() parcel.OwnerDecision {
			d := good()
			b := []byte(d.OwnerAddress)
			for i := 2; i < len(b); i++ {
				if (b[i] >= 'a' && b[i] <= 'f') || (b[i] >= 'A' && b[i] <= 'F') {
					b[i] ^= 0x20
					break
				}
			}
			d.OwnerAddress = string(b)
			return d
		}, veriland.CodeValidationFailed, "/ownerAddress", nil},
		{"signature not hex", func() parcel.OwnerDecision {
			d := good()
			d.OwnerSignature = "0xzz"
			return d
		}, veriland.CodeValidationFailed, "/ownerSignature", nil},
		{"66 bytes", withSig(func(sig []byte) []byte { return append(sig, 0) }), veriland.CodeInvalidSignature, "/ownerSignature", ethsig.ErrSignatureLength},
		{"signature over 130 bytes", withSig(func(sig []byte) []byte { return append(append(sig, sig...), 0) }),
			veriland.CodeValidationFailed, "/ownerSignature", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, tt.d())
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			require.Equal(t, []string{tt.pointer}, pointersOf(err))
			if tt.cause != nil {
				require.ErrorIs(t, err, tt.cause)
			}
		})
	}
	got, err := f.svc.GetTransfer(ctx, owner, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingOwner, got.Status, "no refusal changed the transfer")
	require.Empty(t, got.OwnerConsent.Decision)
	require.Zero(t, f.count(parcel.ActionTransferOwnerApproved, "")+f.count(parcel.ActionTransferOwnerRejected, ""))
	// The good signature, in any accepted form, still works: v 0/1 and a lower-case address.
	d := good()
	sig := hexutil.MustDecode(d.OwnerSignature)
	sig[64] -= 27
	d.OwnerSignature, d.OwnerAddress = hexutil.Encode(sig), seller.lower()
	got, err = f.svc.DecideOwner(ctx, veriland.Production, tr.ID, d)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingNotary, got.Status)
	// The other environment does not hold the transfer.
	_, err = f.svc.DecideOwner(ctx, veriland.Sandbox, other.ID, signDecision(t, other, seller.key, parcel.DecisionApproved))
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	_, err = f.svc.DecideOwner(ctx, veriland.Production, "trf_aaaaaaaaaaaaaaaaaaaaaaaaaa", good())
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
}

// TestDecideOwnerState: only a PENDING_OWNER transfer before its deadline can be
// decided; anything else is invalid_state naming the status, and the notary cannot
// approve while the owner has not signed.
func TestDecideOwnerState(t *testing.T) {
	ctx := context.Background()
	type step func(f *fixture, tr *parcel.Transfer, seller wallet) error
	decide := func(decision string) step {
		return func(f *fixture, tr *parcel.Transfer, seller wallet) error {
			_, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, decision))
			return err
		}
	}
	approve := func(p veriland.Principal) step {
		return func(f *fixture, tr *parcel.Transfer, _ wallet) error {
			_, err := f.svc.ApproveTransfer(ctx, p, tr.ID)
			return err
		}
	}
	reject := func(p veriland.Principal) step {
		return func(f *fixture, tr *parcel.Transfer, _ wallet) error {
			_, err := f.svc.RejectTransfer(ctx, p, tr.ID, "seller absent")
			return err
		}
	}
	cancel := func(p veriland.Principal) step {
		return func(f *fixture, tr *parcel.Transfer, _ wallet) error {
			_, err := f.svc.CancelTransfer(ctx, p, tr.ID)
			return err
		}
	}
	revoke := func(f *fixture, tr *parcel.Transfer, _ wallet) error {
		_, err := f.svc.Revoke(ctx, admin, tr.ParcelID, "court order")
		return err
	}
	expire := func(f *fixture, _ *parcel.Transfer, _ wallet) error {
		f.clock.Advance(week)
		return nil
	}
	tests := []struct {
		name   string
		before []step
		do     step
		code   veriland.Code
		status string // meta status of the refusal, or the transfer's status after do
	}{
		{"notary approves while PENDING_OWNER", nil, approve(otherNotary), veriland.CodeInvalidState, "PENDING_OWNER"},
		{"admin approves while PENDING_OWNER", nil, approve(admin), veriland.CodeInvalidState, "PENDING_OWNER"},
		{"notary rejects while PENDING_OWNER", nil, reject(otherNotary), "", "REJECTED"},
		{"requester cancels while PENDING_OWNER", nil, cancel(owner), "", "CANCELLED"},
		{"admin cancels while PENDING_OWNER", nil, cancel(admin), "", "CANCELLED"},
		{"owner decides twice", []step{decide(parcel.DecisionApproved)}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "PENDING_NOTARY"},
		{"owner changes its mind", []step{decide(parcel.DecisionApproved)}, decide(parcel.DecisionRejected), veriland.CodeInvalidState, "PENDING_NOTARY"},
		{"owner decides after refusing", []step{decide(parcel.DecisionRejected)}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "REJECTED"},
		{"owner decides after the notary rejected", []step{reject(otherNotary)}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "REJECTED"},
		{"owner decides after cancellation", []step{cancel(owner)}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "CANCELLED"},
		{"owner decides after completion", []step{decide(parcel.DecisionApproved), approve(otherNotary)}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "COMPLETED"},
		{"owner decides after revocation", []step{revoke}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "CANCELLED"},
		{"owner decides past the deadline", []step{expire}, decide(parcel.DecisionApproved), veriland.CodeInvalidState, "EXPIRED"},
		{"owner refuses past the deadline", []step{expire}, decide(parcel.DecisionRejected), veriland.CodeInvalidState, "EXPIRED"},
		{"notary approves past the deadline", []step{expire}, approve(otherNotary), veriland.CodeInvalidState, "EXPIRED"},
		{"notary rejects past the deadline", []step{expire}, reject(otherNotary), veriland.CodeInvalidState, "EXPIRED"},
		{"requester cancels past the deadline", []step{expire}, cancel(owner), veriland.CodeInvalidState, "EXPIRED"},
		{"owner decides a second before the deadline", []step{func(f *fixture, _ *parcel.Transfer, _ wallet) error {
			f.clock.Advance(week - time.Second)
			return nil
		}}, decide(parcel.DecisionApproved), "", "PENDING_NOTARY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			seller := newWallet(t)
			_, tr := f.ownerTransfer(t, seller, nil, nil)
			for _, b := range tt.before {
				require.NoError(t, b(f, tr, seller))
			}
			err := tt.do(f, tr, seller)
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			got, gerr := f.svc.GetTransfer(ctx, owner, tr.ID)
			require.NoError(t, gerr)
			if err != nil {
				require.Equal(t, tt.status, metaOf(err, "status"))
				require.Equal(t, tt.status, string(got.Status), "the refusal names the status the transfer is in")
				return
			}
			require.Equal(t, tt.status, string(got.Status))
		})
	}
	// A NOTARY_WITNESSED transfer has no owner signature to give.
	f := newFixture(t, nil)
	p := f.certified(t)
	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	_, err = f.svc.DecideOwner(ctx, veriland.Production, tr.ID, parcel.OwnerDecision{Decision: parcel.DecisionApproved,
		OwnerSignature: "0x", OwnerAddress: newWallet(t).addr})
	require.Equal(t, veriland.CodeInvalidState, codeOf(err))
	require.Equal(t, "PENDING_NOTARY", metaOf(err, "status"))
}

// livenessGate is a fake consent.LivenessGate: pass lists the subjects with a
// qualifying attestation; every call is recorded.
type livenessGate struct {
	mu    sync.Mutex
	pass  map[string]bool
	calls []string
}

func (g *livenessGate) Check(_ context.Context, _ storage.Tx, _ veriland.Environment, subject, minLevel string, maxAge time.Duration) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, subject+" "+minLevel+" "+maxAge.String())
	if g.pass[subject] {
		return nil
	}
	return consent.LivenessRequired(minLevel, maxAge)
}

// TestOwnerLiveness: a transfer that asks requireLiveness needs, for the owner's
// APPROVED, a liveness attestation of the identity of the owner's wallet.
func TestOwnerLiveness(t *testing.T) {
	ctx := context.Background()
	const did = "did:veriland:seller"
	live := func(r *parcel.TransferRequest) {
		r.RequireLiveness = &consent.LivenessInput{MinLevel: "L2", MaxAgeDays: ptr(7.0)}
	}
	tests := []struct {
		name     string
		identity bool
		passes   bool
		decision string
		code     veriland.Code
	}{
		{"no identity for the wallet", false, false, parcel.DecisionApproved, veriland.CodeLivenessRequired},
		{"identity without liveness", true, false, parcel.DecisionApproved, veriland.CodeLivenessRequired},
		{"identity with liveness", true, true, parcel.DecisionApproved, ""},
		{"a refusal needs no liveness", false, false, parcel.DecisionRejected, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			ids := identities{}
			gate := &livenessGate{pass: map[string]bool{}}
			f.svc.Identities, f.svc.Liveness = ids, gate
			seller := newWallet(t)
			if tt.identity {
				ids.activeIdentity(seller, veriland.Production, did)
			}
			gate.pass[did] = tt.passes
			_, tr := f.ownerTransfer(t, seller, nil, live)
			require.Equal(t, &consent.LivenessRequirement{MinLevel: "L2", MaxAgeDays: 7}, tr.RequireLiveness)
			got, err := f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, tt.decision))
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if err != nil {
				require.Equal(t, "L2", metaOf(err, "minLevel"))
				again, gerr := f.svc.GetTransfer(ctx, owner, tr.ID)
				require.NoError(t, gerr)
				require.Equal(t, parcel.TransferPendingOwner, again.Status, "the owner may prove liveness and sign again")
				return
			}
			if tt.decision == parcel.DecisionApproved {
				require.Equal(t, parcel.TransferPendingNotary, got.Status)
				require.Equal(t, []string{did + " L2 168h0m0s"}, gate.calls, "the gate checked the owner's identity")
			} else {
				require.Empty(t, gate.calls)
			}
		})
	}
	t.Run("a service that cannot check liveness refuses the request", func(t *testing.T) {
		f := newFixture(t, nil)
		p := f.walletParcel(t, newWallet(t))
		req := transferReq("NOT-ABJ-2")
		live(&req)
		_, err := f.svc.RequestTransfer(ctx, owner, p.ID, req)
		require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
		require.Equal(t, []string{"/requireLiveness"}, pointersOf(err))
	})
	t.Run("an owner without a wallet cannot be asked for liveness", func(t *testing.T) {
		f := newFixture(t, nil)
		f.svc.Identities, f.svc.Liveness = identities{}, &livenessGate{}
		p := f.certified(t)
		req := transferReq("NOT-ABJ-2")
		live(&req)
		_, err := f.svc.RequestTransfer(ctx, owner, p.ID, req)
		require.Equal(t, veriland.CodeBusinessRuleViolation, codeOf(err))
		require.Equal(t, []string{"/requireLiveness"}, pointersOf(err))
	})
	t.Run("bounds", func(t *testing.T) {
		for _, in := range []*consent.LivenessInput{{MinLevel: "L4"}, {MinLevel: ""}, {MinLevel: "L1", MaxAgeDays: ptr(0.5)}, {MinLevel: "L1", MaxAgeDays: ptr(366.0)}} {
			req := transferReq("NOT-ABJ-2")
			req.RequireLiveness = in
			require.Equal(t, veriland.CodeValidationFailed, codeOf(req.Validate()), "%+v", in)
		}
	})
}

// TestConcurrentOwnerDecisions: 100 goroutines post the same valid owner decision;
// exactly one changes the transfer and emits transfer.owner_approved, the other 99 are
// invalid_state.
func TestConcurrentOwnerDecisions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller := newWallet(t)
	_, tr := f.ownerTransfer(t, seller, nil, nil)
	d := signDecision(t, tr, seller.key, parcel.DecisionApproved)
	const n = 100
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			_, errs[i] = f.svc.DecideOwner(ctx, veriland.Production, tr.ID, d)
		})
	}
	close(start)
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		require.Equal(t, veriland.CodeInvalidState, codeOf(err), "%v", err)
		require.Equal(t, "PENDING_NOTARY", metaOf(err, "status"))
	}
	require.Equal(t, 1, ok)
	require.Equal(t, 1, f.count(parcel.ActionTransferOwnerApproved, tr.ID))
	got, err := f.svc.GetTransfer(ctx, owner, tr.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingNotary, got.Status)
}

// TestOwnerConsentContext: the owner's view names the parcel, the notary, who asked
// and the new owner's id_doc last 4 and wallet, never a name.
func TestOwnerConsentContext(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller, buyer := newWallet(t), newWallet(t)
	p, tr := f.ownerTransfer(t, seller, &buyer, func(r *parcel.TransferRequest) { r.RequesterName = "Abuja Land Agency" })
	v, err := f.svc.OwnerConsentContext(ctx, veriland.Production, tr.ID)
	require.NoError(t, err)
	require.Equal(t, tr.ID, v.TransferID)
	require.Equal(t, parcel.TransferPendingOwner, v.Status)
	require.Equal(t, veriland.Production, v.Environment)
	require.Equal(t, parcel.ConsentOwnerSignature, v.Method)
	require.Equal(t, parcel.OwnerConsentParcel{ID: p.ID, City: "Abuja", Version: 1, AreaM2: 1250.5}, v.Parcel)
	require.Equal(t, "NOT-ABJ-2", v.Notary)
	require.Equal(t, parcel.Requester{ID: owner.Subject, Name: "Abuja Land Agency"}, v.Requester)
	require.Equal(t, parcel.NewOwnerRef{IDDocLast4: "7766", WalletAddress: buyer.lower()}, v.NewOwner)
	require.Equal(t, seller.lower(), v.OwnerWallet)
	require.Equal(t, tr.OwnerConsent.Deadline, v.Deadline)
	require.Nil(t, v.OwnerDecision)
	require.NotNil(t, v.TypedData)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	for _, name := range []string{"Amina", "Bello", "Chidi", "Nwosu", "NGA-NIN-99887766", "NGA-PASS-A12345678", "fullName"} {
		require.NotContains(t, string(b), name)
	}
	// Without an API key name the requester is its sub; a NOTARY_WITNESSED transfer
	// has no typed data.
	q := f.certified(t)
	nw, err := f.svc.RequestTransfer(ctx, owner, q.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	v, err = f.svc.OwnerConsentContext(ctx, veriland.Production, nw.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.Requester{ID: owner.Subject, Name: owner.Subject}, v.Requester)
	require.Equal(t, parcel.ConsentNotaryWitnessed, v.Method)
	require.Nil(t, v.TypedData)
	require.Nil(t, v.Deadline)
	require.Empty(t, v.OwnerWallet)
	_, err = f.svc.OwnerConsentContext(ctx, veriland.Sandbox, tr.ID)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	env, err := f.svc.TransferEnv(ctx, tr.ID)
	require.NoError(t, err)
	require.Equal(t, veriland.Production, env)
	_, err = f.svc.TransferEnv(ctx, "trf_aaaaaaaaaaaaaaaaaaaaaaaaaa")
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
}
