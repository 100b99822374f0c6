package parcel

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage"
)

// transferMessage is the TransferConsent of tr with decision.
func transferMessage(tr *transferRecord, decision string) *TransferConsent {
	m := &TransferConsent{
		TransferID: tr.ID, ParcelID: tr.ParcelID, FromVersion: tr.FromVersion,
		Notary: tr.Notary, Decision: decision,
	}
	if h, err := hexutil.Decode(tr.NewOwner.IDDocHash); err == nil && len(h) == 32 {
		copy(m.NewOwnerIDDocHash[:], h)
	}
	if tr.NewOwner.WalletAddress != "" {
		m.NewOwnerWallet = common.HexToAddress(tr.NewOwner.WalletAddress)
	}
	copy(m.Nonce[:], tr.Nonce)
	if oc := tr.OwnerConsent; oc != nil && oc.Deadline != nil {
		m.Deadline = uint64(max(oc.Deadline.Unix(), 0))
	}
	return m
}

// unsignedConsent is tr's TransferConsent as served: every member but "decision".
func (s *Service) unsignedConsent(tr *transferRecord) attestation.TypedData {
	td := transferMessage(tr, "").TypedData(s.Issuer.ChainID)
	delete(td.Message, "decision")
	return td
}

// TransferConsentOf returns the TransferConsent message that the owner of transfer t
// signs with decision (as served in t.OwnerConsent.TypedData, plus the decision);
// nil when t has no owner signature to give. Clients and tests sign its Digest.
func TransferConsentOf(t *Transfer, decision string) *TransferConsent {
	if t == nil || t.OwnerConsent == nil || t.OwnerConsent.TypedData == nil {
		return nil
	}
	// The view lacks only the nonce, which the served typed data carries.
	tr := &transferRecord{Transfer: *t}
	if n, ok := t.OwnerConsent.TypedData.Message["nonce"].(string); ok {
		if b, err := hexutil.Decode(n); err == nil && len(b) == 32 {
			tr.Nonce = b
		}
	}
	return transferMessage(tr, decision)
}

// due reports whether tr waits for its owner past the deadline at now.
func (tr *transferRecord) due(now time.Time) bool {
	return tr.Status == TransferPendingOwner && tr.OwnerConsent != nil && tr.OwnerConsent.Deadline != nil &&
		!now.Before(*tr.OwnerConsent.Deadline)
}

// expireTx moves the due transfer tr to EXPIRED and frees its parcel. Its DecidedAt is
// its deadline, when it logically ended, whenever the sweeper or a reader noticed.
func (s *Service) expireTx(ctx context.Context, r repository, tr *transferRecord, now time.Time) error {
	return s.endTransfer(ctx, r, tr, actor{sub: ActorSystem}, TransferExpired, ActionTransferExpired,
		"the owner did not answer before the deadline", *tr.OwnerConsent.Deadline, now)
}

// readTransfer reads transfer id of env, expiring it first (persisted, with its event)
// when its owner's deadline has passed, so that no reader sees a PENDING_OWNER
// transfer that can no longer be decided. visible may hide the transfer from the
// caller (its error is returned).
func (s *Service) readTransfer(ctx context.Context, env veriland.Environment, id string, visible func(*transferRecord) error) (*transferRecord, error) {
	var tr *transferRecord
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		if tr, err = repo(tx, env).transfer(id); err != nil {
			return err
		}
		if visible != nil {
			return visible(tr)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	now := s.now()
	if !tr.due(now) {
		return tr, nil
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		var err error
		if tr, err = r.transfer(id); err != nil {
			return err
		}
		if tr.due(now) {
			return s.expireTx(ctx, r, tr, now)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tr, nil
}

// DefaultSweepLimit is the number of transfers ExpireOwnerDeadlines expires per call
// when its limit is not positive.
const DefaultSweepLimit = 100

// ExpireOwnerDeadlines is the background sweeper of SPEC S13: it expires up to limit
// PENDING_OWNER transfers of both environments whose owner's deadline is at or before
// now (limit ≤ 0: DefaultSweepLimit), each in its own transaction with its
// transfer.expired event, so that the webhook goes out even when nobody reads them.
// It reads the deadline index only. Replicas may run it at once: each expiry
// re-reads its transfer in the transaction, so a transfer expires exactly once. It
// returns how many it expired.
func (s *Service) ExpireOwnerDeadlines(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := s.check(veriland.Sandbox); err != nil {
		return 0, err
	}
	if limit <= 0 {
		limit = DefaultSweepLimit
	}
	now = now.UTC()
	n := 0
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		var due, keys []string
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			var err error
			due, keys, err = repo(tx, env).dueTransfers(now, limit-n)
			return err
		})
		if err != nil {
			return n, err
		}
		for i, id := range due {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			expired := false
			err := s.Store.Update(ctx, func(tx storage.Tx) error {
				expired = false
				r := repo(tx, env)
				tr, err := r.transfer(id)
				switch {
				case veriland.IsCode(err, veriland.CodeNotFound):
					return tx.Delete(r.bucket(bucketDeadlines), []byte(keys[i])) // an entry without its transfer
				case err != nil:
					return err
				case !tr.due(now):
					return nil // decided meanwhile
				}
				expired = true
				return s.expireTx(ctx, r, tr, now)
			})
			if err != nil {
				s.logger().WarnContext(ctx, "expiring a transfer failed", "env", env, "transferId", id, "err", err)
				return n, err
			}
			if expired {
				n++
			}
		}
		if n >= limit {
			break
		}
	}
	return n, nil
}

// OwnerConsentView is what the current owner is shown about a transfer (GET
// /v1/transfers/{id}/owner-consent, public): the parcel, the notary, who asked, the
// new owner's id_doc last 4 and wallet — never a name —, the deadline and the
// TransferConsent to sign (every member but "decision"). Method NOTARY_WITNESSED
// has no typed data: that owner has no wallet.
type OwnerConsentView struct {
	TransferID      string                       `json:"transferId"`
	Status          TransferStatus               `json:"status"`
	Environment     veriland.Environment         `json:"environment"`
	Method          string                       `json:"method"`
	Parcel          OwnerConsentParcel           `json:"parcel"`
	Notary          string                       `json:"notary"`
	Requester       Requester                    `json:"requester"`
	NewOwner        NewOwnerRef                  `json:"newOwner"`
	OwnerWallet     string                       `json:"ownerWallet,omitempty"`
	Deadline        *time.Time                   `json:"deadline"`
	RequireLiveness *consent.LivenessRequirement `json:"requireLiveness"`
	OwnerDecision   *OwnerDecisionRef            `json:"ownerDecision"`
	TypedData       *attestation.TypedData       `json:"typedData"`
	CreatedAt       time.Time                    `json:"createdAt"`
}

// OwnerConsentParcel is the parcel of an OwnerConsentView.
type OwnerConsentParcel struct {
	ID      string  `json:"id"`
	City    string  `json:"city"`
	Version uint64  `json:"version"`
	AreaM2  float64 `json:"area_m2"`
}

// Requester names who asked for a transfer: its sub and display name (its API key's
// name, else the sub).
type Requester struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NewOwnerRef is the new owner as the current owner is shown it: no name.
type NewOwnerRef struct {
	IDDocLast4    string `json:"idDocLast4"`
	WalletAddress string `json:"walletAddress,omitempty"`
}

// OwnerDecisionRef is the owner's recorded answer.
type OwnerDecisionRef struct {
	Decision  string     `json:"decision"`
	Signer    string     `json:"signer"`
	DecidedAt *time.Time `json:"decidedAt"`
}

// OwnerConsentContext returns the owner's view of transfer id in env (public),
// expiring it first when its deadline has passed. Errors: not_found.
func (s *Service) OwnerConsentContext(ctx context.Context, env veriland.Environment, id string) (*OwnerConsentView, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	tr, err := s.readTransfer(ctx, env, id, nil)
	if err != nil {
		return nil, err
	}
	var rec *parcelRecord
	if err := s.Store.View(ctx, func(tx storage.Tx) error {
		rec, err = repo(tx, env).parcel(tr.ParcelID)
		return err
	}); err != nil {
		return nil, err
	}
	v := &OwnerConsentView{
		TransferID: tr.ID, Status: tr.Status, Environment: env, Method: ConsentNotaryWitnessed,
		Parcel:          OwnerConsentParcel{ID: rec.ID, City: rec.City, Version: tr.FromVersion, AreaM2: rec.AreaM2},
		Notary:          tr.Notary,
		Requester:       Requester{ID: tr.CreatedBy, Name: tr.RequesterName},
		NewOwner:        NewOwnerRef{IDDocLast4: tr.NewOwner.IDDocLast4, WalletAddress: tr.NewOwner.WalletAddress},
		RequireLiveness: tr.RequireLiveness,
		CreatedAt:       tr.CreatedAt,
	}
	if v.Requester.Name == "" {
		v.Requester.Name = tr.CreatedBy
	}
	if oc := tr.OwnerConsent; oc != nil {
		v.Method, v.OwnerWallet, v.Deadline = oc.Method, oc.OwnerWallet, oc.Deadline
		if oc.Method == ConsentOwnerSignature {
			td := s.unsignedConsent(tr)
			v.TypedData = &td
		}
		if oc.Decision != "" {
			v.OwnerDecision = &OwnerDecisionRef{Decision: oc.Decision, Signer: oc.Signer, DecidedAt: oc.DecidedAt}
		}
	}
	return v, nil
}

// TransferEnv returns the environment that holds transfer id: the public owner routes
// take no token, and ids are unguessable and unique across environments. Errors:
// not_found.
func (s *Service) TransferEnv(ctx context.Context, id string) (veriland.Environment, error) {
	for _, env := range []veriland.Environment{veriland.Production, veriland.Sandbox} {
		if err := s.check(env); err != nil {
			return "", err
		}
		var found bool
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			_, err := repo(tx, env).transfer(id)
			found = err == nil
			if veriland.IsCode(err, veriland.CodeNotFound) {
				return nil
			}
			return err
		})
		if err != nil {
			return "", err
		}
		if found {
			return env, nil
		}
	}
	return "", notFound("transfer", id)
}

// OwnerDecision is the body of POST /v1/transfers/{id}/owner-consent.
type OwnerDecision struct {
	// Decision is APPROVED or REJECTED.
	Decision string `json:"decision"`
	// OwnerSignature is the 65-byte r ‖ s ‖ v signature (hex, 0x-prefixed) of the
	// TransferConsent with this decision; v 27/28 or 0/1, low s.
	OwnerSignature string `json:"ownerSignature"`
	// OwnerAddress is the signing wallet: it must be the parcel owner's bound wallet.
	OwnerAddress string `json:"ownerAddress"`
}

// DecodeOwnerDecision decodes and checks the body of an owner's decision like the
// server does: one JSON object, unknown members refused, decision APPROVED or
// REJECTED, ownerAddress an address, ownerSignature 0x-hex.
func DecodeOwnerDecision(body []byte) (OwnerDecision, error) {
	var d OwnerDecision
	if err := decodeStrict(body, &d); err != nil {
		return OwnerDecision{}, err
	}
	return d, d.Validate()
}

// Validate checks the members of d, one validation_failed error per member.
func (d *OwnerDecision) Validate() error {
	var errs veriland.Errors
	if d.Decision != DecisionApproved && d.Decision != DecisionRejected {
		errs = append(errs, veriland.Invalid("/decision", "decision must be APPROVED or REJECTED"))
	}
	if _, err := identity.ParseWalletAddress(d.OwnerAddress); err != nil {
		errs = append(errs, veriland.Invalid("/ownerAddress", "ownerAddress must be 0x followed by 40 hex digits (a mixed-case address with a valid EIP-55 checksum)"))
	}
	if b, err := hexutil.Decode(d.OwnerSignature); err != nil || len(b) > 2*ethsig.SignatureLength {
		errs = append(errs, veriland.Invalid("/ownerSignature", "ownerSignature must be 0x followed by hex digits: a signature is 65 bytes, 130 hex digits"))
	}
	return errs.Err()
}

// DecideOwner records the current owner's signed answer to transfer id of env (POST
// /v1/transfers/{id}/owner-consent, public: the signature is the authentication).
// The signature must recover, over the TransferConsent of this transfer with d's
// decision in the transfer domain of the configured chainId, to d.OwnerAddress,
// which must be the wallet bound to the parcel's owner: else invalid_signature
// (422), as for a high-s signature. Only a PENDING_OWNER transfer before its deadline
// can be decided (else invalid_state, meta status; a transfer past its deadline is
// expired first). APPROVED moves it to PENDING_NOTARY — when it asked
// requireLiveness, only if the owner's wallet belongs to an identity with a qualifying
// liveness attestation (else liveness_required) —; REJECTED ends it REJECTED. The
// change, its audit entry and its webhook commit in one transaction; of concurrent
// valid answers exactly one changes the transfer. In SANDBOX the notaries NOT-SBX-1
// and NOT-SBX-2 then decide at once.
func (s *Service) DecideOwner(ctx context.Context, env veriland.Environment, id string, d OwnerDecision) (*Transfer, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	owner, _ := identity.ParseWalletAddress(d.OwnerAddress)
	sig, _ := hexutil.Decode(d.OwnerSignature)
	now := s.now()

	// Verify outside the write transaction (the costly part), from a snapshot whose
	// signed members cannot change: only the status can, and the transaction checks it.
	var snap *transferRecord
	if err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		snap, err = repo(tx, env).transfer(id)
		return err
	}); err != nil {
		return nil, err
	}
	var ownerDID, newOwnerDID string
	if snap.Status == TransferPendingOwner && !snap.due(now) {
		if err := verifyOwnerSignature(snap, d.Decision, owner, sig, s.Issuer.ChainID); err != nil {
			return nil, err
		}
		var err error
		if d.Decision == DecisionApproved && snap.RequireLiveness != nil {
			if ownerDID, err = s.walletDID(ctx, env, owner); err != nil {
				return nil, err
			}
		}
		if d.Decision == DecisionApproved && env == veriland.Sandbox && snap.Notary == NotarySandboxSuccess {
			if newOwnerDID, err = s.walletDID(ctx, env, snap.NewOwner.WalletAddress); err != nil {
				return nil, err
			}
		}
	}

	var out *Transfer
	var refused error
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		refused = nil
		r := repo(tx, env)
		tr, err := r.transfer(id)
		if err != nil {
			return err
		}
		if tr.due(now) {
			if err := s.expireTx(ctx, r, tr, now); err != nil {
				return err
			}
			refused = transferState(tr, "decide")
			return nil
		}
		if tr.Status != TransferPendingOwner {
			refused = transferState(tr, "decide")
			return nil
		}
		if d.Decision == DecisionApproved && tr.RequireLiveness != nil {
			if err := s.ownerLiveness(ctx, tx, env, ownerDID, tr.RequireLiveness); err != nil {
				return err
			}
		}
		oc := *tr.OwnerConsent
		oc.Decision, oc.Signer, oc.Signature, oc.DecidedAt = d.Decision, owner, sig, &now
		tr.OwnerConsent = &oc
		a := actor{sub: owner, role: veriland.RoleHolder}
		if d.Decision == DecisionRejected {
			tr.RejectedBy = RejectedByOwner
			if err := s.endTransfer(ctx, r, tr, a, TransferRejected, ActionTransferOwnerRejected, "refused by the owner", now, now); err != nil {
				return err
			}
		} else {
			tr.Status = TransferPendingNotary
			if err := r.putTransfer(tr, false); err != nil {
				return err
			}
			if err := s.emit(ctx, tx, Event{Env: env, Action: ActionTransferOwnerApproved, ParcelID: tr.ParcelID, TransferID: tr.ID,
				Actor: a.sub, Role: a.role, Account: tr.Account, Status: string(tr.Status),
				OwnerConsent: oc.Method, OwnerWallet: owner, At: now}); err != nil {
				return err
			}
			if err := s.sandboxNotary(ctx, r, tr, newOwnerDID, now); err != nil {
				return err
			}
		}
		out = s.transferView(env, tr)
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

// verifyOwnerSignature checks that sig signs tr's TransferConsent with decision and
// recovers to owner, the wallet bound to the parcel's owner: invalid_signature
// otherwise.
func verifyOwnerSignature(tr *transferRecord, decision, owner string, sig []byte, chainID uint64) error {
	bound := tr.OwnerConsent.OwnerWallet
	if !strings.EqualFold(owner, bound) {
		e := veriland.Errorf(veriland.CodeInvalidSignature, "ownerAddress %s is not the wallet bound to the parcel's owner", owner)
		e.Pointer = "/ownerAddress"
		return e
	}
	signer, err := ethsig.Recover(transferMessage(tr, decision).Digest(chainID), sig)
	if err != nil {
		e := veriland.Errorf(veriland.CodeInvalidSignature, "the owner's signature does not verify: %s", safeMessage(err)).WithCause(err)
		e.Pointer = "/ownerSignature"
		return e
	}
	if got := strings.ToLower(signer.Hex()); got != strings.ToLower(bound) {
		e := veriland.Errorf(veriland.CodeInvalidSignature,
			"the signature recovers to %s, not the owner's wallet %s: signed by another wallet, or over another message", got, bound)
		e.Pointer = "/ownerSignature"
		return e
	}
	return nil
}

// safeMessage returns the client-safe message of err.
func safeMessage(err error) string {
	if ve := (*veriland.Error)(nil); errors.As(err, &ve) {
		return ve.Message
	}
	return "malformed signature"
}

// ownerLiveness applies a transfer's requireLiveness to the owner's identity did.
func (s *Service) ownerLiveness(ctx context.Context, tx storage.Tx, env veriland.Environment, did string, req *consent.LivenessRequirement) error {
	if did == "" {
		return consent.LivenessRequired(req.MinLevel, req.MaxAge()).
			WithMeta("reason", "the owner's wallet is not bound to an ACTIVE identity that could hold a liveness attestation")
	}
	if s.Liveness == nil {
		return veriland.Errorf(veriland.CodeUnavailable, "this service cannot check liveness")
	}
	return s.Liveness.Check(ctx, tx, env, did, req.MinLevel, req.MaxAge())
}
