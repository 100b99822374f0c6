package parcel

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// DefaultListLimit and MaxListLimit bound List's page size.
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// sameSandboxAccount is false when p works in SANDBOX with another account than the
// record's: the sandbox is isolated per account, whatever the role.
func sameSandboxAccount(p veriland.Principal, account string) bool {
	return p.Env != veriland.Sandbox || p.Account == account
}

// canRead reports whether p may read rec: its account, an admin, the named notary or
// the notary of its open transfer.
func canRead(p veriland.Principal, rec *parcelRecord) bool {
	if !sameSandboxAccount(p, rec.Account) {
		return false
	}
	switch {
	case p.Role == veriland.RoleAdmin:
		return true
	case p.Role == veriland.RoleNotary && (p.Subject == rec.Notary || p.Subject == rec.TransferNotary):
		return true
	}
	return p.Account != "" && p.Account == rec.Account
}

// mayDecide checks that p may act as notary (or admin) named notary: forbidden for
// readers and other notaries, not_found for everyone else.
func mayDecide(p veriland.Principal, account, notary, kind, id string) error {
	if !sameSandboxAccount(p, account) {
		return notFound(kind, id)
	}
	switch {
	case p.Role == veriland.RoleAdmin:
		return nil
	case p.Role == veriland.RoleNotary && p.Subject == notary:
		return nil
	case p.Role == veriland.RoleNotary || (p.Account != "" && p.Account == account):
		return forbidden("only notary %s or an admin may decide on %s %s", notary, kind, id)
	}
	return notFound(kind, id)
}

func (s *Service) readable(tx storage.Tx, p veriland.Principal, id string) (*parcelRecord, error) {
	rec, err := repo(tx, p.Env).parcel(id)
	if err != nil {
		return nil, err
	}
	if !canRead(p, rec) {
		return nil, notFound("parcel", id)
	}
	return rec, nil
}

// view returns the caller's view of rec: the owner's name opened and the current
// token attached.
func (s *Service) view(r repository, rec *parcelRecord) (*Parcel, error) {
	out := rec.Parcel
	out.Owner.FullName, _ = s.open(r.env, rec.ID, rec.OwnerName)
	if rec.TokenID != "" {
		t, err := r.token(rec.TokenID)
		if err != nil {
			return nil, err
		}
		out.Token = t
	}
	return &out, nil
}

// Create stores a new certification request (POST /v1/parcels) for p's account in
// p.Env, status PENDING_NOTARY. Any token with an account may create. In SANDBOX the
// notaries NOT-SBX-1 and NOT-SBX-2 certify or reject it at once, in the same
// transaction. Errors: forbidden (no account), validation_failed (one per member),
// parcel_overlap (the boundary overlaps a CERTIFIED parcel; meta parcelId).
func (s *Service) Create(ctx context.Context, p veriland.Principal, req CreateRequest) (*Parcel, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if p.Account == "" {
		return nil, forbidden("creating a parcel needs a token with an account (acct)")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if req.CallbackURL != "" {
		if s.ValidateCallback == nil {
			return nil, veriland.Invalid("/callbackUrl", "this service delivers no webhooks: leave callbackUrl out")
		}
		if err := s.ValidateCallback(p.Env, req.CallbackURL); err != nil {
			return nil, err
		}
	}
	var boundary json.RawMessage
	var b *Boundary
	if len(req.Parcel.Boundary) > 0 {
		var err error
		if b, err = ParseBoundary(req.Parcel.Boundary); err != nil {
			return nil, err
		}
	}
	if b != nil {
		if err := CheckArea(b, *req.Parcel.AreaM2); err != nil {
			return nil, err
		}
		var err error
		if boundary, err = b.MarshalJSON(); err != nil {
			return nil, fmt.Errorf("parcel: encoding a boundary: %w", err)
		}
	}
	id, err := ids.New(s.rand(), IDPrefix)
	if err != nil {
		return nil, err
	}
	sealed, err := s.seal(p.Env, id, req.Owner.FullName)
	if err != nil {
		return nil, err
	}
	var did string // the wallet's identity, for a sandbox notary that certifies at once
	if p.Env == veriland.Sandbox && req.Notary == NotarySandboxSuccess {
		if did, err = s.walletDID(ctx, p.Env, req.Owner.WalletAddress); err != nil {
			return nil, err
		}
	}
	now := s.now()
	var out *Parcel
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		if b != nil {
			if err := s.checkOverlap(r, b, id); err != nil {
				return err
			}
		}
		rec := &parcelRecord{
			Parcel: Parcel{
				ID: id, Env: p.Env, Account: p.Account, CreatedBy: p.Subject,
				Status: StatusPendingNotary,
				Owner:  s.ownerOf(req.Owner),
				GPS:    [2]float64{req.Parcel.GPS[0], req.Parcel.GPS[1]},
				AreaM2: *req.Parcel.AreaM2, City: req.Parcel.City, Boundary: boundary,
				Notary: req.Notary, CreatedAt: now, UpdatedAt: now,
			},
			OwnerName:   sealed,
			CallbackURL: req.CallbackURL,
		}
		if err := r.putParcel(rec); err != nil {
			return err
		}
		if err := r.index(rec); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, Event{Env: p.Env, Action: ActionCreated, ParcelID: id, Actor: p.Subject, Role: p.Role,
			Account: rec.Account, Status: string(rec.Status), At: now}); err != nil {
			return err
		}
		if p.Env == veriland.Sandbox {
			sbx := actor{sub: req.Notary, role: veriland.RoleNotary}
			switch req.Notary {
			case NotarySandboxSuccess:
				if err := s.certifyTx(ctx, r, rec, sbx, did, now, nil); err != nil {
					return err
				}
			case NotarySandboxFailure:
				if err := s.rejectTx(ctx, r, rec, sbx, "sandbox scenario: "+NotarySandboxFailure+" rejects every request", now); err != nil {
					return err
				}
			}
		}
		out, err = s.view(r, rec)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkOverlap refuses b when it overlaps the boundary of a CERTIFIED parcel other
// than self: parcel_overlap naming it.
func (s *Service) checkOverlap(r repository, b *Boundary, self string) error {
	box := b.Bound()
	return r.boundaries(func(other string, entry []byte) error {
		if other == self {
			return nil
		}
		obox, raw, ok := splitBoundaryEntry(entry)
		if ok && !obox.Intersects(box) {
			return nil // boxes apart: no need to parse the other boundary
		}
		ob, err := ParseBoundary(raw)
		if err != nil {
			s.logger().Warn("stored parcel boundary does not parse", "env", r.env, "parcel", other, "err", err)
			return nil
		}
		if b.Overlaps(ob) {
			return OverlapError(other)
		}
		return nil
	})
}

// Get returns parcel id with its current token (GET /v1/parcels/{id}): to its account,
// an admin, its notary or its open transfer's notary; not_found for anyone else and
// for the other environment.
func (s *Service) Get(ctx context.Context, p veriland.Principal, id string) (*Parcel, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var out *Parcel
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		rec, err := s.readable(tx, p, id)
		if err != nil {
			return err
		}
		out, err = s.view(repo(tx, p.Env), rec)
		return err
	})
	return out, err
}

// List returns a page of parcels, newest first (GET /v1/parcels): a notary's own
// parcels (those naming it), a PRODUCTION admin's every parcel, anyone else's account's
// parcels. limit 0 means DefaultListLimit; next is "" on the last page.
func (s *Service) List(ctx context.Context, p veriland.Principal, cursor string, limit int) ([]*Parcel, string, error) {
	if err := s.check(p.Env); err != nil {
		return nil, "", err
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, "", veriland.Errorf(veriland.CodeValidationFailed, "limit must be 1..%d", MaxListLimit).WithMeta("parameter", "limit")
	}
	var prefix []byte
	switch {
	case p.Role == veriland.RoleNotary:
		prefix = []byte("n\x00" + p.Subject + "\x00")
	case p.Role == veriland.RoleAdmin && p.Env == veriland.Production:
		prefix = []byte("e\x00")
	case p.Account == "":
		return []*Parcel{}, "", nil
	default:
		prefix = []byte("a\x00" + p.Account + "\x00")
	}
	start, err := decodeCursor(cursor, prefix)
	if err != nil {
		return nil, "", err
	}
	out := []*Parcel{}
	var next []byte
	err = s.Store.View(ctx, func(tx storage.Tx) error {
		out = out[:0]
		r := repo(tx, p.Env)
		var idsPage []string
		var err error
		idsPage, next, err = r.list(prefix, start, limit)
		if err != nil {
			return err
		}
		for _, id := range idsPage {
			rec, err := r.parcel(id)
			if err != nil {
				return err
			}
			if !canRead(p, rec) {
				continue
			}
			v, err := s.view(r, rec)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return out, encodeCursor(next), nil
}

// Certify certifies a PENDING_NOTARY parcel (POST /v1/parcels/{id}/certify): the named
// notary or an admin; another notary or the parcel's account → forbidden. In one
// transaction it writes certificate version 1 (CURRENT, signed), mints its ACTIVE
// token and queues its anchoring. Errors: invalid_state (meta status),
// parcel_overlap.
func (s *Service) Certify(ctx context.Context, p veriland.Principal, id string) (*Parcel, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	now := s.now()
	// Sign before the write transaction (the costliest step), from a snapshot; the
	// transaction uses the signature only if the parcel is still what was signed. The
	// owner's wallet is resolved to its identity here too: that lookup reads its own
	// transaction.
	var snap *parcelRecord
	_ = s.Store.View(ctx, func(tx storage.Tx) error {
		rec, err := repo(tx, p.Env).parcel(id)
		if err == nil && rec.Status == StatusPendingNotary && mayDecide(p, rec.Account, rec.Notary, "parcel", id) == nil {
			snap = rec
		}
		return nil
	})
	var did string
	var pre *presigned
	if snap != nil {
		var err error
		if did, err = s.walletDID(ctx, p.Env, snap.Owner.WalletAddress); err != nil {
			return nil, err
		}
		bind(&snap.Owner, did)
		pre = s.presign(p.Env, snap, 1, snap.Notary, now)
	}
	return s.decide(ctx, p, id, func(r repository, rec *parcelRecord) error {
		// Four eyes: whoever asked for the certification never grants it.
		if rec.CreatedBy == p.Subject {
			return separationOfDuties("%s created parcel %s and so cannot certify it: the named notary (or another admin) must", p.Subject, id)
		}
		return s.certifyTx(ctx, r, rec, actorOf(p), did, now, pre)
	})
}

// presigned is a certificate version signed outside the write transaction, valid for
// the inputs its key names.
type presigned struct {
	key string
	sc  *SignedCertificate
}

// presignKey names every input of a certificate version's signature.
func presignKey(env veriland.Environment, rec *parcelRecord, v uint64, notary string, now time.Time, chainID uint64) string {
	return fmt.Sprintf("%s|%s|%d|%s|%d|%d|%s|%x|%x|%s|%v|%v|%s|%s|%s|%s", env, rec.ID, v, notary, now.Unix(), chainID,
		rec.OwnerName.KeyID, rec.OwnerName.Nonce, rec.OwnerName.Ciphertext, rec.Owner.IDDocHash, rec.GPS, rec.AreaM2, rec.City,
		rec.Owner.WalletAddress, rec.Owner.Binding, rec.Owner.DID)
}

// presign signs version v of rec for a later mint; nil when it cannot.
func (s *Service) presign(env veriland.Environment, rec *parcelRecord, v uint64, notary string, now time.Time) *presigned {
	sc, err := s.signVersion(env, rec, v, notary, now)
	if err != nil {
		return nil
	}
	return &presigned{key: presignKey(env, rec, v, notary, now, s.Issuer.ChainID), sc: sc}
}

// signVersion builds and signs certificate version v of rec's current owner.
func (s *Service) signVersion(env veriland.Environment, rec *parcelRecord, v uint64, notary string, now time.Time) (*SignedCertificate, error) {
	name, ok := s.open(env, rec.ID, rec.OwnerName)
	if !ok {
		return nil, veriland.Errorf(veriland.CodeInvalidState, "the owner's name of parcel %s was erased: no certificate can be made", rec.ID)
	}
	cert := &Certificate{
		ParcelID: rec.ID, Version: v,
		Owner:       certificateOwner(name, rec.Owner),
		Parcel:      CertificateParcel{GPS: rec.GPS, AreaM2: rec.AreaM2, City: rec.City},
		Notary:      notary,
		CertifiedAt: now,
		TokenID:     TokenID(rec.ID, v),
	}
	return signCertificate(cert, s.Issuer.Key, s.Issuer.ChainID, CertificateCurrent)
}

// Reject rejects a PENDING_NOTARY parcel with an optional reason (≤ MaxReasonLen
// characters): the named notary or an admin.
func (s *Service) Reject(ctx context.Context, p veriland.Principal, id, reason string) (*Parcel, error) {
	if !validReason(reason) {
		return nil, veriland.Invalid("/reason", "reason must be at most %d printable characters", MaxReasonLen)
	}
	return s.decide(ctx, p, id, func(r repository, rec *parcelRecord) error {
		return s.rejectTx(ctx, r, rec, actorOf(p), reason, s.now())
	})
}

func (s *Service) decide(ctx context.Context, p veriland.Principal, id string, fn func(r repository, rec *parcelRecord) error) (*Parcel, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var out *Parcel
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := r.parcel(id)
		if err != nil {
			return err
		}
		if err := mayDecide(p, rec.Account, rec.Notary, "parcel", id); err != nil {
			return err
		}
		if err := fn(r, rec); err != nil {
			return err
		}
		out, err = s.view(r, rec)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// certifyTx certifies rec as a: the owner's wallet, if any, becomes bound (did names
// its ACTIVE identity, "" for none), version 1 is written and its token minted.
func (s *Service) certifyTx(ctx context.Context, r repository, rec *parcelRecord, a actor, did string, now time.Time, pre *presigned) error {
	if rec.Status != StatusPendingNotary {
		return invalidState("parcel", rec.ID, string(rec.Status), "certify")
	}
	bind(&rec.Owner, did)
	var b *Boundary
	if len(rec.Boundary) > 0 {
		var err error
		if b, err = ParseBoundary(rec.Boundary); err != nil {
			return fmt.Errorf("parcel: stored boundary of %s: %w", rec.ID, err)
		}
		if err := s.checkOverlap(r, b, rec.ID); err != nil {
			return err
		}
		if err := r.tx.Put(r.bucket(bucketBoundaries), []byte(rec.ID), boundaryEntry(b, rec.Boundary)); err != nil {
			return err
		}
	}
	vr, tok, err := s.mint(r, rec, 1, rec.Notary, nil, now, pre)
	if err != nil {
		return err
	}
	rec.Status = StatusCertified
	rec.Version = 1
	rec.CertificateHash = vr.Hash
	rec.TokenID = tok.TokenID
	rec.CertifiedAt, rec.DecidedAt, rec.UpdatedAt = &now, &now, now
	if err := r.putParcel(rec); err != nil {
		return err
	}
	if err := r.index(rec); err != nil { // the bound wallet's key (GET /v1/me/parcels)
		return err
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: ActionCertified, ParcelID: rec.ID, Actor: a.sub, Role: a.role,
		Account: rec.Account, Status: string(rec.Status), Version: 1, CertificateHash: vr.Hash, TokenID: tok.TokenID,
		OwnerWallet: rec.Owner.WalletAddress, At: now})
}

func (s *Service) rejectTx(ctx context.Context, r repository, rec *parcelRecord, a actor, reason string, now time.Time) error {
	if rec.Status != StatusPendingNotary {
		return invalidState("parcel", rec.ID, string(rec.Status), "reject")
	}
	rec.Status = StatusRejected
	rec.Reason = reason
	rec.DecidedAt, rec.UpdatedAt = &now, now
	if err := r.putParcel(rec); err != nil {
		return err
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: ActionRejected, ParcelID: rec.ID, Actor: a.sub, Role: a.role,
		Account: rec.Account, Status: string(rec.Status), At: now})
}

// certificateOwner is the owner member of a certificate of owner, named name: the
// wallet, its binding and DID only once a notary bound the wallet.
func certificateOwner(name string, owner OwnerView) CertificateOwner {
	co := CertificateOwner{FullName: name, IDDocHash: owner.IDDocHash}
	if owner.bound() {
		co.WalletAddress, co.Binding, co.DID = owner.WalletAddress, owner.Binding, owner.DID
	}
	return co
}

// mint writes certificate version v of rec's current owner (sealed name, id_doc hash,
// bound wallet) certified by notary at now: the signed version record (CURRENT), its
// hash index entry and its ACTIVE token, with an anchoring job when the environment
// anchors. The token's owner is the owner's bound wallet when there is one. from is
// the transfer that makes the version (nil for certification): the version records it
// and how the previous owner consented.
func (s *Service) mint(r repository, rec *parcelRecord, v uint64, notary string, from *transferRecord, now time.Time, pre *presigned) (*versionRecord, *Token, error) {
	tokenID := TokenID(rec.ID, v)
	chainID := s.Issuer.ChainID
	var sc *SignedCertificate
	if pre != nil && pre.key == presignKey(r.env, rec, v, notary, now, chainID) {
		sc = pre.sc
	} else {
		var err error
		if sc, err = s.signVersion(r.env, rec, v, notary, now); err != nil {
			return nil, nil, err
		}
	}
	h := crypto.Keccak256Hash(sc.Certificate)
	vr := &versionRecord{
		CertificateVersion: CertificateVersion{
			ParcelID: rec.ID, Version: v, Hash: sc.Hash, Status: CertificateCurrent,
			TokenID: tokenID, Notary: notary, CertifiedAt: now,
		},
		OwnerName: rec.OwnerName, IDDocHash: rec.Owner.IDDocHash,
		GPS: rec.GPS, AreaM2: rec.AreaM2, City: rec.City, ChainID: chainID, Signature: sc.Signature,
	}
	if from != nil {
		vr.TransferID, vr.OwnerConsent = from.ID, from.OwnerConsent.Method
	}
	if rec.Owner.bound() {
		vr.OwnerWallet, vr.OwnerBinding, vr.OwnerDID = rec.Owner.WalletAddress, rec.Owner.Binding, rec.Owner.DID
	}
	tok := s.newToken(r.env, rec, v, tokenID, sc.Hash, now)
	vr.TokenStatus = tok.Status
	if tok.Status == TokenPending {
		if err := enqueueTitle(r, tokenID, now); err != nil {
			return nil, nil, err
		}
	}
	if err := r.putVersion(vr); err != nil {
		return nil, nil, err
	}
	if err := r.putHash(h, rec.ID, v); err != nil {
		return nil, nil, err
	}
	if err := r.putToken(tok); err != nil {
		return nil, nil, err
	}
	return vr, tok, nil
}

// close ends the CURRENT version vr with status st (SUPERSEDED or REVOKED) at now,
// burns its token and lists its hash in the status list.
func (s *Service) closeVersion(r repository, vr *versionRecord, st CertificateStatus, by string, now time.Time) error {
	vr.Status = st
	vr.ClosedAt, vr.ClosedBy = &now, by
	tok, err := r.token(vr.TokenID)
	if err != nil {
		return err
	}
	tok.BurnRequestedAt = &now
	if tok.Status == TokenDisabled || tok.Status == tokenLegacyActive {
		tok.settleBurned("", now) // no chain: the registry's word is the burn
	} else if err := enqueueTitle(r, tok.TokenID, now); err != nil {
		return err
	}
	vr.TokenStatus = tok.Status
	if err := r.putVersion(vr); err != nil {
		return err
	}
	if err := r.putToken(tok); err != nil {
		return err
	}
	h, err := ParseHash(vr.Hash)
	if err != nil {
		return fmt.Errorf("parcel: stored hash of %s v%d: %w", vr.ParcelID, vr.Version, err)
	}
	return r.putStatus(StatusEntry{Hash: vr.Hash, Status: st, At: now, ParcelID: vr.ParcelID, Version: vr.Version}, h)
}

// Revoke revokes a CERTIFIED parcel (POST /v1/parcels/{id}/revoke, admin only): its
// current version becomes REVOKED, its token BURNED, its hash enters the status list,
// and an open transfer is cancelled — one transaction.
func (s *Service) Revoke(ctx context.Context, p veriland.Principal, id, reason string) (*Parcel, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if !validReason(reason) {
		return nil, veriland.Invalid("/reason", "reason must be at most %d printable characters", MaxReasonLen)
	}
	now := s.now()
	var out *Parcel
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := r.parcel(id)
		if err != nil {
			return err
		}
		if p.Role != veriland.RoleAdmin || !sameSandboxAccount(p, rec.Account) {
			if canRead(p, rec) {
				return forbidden("only an admin may revoke a parcel")
			}
			return notFound("parcel", id)
		}
		if rec.Status != StatusCertified {
			return invalidState("parcel", id, string(rec.Status), "revoke")
		}
		vr, err := r.version(id, rec.Version)
		if err != nil {
			return err
		}
		if err := s.closeVersion(r, vr, CertificateRevoked, "revocation", now); err != nil {
			return err
		}
		if err := r.tx.Delete(r.bucket(bucketBoundaries), []byte(id)); err != nil {
			return err
		}
		if rec.OpenTransferID != "" {
			tr, err := r.transfer(rec.OpenTransferID)
			if err != nil {
				return err
			}
			tr.Status, tr.Reason, tr.DecidedAt = TransferCancelled, "the parcel was revoked", &now
			if err := r.putTransfer(tr, false); err != nil {
				return err
			}
			if err := s.emit(ctx, tx, Event{Env: p.Env, Action: ActionTransferCancelled, ParcelID: id, TransferID: tr.ID,
				Actor: p.Subject, Role: p.Role, Account: rec.Account, Status: string(tr.Status), At: now}); err != nil {
				return err
			}
			rec.OpenTransferID, rec.TransferNotary = "", ""
		}
		rec.Status, rec.Reason = StatusRevoked, reason
		rec.RevokedAt, rec.UpdatedAt = &now, now
		if err := r.putParcel(rec); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, Event{Env: p.Env, Action: ActionRevoked, ParcelID: id, Actor: p.Subject, Role: p.Role,
			Account: rec.Account, Status: string(rec.Status), Version: vr.Version, CertificateHash: vr.Hash,
			BurnedTokenID: vr.TokenID, At: now}); err != nil {
			return err
		}
		out, err = s.view(r, rec)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Certificate returns the parcel's latest certificate version, signed, with its
// status (GET /v1/parcels/{id}/certificate), to those who may read the parcel.
// A parcel never certified → invalid_state.
func (s *Service) Certificate(ctx context.Context, p veriland.Principal, id string) (*SignedCertificate, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var out *SignedCertificate
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		rec, err := s.readable(tx, p, id)
		if err != nil {
			return err
		}
		if rec.Version == 0 {
			return invalidState("parcel", id, string(rec.Status), "serve a certificate before certification")
		}
		vr, err := repo(tx, p.Env).version(id, rec.Version)
		if err != nil {
			return err
		}
		out, err = s.signedOf(p.Env, vr)
		return err
	})
	return out, err
}

// signedOf rebuilds the served form of a stored version: the canonical JSON (with the
// owner's name opened) must hash to the stored hash.
func (s *Service) signedOf(env veriland.Environment, vr *versionRecord) (*SignedCertificate, error) {
	name, ok := s.open(env, vr.ParcelID, vr.OwnerName)
	if !ok {
		return nil, veriland.Errorf(veriland.CodeInvalidState, "the owner's name of parcel %s was erased: the certificate cannot be served", vr.ParcelID)
	}
	cert := &Certificate{
		ParcelID: vr.ParcelID, Version: vr.Version,
		Owner: certificateOwner(name, OwnerView{IDDocHash: vr.IDDocHash, WalletAddress: vr.OwnerWallet,
			Binding: vr.OwnerBinding, DID: vr.OwnerDID}),
		Parcel: CertificateParcel{GPS: vr.GPS, AreaM2: vr.AreaM2, City: vr.City},
		Notary: vr.Notary, CertifiedAt: vr.CertifiedAt, TokenID: vr.TokenID,
	}
	raw, err := cert.Canonical()
	if err != nil {
		return nil, err
	}
	h := crypto.Keccak256Hash(raw)
	if HashString(h) != vr.Hash {
		return nil, fmt.Errorf("parcel: certificate %s v%d no longer hashes to its stored hash", vr.ParcelID, vr.Version)
	}
	return &SignedCertificate{
		Certificate: raw, Hash: vr.Hash, TypedData: messageOf(cert, h).TypedData(vr.ChainID),
		Signature: vr.Signature, Issuer: attestation.IssuerRef{Address: s.Issuer.Address(), ChainID: vr.ChainID},
		Status: vr.Status,
	}, nil
}

// History returns every certificate version of the parcel, oldest first, with its
// status, hash, token and what closed it (GET /v1/parcels/{id}/history).
func (s *Service) History(ctx context.Context, p veriland.Principal, id string) ([]*CertificateVersion, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var out []*CertificateVersion
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		if _, err := s.readable(tx, p, id); err != nil {
			return err
		}
		vs, err := repo(tx, p.Env).versions(id)
		out = publicVersions(vs)
		return err
	})
	return out, err
}

func publicVersions(vs []*versionRecord) []*CertificateVersion {
	out := make([]*CertificateVersion, len(vs))
	for i, v := range vs {
		cv := v.CertificateVersion
		out[i] = &cv
	}
	return out
}

// CertificateVersion returns version v of the parcel's certificate, signed, with its
// status today (CURRENT, SUPERSEDED or REVOKED), to those who may read the parcel.
// An unknown version is not_found.
func (s *Service) CertificateVersion(ctx context.Context, p veriland.Principal, id string, v uint64) (*SignedCertificate, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var out *SignedCertificate
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		if _, err := s.readable(tx, p, id); err != nil {
			return err
		}
		vr, err := repo(tx, p.Env).version(id, v)
		if err != nil {
			return err
		}
		out, err = s.signedOf(p.Env, vr)
		return err
	})
	return out, err
}
