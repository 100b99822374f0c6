package parcel

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// RequestTransfer opens a transfer of a CERTIFIED parcel to a new owner (POST
// /v1/parcels/{id}/transfer, 202): the parcel's account or an admin. invalid_state
// when the parcel is not CERTIFIED or a transfer is already open (meta transferId).
// In SANDBOX the notaries NOT-SBX-1 and NOT-SBX-2 approve or reject it at once.
func (s *Service) RequestTransfer(ctx context.Context, p veriland.Principal, parcelID string, req TransferRequest) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	id, err := ids.New(s.rand(), TransferIDPrefix)
	if err != nil {
		return nil, err
	}
	sealed, err := s.seal(p.Env, parcelID, req.NewOwner.FullName)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out *Transfer
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := s.readable(tx, p, parcelID)
		if err != nil {
			return err
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
		tr := &transferRecord{
			Transfer: Transfer{
				ID: id, Env: p.Env, ParcelID: parcelID, Account: rec.Account, CreatedBy: p.Subject,
				Status:      TransferPendingNotary,
				NewOwner:    OwnerView{IDDocHash: s.IDDocHash(req.NewOwner.IDDoc), IDDocLast4: last4(req.NewOwner.IDDoc)},
				Notary:      req.Notary,
				FromVersion: rec.Version,
				CreatedAt:   now,
			},
			NewOwnerName: sealed,
		}
		if err := r.putTransfer(tr, true); err != nil {
			return err
		}
		rec.OpenTransferID, rec.TransferNotary, rec.UpdatedAt = id, req.Notary, now
		if err := r.putParcel(rec); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, Event{Env: p.Env, Action: ActionTransferRequested, ParcelID: parcelID, TransferID: id,
			Actor: p.Subject, Role: p.Role, Account: rec.Account, Status: string(tr.Status), At: now}); err != nil {
			return err
		}
		if p.Env == veriland.Sandbox {
			sbx := actor{sub: req.Notary, role: veriland.RoleNotary}
			switch req.Notary {
			case NotarySandboxSuccess:
				if err := s.approveTx(ctx, r, tr, sbx, now, nil); err != nil {
					return err
				}
			case NotarySandboxFailure:
				if err := s.closeTransfer(ctx, r, tr, sbx, TransferRejected, "sandbox scenario: "+NotarySandboxFailure+" rejects every request", now); err != nil {
					return err
				}
			}
		}
		out = s.transferView(r.env, tr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) transferView(env veriland.Environment, tr *transferRecord) *Transfer {
	out := tr.Transfer
	out.NewOwner.FullName, _ = s.open(env, tr.ParcelID, tr.NewOwnerName)
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
	var out *Transfer
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		tr, err := repo(tx, p.Env).transfer(id)
		if err != nil {
			return err
		}
		if !canReadTransfer(p, tr) {
			return notFound("transfer", id)
		}
		out = s.transferView(p.Env, tr)
		return nil
	})
	return out, err
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
// the transfer's named notary or an admin; anyone else who can see it → forbidden.
// In one transaction: the current certificate version becomes SUPERSEDED and its token
// BURNED (its hash enters the status list), the new owner becomes the parcel's owner,
// a new certificate version (CURRENT, signed) and its token are minted, and the
// transfer becomes COMPLETED.
func (s *Service) ApproveTransfer(ctx context.Context, p veriland.Principal, id string) (*Transfer, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	// Sign the new version outside the write transaction, as Certify does.
	var pre *presigned
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
		v := rec.Version + 1
		takeOver(rec, tr)
		pre = s.presign(p.Env, rec, v, tr.Notary, now)
		return nil
	})
	return s.decideTransfer(ctx, p, id, true, func(r repository, tr *transferRecord, _ time.Time) error {
		return s.approveTx(ctx, r, tr, actorOf(p), now, pre)
	})
}

// takeOver makes tr's new owner and notary rec's.
func takeOver(rec *parcelRecord, tr *transferRecord) {
	rec.OwnerName = tr.NewOwnerName
	rec.Owner = OwnerView{IDDocHash: tr.NewOwner.IDDocHash, IDDocLast4: tr.NewOwner.IDDocLast4}
	rec.Notary = tr.Notary
}

// RejectTransfer rejects a PENDING_NOTARY transfer with an optional reason: the
// transfer's named notary or an admin.
func (s *Service) RejectTransfer(ctx context.Context, p veriland.Principal, id, reason string) (*Transfer, error) {
	if !validReason(reason) {
		return nil, veriland.Invalid("/reason", "reason must be at most %d printable characters", MaxReasonLen)
	}
	return s.decideTransfer(ctx, p, id, true, func(r repository, tr *transferRecord, now time.Time) error {
		return s.closeTransfer(ctx, r, tr, actorOf(p), TransferRejected, reason, now)
	})
}

// CancelTransfer withdraws a PENDING_NOTARY transfer: the parcel's account (its
// creator) or an admin.
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
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
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
		if err := fn(r, tr, now); err != nil {
			return err
		}
		out = s.transferView(p.Env, tr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) approveTx(ctx context.Context, r repository, tr *transferRecord, a actor, now time.Time, pre *presigned) error {
	if tr.Status != TransferPendingNotary {
		return invalidState("transfer", tr.ID, string(tr.Status), "approve")
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
	takeOver(rec, tr)
	vr, tok, err := s.mint(r, rec, v, tr.Notary, now, pre)
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
		CertificateHash: vr.Hash, TokenID: tok.TokenID, BurnedTokenID: old.TokenID, At: now})
}

func (s *Service) closeTransfer(ctx context.Context, r repository, tr *transferRecord, a actor, st TransferStatus, reason string, now time.Time) error {
	if tr.Status != TransferPendingNotary {
		verb := "reject"
		if st == TransferCancelled {
			verb = "cancel"
		}
		return invalidState("transfer", tr.ID, string(tr.Status), verb)
	}
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
	tr.Status, tr.Reason, tr.DecidedAt = st, reason, &now
	if err := r.putTransfer(tr, false); err != nil {
		return err
	}
	action := ActionTransferRejected
	if st == TransferCancelled {
		action = ActionTransferCancelled
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: action, ParcelID: rec.ID, TransferID: tr.ID,
		Actor: a.sub, Role: a.role, Account: rec.Account, Status: string(st), At: now})
}
