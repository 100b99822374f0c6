package parcel

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// RequestTransfer opens a transfer of a CERTIFIED parcel to a new owner (POST
// /v1/parcels/{id}/transfer, 202): the parcel's account (any role but notary) or an
// admin. A notary never asks for what it decides: forbidden, meta.reason
// separation_of_duties. When the parcel's owner has a bound wallet the transfer starts
// PENDING_OWNER, with the TransferConsent the owner signs and a deadline
// (expiresInSeconds, default 7 days); otherwise PENDING_NOTARY with owner consent
// NOTARY_WITNESSED. invalid_state when the parcel is not CERTIFIED or a transfer is
// already open (meta transferId). In SANDBOX the notaries NOT-SBX-1 and NOT-SBX-2
// approve or reject a PENDING_NOTARY transfer at once.
func (s *Service) RequestTransfer(ctx context.Context, p veriland.Principal, parcelID string, req TransferRequest) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	live := req.liveness()
	if live != nil && (s.Liveness == nil || s.Identities == nil) {
		return nil, veriland.Invalid("/requireLiveness", "this service cannot check liveness")
	}
	id, err := ids.New(s.rand(), TransferIDPrefix)
	if err != nil {
		return nil, err
	}
	var nonce [32]byte
	if _, err := io.ReadFull(s.rand(), nonce[:]); err != nil {
		return nil, fmt.Errorf("parcel: reading randomness for a nonce: %w", err)
	}
	sealed, err := s.seal(p.Env, parcelID, req.NewOwner.FullName)
	if err != nil {
		return nil, err
	}
	var did string // the new owner's wallet identity, for a sandbox notary that approves at once
	if p.Env == veriland.Sandbox && req.Notary == NotarySandboxSuccess {
		if did, err = s.walletDID(ctx, p.Env, req.NewOwner.WalletAddress); err != nil {
			return nil, err
		}
	}
	now := s.now()
	var out *Transfer
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := s.readable(tx, p, parcelID)
		if err != nil {
			return err
		}
		if p.Role == veriland.RoleNotary {
			return separationOfDuties("a notary never requests a transfer: notaries decide on transfers that the parcel's account asks for")
		}
		if p.Role != veriland.RoleAdmin && (p.Account == "" || p.Account != rec.Account) {
			return forbidden("only the parcel's account or an admin may transfer it")
		}
		if rec.Status != StatusCertified {
			return invalidState("parcel", parcelID, string(rec.Status), "transfer")
		}
		if rec.OpenTransferID != "" {
			return veriland.Errorf(veriland.CodeInvalidState, "parcel %s already has an open transfer %s", parcelID, rec.OpenTransferID).
				WithMeta("status", string(rec.Status)).WithMeta("transferId", rec.OpenTransferID)
		}
		if live != nil && !rec.Owner.bound() {
			e := veriland.Errorf(veriland.CodeBusinessRuleViolation,
				"requireLiveness needs an owner with a bound wallet: parcel %s's owner has none, so the notary witnesses the owner's consent", parcelID)
			e.Pointer = "/requireLiveness"
			return e
		}
		newOwner := s.ownerOf(req.NewOwner)
		tr := &transferRecord{
			Transfer: Transfer{
				ID: id, Env: p.Env, ParcelID: parcelID, Account: rec.Account, CreatedBy: p.Subject,
				Status:          TransferPendingNotary,
				NewOwner:        newOwner,
				Notary:          req.Notary,
				FromVersion:     rec.Version,
				OwnerConsent:    &OwnerConsent{Method: ConsentNotaryWitnessed},
				RequireLiveness: live,
				CreatedAt:       now,
			},
			NewOwnerName:  sealed,
			Nonce:         nonce[:],
			RequesterName: req.RequesterName,
		}
		if rec.Owner.bound() {
			deadline := now.Add(req.ownerDeadline())
			tr.Status = TransferPendingOwner
			tr.OwnerConsent = &OwnerConsent{Method: ConsentOwnerSignature, Deadline: &deadline, OwnerWallet: rec.Owner.WalletAddress}
		}
		if err := r.putTransfer(tr, true); err != nil {
			return err
		}
		rec.OpenTransferID, rec.TransferNotary, rec.UpdatedAt = id, req.Notary, now
		if err := r.putParcel(rec); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, Event{Env: p.Env, Action: ActionTransferRequested, ParcelID: parcelID, TransferID: id,
			Actor: p.Subject, Role: p.Role, Account: rec.Account, Status: string(tr.Status),
			OwnerConsent: tr.OwnerConsent.Method, OwnerWallet: tr.OwnerConsent.OwnerWallet, At: now}); err != nil {
			return err
		}
		if err := s.sandboxNotary(ctx, r, tr, did, now); err != nil {
			return err
		}
		out = s.transferView(r.env, tr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sandboxNotary lets the SANDBOX notaries decide a PENDING_NOTARY transfer at once:
// NOT-SBX-1 approves (did: the new owner's wallet identity), NOT-SBX-2 rejects,
// NOT-SBX-3 (and every notary outside SANDBOX) leaves it waiting.
func (s *Service) sandboxNotary(ctx context.Context, r repository, tr *transferRecord, did string, now time.Time) error {
	if r.env != veriland.Sandbox || tr.Status != TransferPendingNotary {
		return nil
	}
	sbx := actor{sub: tr.Notary, role: veriland.RoleNotary}
	switch tr.Notary {
	case NotarySandboxSuccess:
		return s.approveTx(ctx, r, tr, sbx, did, now, nil)
	case NotarySandboxFailure:
		return s.closeTransfer(ctx, r, tr, sbx, TransferRejected, "sandbox scenario: "+NotarySandboxFailure+" rejects every request", now)
	}
	return nil
}

func (s *Service) transferView(env veriland.Environment, tr *transferRecord) *Transfer {
	out := tr.Transfer
	out.NewOwner.FullName, _ = s.open(env, tr.ParcelID, tr.NewOwnerName)
	if oc := tr.OwnerConsent; oc != nil {
		c := *oc
		if c.Method == ConsentOwnerSignature {
			td := s.unsignedConsent(tr)
			c.TypedData = &td
		}
		out.OwnerConsent = &c
	}
	return &out
}

// canReadTransfer: the parcel's account, an admin, or the transfer's notary.
func canReadTransfer(p veriland.Principal, tr *transferRecord) bool {
	if !sameSandboxAccount(p, tr.Account) {
		return false
	}
	switch {
	case p.Role == veriland.RoleAdmin:
		return true
	case p.Role == veriland.RoleNotary && p.Subject == tr.Notary:
		return true
	}
	return p.Account != "" && p.Account == tr.Account
}

// GetTransfer returns transfer id (GET /v1/transfers/{id}) to the parcel's account,
// the transfer's notary or an admin.
func (s *Service) GetTransfer(ctx context.Context, p veriland.Principal, id string) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	tr, err := s.readTransfer(ctx, p.Env, id, func(tr *transferRecord) error {
		if !canReadTransfer(p, tr) {
			return notFound("transfer", id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.transferView(p.Env, tr), nil
}

// ListTransfers returns every transfer of a parcel, newest first (GET
// /v1/parcels/{id}/transfers), to those who may read the parcel.
func (s *Service) ListTransfers(ctx context.Context, p veriland.Principal, parcelID string) ([]*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	out := []*Transfer{}
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		out = out[:0]
		if _, err := s.readable(tx, p, parcelID); err != nil {
			return err
		}
		trs, err := repo(tx, p.Env).transfers(parcelID)
		if err != nil {
			return err
		}
		for _, tr := range trs {
			out = append(out, s.transferView(p.Env, tr))
		}
		return nil
	})
	return out, err
}

// ApproveTransfer completes a PENDING_NOTARY transfer (POST /v1/transfers/{id}/approve):
// the transfer's named notary or an admin; anyone else who can see it → forbidden,
// and so is the principal that requested the transfer, admins included (meta.reason
// separation_of_duties). A transfer still waiting for its owner (PENDING_OWNER) →
// invalid_state. In one transaction: the current certificate version becomes
// SUPERSEDED and its token BURNED (its hash enters the status list), the new owner
// becomes the parcel's owner (a wallet of theirs becomes bound), a new certificate
// version (CURRENT, signed) and its token are minted, and the transfer becomes
// COMPLETED.
func (s *Service) ApproveTransfer(ctx context.Context, p veriland.Principal, id string) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	// Sign the new version outside the write transaction, as Certify does, and resolve
	// the new owner's wallet to its identity (a read of its own) before it.
	var snap *parcelRecord
	var snapTr *transferRecord
	now := s.now()
	_ = s.Store.View(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		tr, err := r.transfer(id)
		if err != nil || tr.Status != TransferPendingNotary || mayDecide(p, tr.Account, tr.Notary, "transfer", id) != nil {
			return nil
		}
		rec, err := r.parcel(tr.ParcelID)
		if err != nil || rec.Status != StatusCertified || rec.OpenTransferID != tr.ID {
			return nil
		}
		snap, snapTr = rec, tr
		return nil
	})
	var did string
	var pre *presigned
	if snap != nil {
		var err error
		if did, err = s.walletDID(ctx, p.Env, snapTr.NewOwner.WalletAddress); err != nil {
			return nil, err
		}
		takeOver(snap, snapTr, did)
		pre = s.presign(p.Env, snap, snap.Version+1, snapTr.Notary, now)
	}
	return s.decideTransfer(ctx, p, id, true, func(r repository, tr *transferRecord, _ time.Time) error {
		if tr.CreatedBy == p.Subject {
			return separationOfDuties("%s requested transfer %s and so cannot approve it: the named notary (or another admin) must", p.Subject, id)
		}
		return s.approveTx(ctx, r, tr, actorOf(p), did, now, pre)
	})
}

// takeOver makes tr's new owner and notary rec's; the new owner's wallet, if any,
// becomes bound (did: its ACTIVE identity, "" for none).
func takeOver(rec *parcelRecord, tr *transferRecord, did string) {
	rec.OwnerName = tr.NewOwnerName
	rec.Owner = OwnerView{IDDocHash: tr.NewOwner.IDDocHash, IDDocLast4: tr.NewOwner.IDDocLast4, WalletAddress: tr.NewOwner.WalletAddress}
	bind(&rec.Owner, did)
	rec.Notary = tr.Notary
}

// RejectTransfer rejects an open transfer (PENDING_OWNER or PENDING_NOTARY) with an
// optional reason: the transfer's named notary or an admin.
func (s *Service) RejectTransfer(ctx context.Context, p veriland.Principal, id, reason string) (*Transfer, error) {
	if !validReason(reason) {
		return nil, veriland.Invalid("/reason", "reason must be at most %d printable characters", MaxReasonLen)
	}
	return s.decideTransfer(ctx, p, id, true, func(r repository, tr *transferRecord, now time.Time) error {
		return s.closeTransfer(ctx, r, tr, actorOf(p), TransferRejected, reason, now)
	})
}

// CancelTransfer withdraws an open transfer: the parcel's account (its creator) or an
// admin.
func (s *Service) CancelTransfer(ctx context.Context, p veriland.Principal, id string) (*Transfer, error) {
	return s.decideTransfer(ctx, p, id, false, func(r repository, tr *transferRecord, now time.Time) error {
		return s.closeTransfer(ctx, r, tr, actorOf(p), TransferCancelled, "", now)
	})
}

func (s *Service) decideTransfer(ctx context.Context, p veriland.Principal, id string, notary bool,
	fn func(r repository, tr *transferRecord, now time.Time) error) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	now := s.now()
	var out *Transfer
	var refused error
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		refused = nil
		r := repo(tx, p.Env)
		tr, err := r.transfer(id)
		if err != nil {
			return err
		}
		if notary {
			if err := mayDecide(p, tr.Account, tr.Notary, "transfer", id); err != nil {
				return err
			}
		} else if p.Role != veriland.RoleAdmin || !sameSandboxAccount(p, tr.Account) {
			if !canReadTransfer(p, tr) {
				return notFound("transfer", id)
			}
			if p.Account == "" || p.Account != tr.Account || p.Role == veriland.RoleNotary {
				return forbidden("only the parcel's account or an admin may cancel transfer %s", id)
			}
		}
		if tr.due(now) {
			// The owner's deadline passed: the transfer expires now (committed), and
			// the change asked for is refused.
			if err := s.expireTx(ctx, r, tr, now); err != nil {
				return err
			}
			refused = transferState(tr, "decide")
			return nil
		}
		if err := fn(r, tr, now); err != nil {
			return err
		}
		out = s.transferView(p.Env, tr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if refused != nil {
		return nil, refused
	}
	return out, nil
}

func (s *Service) approveTx(ctx context.Context, r repository, tr *transferRecord, a actor, did string, now time.Time, pre *presigned) error {
	if tr.Status != TransferPendingNotary {
		return transferState(tr, "approve")
	}
	rec, err := r.parcel(tr.ParcelID)
	if err != nil {
		return err
	}
	if rec.Status != StatusCertified || rec.OpenTransferID != tr.ID {
		return invalidState("parcel", rec.ID, string(rec.Status), "complete transfer "+tr.ID)
	}
	old, err := r.version(rec.ID, rec.Version)
	if err != nil {
		return err
	}
	if err := s.closeVersion(r, old, CertificateSuperseded, tr.ID, now); err != nil {
		return err
	}
	v := rec.Version + 1
	// The old owner's wallet stops listing the parcel (GET /v1/me/parcels).
	if rec.Owner.bound() {
		if err := r.unindexWallet(rec); err != nil {
			return err
		}
	}
	takeOver(rec, tr, did)
	vr, tok, err := s.mint(r, rec, v, tr.Notary, tr, now, pre)
	if err != nil {
		return err
	}
	rec.Version, rec.CertificateHash, rec.TokenID = v, vr.Hash, tok.TokenID
	rec.CertifiedAt, rec.UpdatedAt = &now, now
	rec.OpenTransferID, rec.TransferNotary = "", ""
	if err := r.putParcel(rec); err != nil {
		return err
	}
	// The new notary's index key is added; the old one stays (List filters by access).
	if err := r.index(rec); err != nil {
		return err
	}
	tr.Status, tr.ToVersion, tr.DecidedAt = TransferCompleted, v, &now
	if err := r.putTransfer(tr, false); err != nil {
		return err
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: ActionTransferCompleted, ParcelID: rec.ID, TransferID: tr.ID,
		Actor: a.sub, Role: a.role, Account: rec.Account, Status: string(tr.Status), Version: v,
		CertificateHash: vr.Hash, TokenID: tok.TokenID, BurnedTokenID: old.TokenID,
		OwnerConsent: tr.OwnerConsent.Method, OwnerWallet: rec.Owner.WalletAddress, At: now})
}

// closeTransfer ends the open transfer tr with status st (REJECTED by a notary, or
// CANCELLED) and frees its parcel for another transfer.
func (s *Service) closeTransfer(ctx context.Context, r repository, tr *transferRecord, a actor, st TransferStatus, reason string, now time.Time) error {
	if !tr.Status.Open() {
		verb := "reject"
		if st == TransferCancelled {
			verb = "cancel"
		}
		return transferState(tr, verb)
	}
	if st == TransferRejected {
		tr.RejectedBy = RejectedByNotary
	}
	action := ActionTransferRejected
	if st == TransferCancelled {
		action = ActionTransferCancelled
	}
	return s.endTransfer(ctx, r, tr, a, st, action, reason, now, now)
}

// endTransfer moves tr to the final status st, decided at decidedAt (an expiry's
// deadline; otherwise now), frees its parcel and emits action at now.
func (s *Service) endTransfer(ctx context.Context, r repository, tr *transferRecord, a actor, st TransferStatus, action Action, reason string, decidedAt, now time.Time) error {
	rec, err := r.parcel(tr.ParcelID)
	if err != nil {
		return err
	}
	if rec.OpenTransferID == tr.ID {
		rec.OpenTransferID, rec.TransferNotary, rec.UpdatedAt = "", "", now
		if err := r.putParcel(rec); err != nil {
			return err
		}
	}
	tr.Status, tr.Reason, tr.DecidedAt = st, reason, &decidedAt
	if err := r.putTransfer(tr, false); err != nil {
		return err
	}
	ev := Event{Env: r.env, Action: action, ParcelID: rec.ID, TransferID: tr.ID,
		Actor: a.sub, Role: a.role, Account: rec.Account, Status: string(st), At: now}
	if oc := tr.OwnerConsent; oc != nil {
		ev.OwnerConsent = oc.Method
		if a.role == veriland.RoleHolder {
			ev.OwnerWallet = oc.OwnerWallet
		}
	}
	return s.emit(ctx, r.tx, ev)
}

// transferState is the invalid_state refusal of doing verb to tr in its status.
func transferState(tr *transferRecord, verb string) *veriland.Error {
	return invalidState("transfer", tr.ID, string(tr.Status), verb)
}
