package consent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage"
)

// JSON pointers of the members of a Decision, as errors name them.
const (
	PointerHolderAddress  = "/holderAddress"   // Decision.HolderAddress
	PointerDecision       = "/decision"        // Decision.Decision
	PointerDisclosedScope = "/disclosedScope"  // Decision.DisclosedScope (items: /disclosedScope/<i>)
	PointerSignature      = "/holderSignature" // Decision.Signature
)

// Decision is the holder's signed answer to a request (the body of
// POST /consent/{requestId}).
type Decision struct {
	// HolderAddress is the wallet that signed: 0x + 40 hex (mixed case must be a valid
	// EIP-55 checksum). It must be the wallet bound to the request's subject.
	HolderAddress string `json:"holderAddress"`
	// Decision is APPROVED or REJECTED.
	Decision Status `json:"decision"`
	// DisclosedScope is what the holder discloses, in the order its hash was signed.
	DisclosedScope []string `json:"disclosedScope"`
	// Signature is the 0x-hex 65-byte r ‖ s ‖ v signature (v 27/28 or 0/1, low s) of the
	// Consent typed data over the service's consent domain.
	Signature string `json:"holderSignature"`
}

// DecisionResult is the outcome of Decide: for APPROVED
// {requestId, status: "APPROVED", decision, attestation}, for REJECTED
// {requestId, status: "REJECTED", decision: "REJECTED"}.
type DecisionResult struct {
	RequestID   string                   `json:"requestId"`
	Status      Status                   `json:"status"`
	Decision    Status                   `json:"decision"`
	Attestation *attestation.Attestation `json:"attestation,omitempty"`
	// Request is the request after the decision, for the caller's own use.
	Request *Request `json:"-"`
}

// Claims are the claims of a CONSENT attestation. They hold identifiers and the
// consent's own members only — never personal data — and with the attestation's
// subject and verifier they rebuild the signed Consent message, whose digest is the
// attestation's evidenceHash.
type Claims struct {
	RequestID      string   `json:"requestId"`
	Decision       string   `json:"decision"`
	Mode           Mode     `json:"mode"`
	DisclosedScope []string `json:"disclosedScope"`
	// DisclosedScopeHash is the hash the holder signed: of the disclosedScope as
	// posted, which in FULL mode may be empty ("everything asked").
	DisclosedScopeHash common.Hash `json:"disclosedScopeHash"`
	Nonce              common.Hash `json:"nonce"`
	Deadline           uint64      `json:"deadline"`
	ChainID            uint64      `json:"chainId"`
	RequireLiveness    bool        `json:"requireLiveness"`
	MinLevel           string      `json:"minLevel,omitempty"`
}

// VerifiedDecision is a decision whose form, scope and signature VerifyDecision has
// checked against its request.
type VerifiedDecision struct {
	Holder common.Address
	// Message is the signed Consent message; its Digest(chainID) is the evidence.
	Message *ConsentTypedData
	Digest  [32]byte
	// Disclosed is what the decision discloses: the whole scope for a FULL approval,
	// the holder's pick for a SELECTIVE one, nothing for a rejection.
	Disclosed []string
}

// checkDecisionForm checks the members of d that need no request: address, decision,
// scope item syntax, signature encoding. It returns the parsed signature.
func checkDecisionForm(d Decision) ([]byte, error) {
	var errs veriland.Errors
	if _, err := identity.ParseWalletAddress(d.HolderAddress); err != nil {
		errs = append(errs, veriland.Invalid(PointerHolderAddress, "holderAddress %s", errMessage(err)))
	}
	if d.Decision != StatusApproved && d.Decision != StatusRejected {
		errs = append(errs, veriland.Invalid(PointerDecision, "decision must be APPROVED or REJECTED"))
	}
	if len(d.DisclosedScope) > MaxScopeItems {
		errs = append(errs, veriland.Invalid(PointerDisclosedScope, "disclosedScope has more than %d items", MaxScopeItems))
	} else {
		for i, it := range d.DisclosedScope {
			p := PointerDisclosedScope + "/" + strconv.Itoa(i)
			switch {
			case !validScopeItem(it):
				errs = append(errs, veriland.Invalid(p, "disclosedScope items are scope items"))
			case slices.Index(d.DisclosedScope, it) < i:
				errs = append(errs, veriland.Invalid(p, "disclosedScope item %q is repeated", it))
			}
		}
	}
	var sig []byte
	if !strings.HasPrefix(d.Signature, "0x") || len(d.Signature) > 2+2*1024 {
		errs = append(errs, veriland.Invalid(PointerSignature, "holderSignature must be 0x-prefixed hex"))
	} else if b, err := hexutil.Decode(d.Signature); err != nil {
		errs = append(errs, veriland.Invalid(PointerSignature, "holderSignature must be 0x-prefixed hex"))
	} else {
		sig = b
	}
	return sig, errs.Err()
}

func errMessage(err error) string {
	var e *veriland.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "is invalid"
}

// VerifyDecision checks holder decision d on request r with no storage and no state:
// the form of every member (validation_failed), the disclosed scope against the
// request (validation_failed: disclosedScope ⊆ scope, non-empty for a SELECTIVE
// approval, empty or the whole scope for a FULL approval), and the signature
// (invalid_signature: 65 bytes, v 27/28 or 0/1, low s, recovering to holderAddress over
// the Consent message of r in the consent domain of chainID). For a did:pkh subject it
// also checks that holderAddress is the address inside it, on chainID; binding an
// identity DID to its wallet needs a lookup and is Decide's job.
//
// It neither looks at r's status nor at the time.
func VerifyDecision(r *Request, d Decision, chainID uint64) (*VerifiedDecision, error) {
	sig, err := checkDecisionForm(d)
	if err != nil {
		return nil, err
	}
	disclosed, err := disclosure(r, d)
	if err != nil {
		return nil, err
	}
	msg := ConsentMessage(r, d.Decision, d.DisclosedScope)
	digest := msg.Digest(chainID)
	got, err := ethsig.Recover(digest, sig)
	if err != nil {
		var e *veriland.Error
		if errors.As(err, &e) {
			e.Pointer = PointerSignature
		}
		return nil, err
	}
	holder := common.HexToAddress(d.HolderAddress)
	if got != holder {
		return nil, &veriland.Error{
			Code:    veriland.CodeInvalidSignature,
			Message: fmt.Sprintf("recovered %s but holderAddress is %s", got.Hex(), holder.Hex()),
			Pointer: PointerSignature,
			Meta:    map[string]any{"recovered": got.Hex()},
		}
	}
	if chain, addr, ok := identity.ParsePKHDID(r.SubjectRef); ok {
		if chain != chainID {
			return nil, veriland.Errorf(veriland.CodeInvalidSignature, "the subject's account is on chain %d, not %d", chain, chainID)
		}
		if common.HexToAddress(addr) != holder {
			return nil, notBound(holder)
		}
	}
	return &VerifiedDecision{Holder: holder, Message: msg, Digest: digest, Disclosed: disclosed}, nil
}

// disclosure checks d.DisclosedScope against r and returns what the decision
// discloses.
func disclosure(r *Request, d Decision) ([]string, error) {
	var errs veriland.Errors
	for i, it := range d.DisclosedScope {
		if !slices.Contains(r.Scope, it) {
			errs = append(errs, veriland.Invalid(PointerDisclosedScope+"/"+strconv.Itoa(i), "%q is not in the request's scope", it))
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if d.Decision == StatusRejected {
		return nil, nil
	}
	switch r.Mode {
	case ModeSelective:
		if len(d.DisclosedScope) == 0 {
			return nil, veriland.Invalid(PointerDisclosedScope, "a SELECTIVE approval must disclose at least one scope item")
		}
		return slices.Clone(d.DisclosedScope), nil
	default:
		if len(d.DisclosedScope) != 0 && len(d.DisclosedScope) != len(r.Scope) {
			return nil, veriland.Invalid(PointerDisclosedScope, "a FULL approval discloses the whole scope: send it all, or nothing")
		}
		return slices.Clone(r.Scope), nil
	}
}

func notBound(holder common.Address) *veriland.Error {
	return &veriland.Error{
		Code:    veriland.CodeInvalidSignature,
		Message: fmt.Sprintf("holderAddress %s is not the wallet bound to the subject", holder.Hex()),
		Pointer: PointerHolderAddress,
	}
}

// Decide applies the holder's signed decision to request id (POST /consent/{id},
// public: the signature is the authorisation). Every rule of SPEC S5 holds:
//
//   - the request must be PENDING (invalid_state, current status in Meta["status"]); one
//     past its deadline is expired — persisted, with its EventExpired — and reported
//     as invalid_state with status EXPIRED;
//   - VerifyDecision's checks (validation_failed, invalid_signature);
//   - holderAddress must be the wallet bound to the subject: the identity's wallet
//     (Service.Wallets) or the address inside a did:pkh (invalid_signature at
//     /holderAddress), for rejections too, so that nobody else can refuse on the
//     holder's behalf;
//   - with requireLiveness, an approval needs Service.Liveness to accept the subject
//     (liveness_required).
//
// APPROVED issues a CONSENT attestation (subject = subjectRef, verifier = the
// request's verifier, scope = the disclosed scope, claims = Claims, evidenceHash = the
// signed consent digest). The transition, the attestation and OnEvent's
// EventApproved or EventRejected commit in one transaction; of concurrent decisions
// on one request exactly one succeeds, the others get invalid_state.
//
// Errors: validation_failed, not_found, invalid_state, invalid_signature,
// liveness_required, and storage or hook errors.
func (s *Service) Decide(ctx context.Context, env veriland.Environment, id string, d Decision) (*DecisionResult, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if _, err := checkDecisionForm(d); err != nil {
		return nil, err
	}
	r, err := s.Get(ctx, env, id) // expires it when due
	if err != nil {
		return nil, err
	}
	if r.Status != StatusPending {
		return nil, invalidState(r, "decide")
	}

	// The expensive, stateless part runs outside the write transaction.
	v, err := VerifyDecision(r, d, s.ChainID)
	if err != nil {
		return nil, err
	}
	if err := s.checkWallet(ctx, env, r.SubjectRef, v.Holder); err != nil {
		return nil, err
	}

	// Signing the attestation is the costliest step of an approval, and depends on
	// nothing stored: an issuer that can sign ahead does so before the write lock.
	var presigned *attestation.Attestation
	if pre, ok := s.Attestations.(PreSigner); ok && d.Decision == StatusApproved {
		if presigned, err = pre.Sign(s.draft(r, d, v)); err != nil {
			return nil, err
		}
	}

	now := s.now()
	var out *DecisionResult
	var refused error // returned after the transaction commits (an expiry is kept)
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		out = nil
		cur, rf, err := s.pendingTx(ctx, tx, env, id, now, "decide", nil)
		if refused = rf; err != nil || refused != nil {
			return err
		}
		out, err = s.apply(ctx, tx, cur, d, v, now, presigned)
		return err
	})
	if err != nil {
		return nil, err
	}
	if refused != nil {
		return nil, refused
	}
	s.logger().InfoContext(ctx, "verification request decided", "env", env, "requestId", id, "decision", d.Decision)
	return out, nil
}

// draft is the CONSENT attestation an approval issues.
func (s *Service) draft(r *Request, d Decision, v *VerifiedDecision) attestation.Draft {
	claims := Claims{
		RequestID:          r.ID,
		Decision:           string(d.Decision),
		Mode:               r.Mode,
		DisclosedScope:     v.Disclosed,
		DisclosedScopeHash: v.Message.DisclosedScopeHash,
		Nonce:              r.Nonce,
		Deadline:           v.Message.Deadline,
		ChainID:            s.ChainID,
		RequireLiveness:    r.RequireLiveness,
	}
	if r.RequireLiveness {
		claims.MinLevel = r.MinLevel
	}
	return attestation.Draft{
		Kind:         attestation.KindConsent,
		Subject:      r.SubjectRef,
		Verifier:     r.Verifier,
		Scope:        v.Disclosed,
		Claims:       claims,
		EvidenceHash: v.Digest,
		ValidFor:     s.consentValidity(),
	}
}

// checkWallet checks that holder is the wallet bound to a did:veriland subject
// (VerifyDecision has checked did:pkh subjects).
func (s *Service) checkWallet(ctx context.Context, env veriland.Environment, subject string, holder common.Address) error {
	if !identity.ValidDID(subject) {
		return nil
	}
	wallet, err := s.Wallets.WalletOf(ctx, env, subject)
	switch {
	case veriland.IsCode(err, veriland.CodeNotFound):
		return notBound(holder)
	case err != nil:
		var e *veriland.Error
		if errors.As(err, &e) {
			return err
		}
		return fmt.Errorf("consent: resolving the subject's wallet: %w", err)
	case !common.IsHexAddress(wallet) || common.HexToAddress(wallet) != holder:
		return notBound(holder)
	}
	return nil
}

// apply records decision d on the PENDING request r inside tx: liveness gate,
// attestation, transition, event.
func (s *Service) apply(ctx context.Context, tx storage.Tx, r *Request, d Decision, v *VerifiedDecision, now time.Time, presigned *attestation.Attestation) (*DecisionResult, error) {
	res := &DecisionResult{RequestID: r.ID, Status: d.Decision, Decision: d.Decision}
	ev := Event{Env: r.Env, Request: r, Actor: r.SubjectRef, At: now}
	r.Status = d.Decision
	r.DecidedAt = &now
	if d.Decision == StatusApproved {
		if r.RequireLiveness {
			if s.Liveness == nil {
				return nil, LivenessRequired(r.MinLevel, time.Duration(r.MaxAgeDays)*24*time.Hour).
					WithCause(errors.New("consent: Service.Liveness is nil"))
			}
			if err := s.Liveness.Check(ctx, tx, r.Env, r.SubjectRef, r.MinLevel, time.Duration(r.MaxAgeDays)*24*time.Hour); err != nil {
				return nil, err
			}
		}
		att := presigned
		if att != nil {
			if err := s.Attestations.(PreSigner).Put(ctx, tx, r.Env, att); err != nil {
				return nil, err
			}
		} else {
			var err error
			if att, err = s.Attestations.Issue(ctx, tx, r.Env, s.draft(r, d, v)); err != nil {
				return nil, err
			}
		}
		r.AttestationID = att.ID
		r.DisclosedScope = slices.Clone(v.Disclosed)
		res.Attestation = att
		ev.Type, ev.Attestation = EventApproved, att
	} else {
		ev.Type = EventRejected
	}
	if err := repo(tx, r.Env).put(r); err != nil {
		return nil, err
	}
	if err := s.emit(ctx, tx, ev); err != nil {
		return nil, err
	}
	res.Request = r.Clone()
	return res, nil
}
