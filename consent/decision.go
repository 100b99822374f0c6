package consent

import (
	"context"
	"encoding/json"
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

// ConsentClaims is the bookkeeping of a CONSENT attestation, under its claims' ClaimConsent
// member, beside the facts (see Disclose). It holds identifiers and the consent's own
// members only — never personal data — so that a verifier can tie the attestation to
// its request (a holder cannot pass off the approval of another request), and so
// that, with the attestation's subject and verifier and the decision APPROVED, it
// rebuilds the signed Consent message, whose digest is the attestation's evidenceHash.
// Its fields are in key order, so that encoding/json writes them in RFC 8785 form
// (but for RequireLiveness, an API type in the order of the source document).
type ConsentClaims struct {
	Deadline uint64 `json:"deadline"`
	// DisclosedScope is the holder's disclosedScope as posted and signed (in PROOF_ONLY
	// it may be empty: "everything asked").
	DisclosedScope     []string    `json:"disclosedScope"`
	DisclosedScopeHash common.Hash `json:"disclosedScopeHash"`
	Mode               Mode        `json:"mode"`
	Nonce              common.Hash `json:"nonce"`
	RequestID          string      `json:"requestId"`
	// RequireLiveness is the request's requirement, which the approval met; omitted
	// when it had none.
	RequireLiveness *LivenessRequirement `json:"requireLiveness,omitempty"`
}

// ParseClaims splits the claims of a CONSENT attestation into its facts (every member
// but ClaimConsent) and its bookkeeping. Attestations issued before the facts existed
// kept the bookkeeping at the top level; ParseClaims reads those too (with no facts).
func ParseClaims(raw json.RawMessage) (facts map[string]any, bookkeeping *ConsentClaims, err error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, nil, fmt.Errorf("consent: claims are not a JSON object: %w", err)
	}
	bookkeeping = &ConsentClaims{}
	if b, ok := all[ClaimConsent]; ok {
		if err := json.Unmarshal(b, bookkeeping); err != nil {
			return nil, nil, fmt.Errorf("consent: the claims' %s member: %w", ClaimConsent, err)
		}
		delete(all, ClaimConsent)
	} else if _, legacy := all["requestId"]; legacy {
		if err := json.Unmarshal(raw, bookkeeping); err != nil {
			return nil, nil, fmt.Errorf("consent: claims: %w", err)
		}
		return map[string]any{}, bookkeeping, nil
	} else {
		return nil, nil, fmt.Errorf("consent: the claims have no %s member", ClaimConsent)
	}
	facts = make(map[string]any, len(all))
	for k, v := range all {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, nil, err
		}
		facts[k] = x
	}
	return facts, bookkeeping, nil
}

// RequestIDOf returns the id of the verification request whose approval issued
// CONSENT attestation att, or "" when att is not one.
func RequestIDOf(att *attestation.Attestation) string {
	if att == nil || att.Kind != attestation.KindConsent {
		return ""
	}
	_, b, err := ParseClaims(att.Claims)
	if err != nil {
		return ""
	}
	return b.RequestID
}

// VerifiedDecision is a decision whose form, scope and signature VerifyDecision has
// checked against its request.
type VerifiedDecision struct {
	Holder common.Address
	// Message is the signed Consent message; its Digest(chainID) is the evidence.
	Message *ConsentTypedData
	Digest  [32]byte
	// Disclosed is what the decision answers: the whole scope for a PROOF_ONLY
	// approval, the holder's pick for a SELECTIVE one, nothing for a rejection.
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
	if d.DisclosedScope == nil {
		errs = append(errs, veriland.Invalid(PointerDisclosedScope, "disclosedScope is required: send [] to disclose nothing"))
	} else if len(d.DisclosedScope) > MaxScopeItems {
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
// approval, empty or the whole scope for a PROOF_ONLY approval), and the signature
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
	default: // PROOF_ONLY
		if len(d.DisclosedScope) != 0 && len(d.DisclosedScope) != len(r.Scope) {
			return nil, veriland.Invalid(PointerDisclosedScope, "a PROOF_ONLY approval proves the whole scope and discloses no values: send [] or the whole scope")
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
//     (liveness_required);
//   - an approval must be able to answer what it discloses (Disclose): every scope
//     item in PROOF_ONLY, the holder's pick in SELECTIVE (claim_unavailable, one error
//     per item, Meta["item"] and Meta["reason"], pointer /disclosedScope/<i> when the
//     item was posted there).
//
// These checks run in that order, so that only the holder ever learns which facts an
// identity lacks. APPROVED issues a CONSENT attestation (subject = subjectRef,
// verifier = the request's verifier, scope = what it answers, claims = the facts
// plus ClaimConsent, evidenceHash = the signed consent digest). The transition, the
// attestation and OnEvent's EventApproved or EventRejected commit in one transaction;
// of concurrent decisions on one request exactly one succeeds, the others get
// invalid_state.
//
// Errors: validation_failed, not_found, invalid_state, invalid_signature,
// liveness_required, claim_unavailable, and storage or hook errors.
func (s *Service) Decide(ctx context.Context, env veriland.Environment, id string, d Decision) (*DecisionResult, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if _, err := checkDecisionForm(d); err != nil {
		return nil, err
	}
	f, err := s.Find(ctx, []veriland.Environment{env}, id)
	if err != nil {
		return nil, err
	}
	return s.decide(ctx, f, d)
}

// DecideFound is Decide for the request Find returned, which it does not read again
// before its transaction (inside it, it checks that the request is still stored as
// Find read it, as Decide does).
func (s *Service) DecideFound(ctx context.Context, f *Found, d Decision) (*DecisionResult, error) {
	if f == nil || f.r == nil {
		return nil, errors.New("consent: DecideFound needs a request returned by Find")
	}
	if err := s.check(f.Env); err != nil {
		return nil, err
	}
	if _, err := checkDecisionForm(d); err != nil {
		return nil, err
	}
	return s.decide(ctx, f, d)
}

// decide is Decide once the environment and the decision's form are checked and the
// request is found.
func (s *Service) decide(ctx context.Context, f *Found, d Decision) (*DecisionResult, error) {
	env, id := f.Env, f.id
	r, stored, err := s.current(ctx, f) // expires it when due
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
	subject, err := s.checkHolder(ctx, env, r.SubjectRef, v.Holder)
	if err != nil {
		return nil, err
	}

	// An approval's facts are read before the write lock too; the liveness fact, which
	// a revocation may change, is read again inside it (apply).
	var p approval
	if d.Decision == StatusApproved {
		p.facts.Identity = subject
		if r.RequireLiveness || slices.Contains(v.Disclosed, ItemLiveness) {
			if err := s.Store.View(ctx, func(tx storage.Tx) error {
				if err := s.checkLiveness(ctx, tx, r); err != nil {
					return err
				}
				p.facts.Liveness, err = s.livenessFact(tx, r, v.Disclosed, s.now())
				return err
			}); err != nil {
				return nil, err
			}
		}
		if p.claims, err = s.claims(r, d, v, p.facts); err != nil {
			return nil, err
		}
		// Signing the attestation is the costliest step of an approval, and depends
		// on nothing stored: an issuer that can sign ahead does so before the lock.
		if pre, ok := s.Attestations.(PreSigner); ok {
			if p.presigned, err = pre.Sign(s.draft(r, v, p.claims)); err != nil {
				return nil, err
			}
		}
	}

	now := s.now()
	// The event's records are encoded before the write lock too, for the event this
	// decision will make unless the request changes meanwhile (the preparer checks).
	if d.Decision == StatusRejected || p.presigned != nil {
		after := r.Clone()
		p.event = s.prepare(ctx, decided(after, d, v, now, p.presigned))
		// With nothing to read inside the transaction but the request itself, the
		// record it becomes is encoded now too: the transaction then only checks that
		// the request is still stored as read (a concurrent decision changes it).
		if stored != nil && !r.due(now) && r.Liveness() == nil && !slices.Contains(v.Disclosed, ItemLiveness) {
			if p.encoded, err = json.Marshal(after); err != nil {
				return nil, fmt.Errorf("consent: encoding %s: %w", id, err)
			}
			p.stored = stored
		}
	}
	var out *DecisionResult
	var refused error // returned after the transaction commits (an expiry is kept)
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		out = nil
		if p.stored != nil {
			same, err := repo(tx, env).unchanged(id, p.stored)
			if err != nil {
				return err
			}
			if same {
				out, err = s.applyPrepared(ctx, tx, r.Clone(), d, v, now, p)
				return err
			}
		}
		cur, rf, err := s.pendingTx(ctx, tx, env, id, now, "decide", nil)
		if refused = rf; err != nil || refused != nil {
			return err
		}
		out, err = s.apply(ctx, tx, cur, d, v, now, p)
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

// checkHolder checks that holder is the wallet bound to a did:veriland subject
// (VerifyDecision has checked did:pkh subjects) and returns the subject's identity for
// the facts of an approval: nil for a did:pkh subject, or when the Service has no
// IdentityGetter. With the usual IdentityWallets it reads the identity once.
func (s *Service) checkHolder(ctx context.Context, env veriland.Environment, subject string, holder common.Address) (*identity.Identity, error) {
	if !identity.ValidDID(subject) {
		return nil, nil
	}
	if w, ok := s.Wallets.(IdentityWallets); ok && s.Identities == nil && w.Identities != nil {
		id, err := w.Identities.Get(ctx, env, subject)
		wallet, werr := walletOf(id, err)
		if err := checkBound(wallet, werr, holder); err != nil {
			return nil, err
		}
		return id, nil
	}
	wallet, err := s.Wallets.WalletOf(ctx, env, subject)
	if err := checkBound(wallet, err, holder); err != nil {
		return nil, err
	}
	g := s.identities()
	if g == nil {
		return nil, nil
	}
	id, err := g.Get(ctx, env, subject)
	switch {
	case veriland.IsCode(err, veriland.CodeNotFound):
		return nil, nil // Wallets knows it, the getter does not: no facts
	case err != nil:
		return nil, fmt.Errorf("consent: reading the subject's identity: %w", err)
	}
	return id, nil
}

// checkLiveness runs the liveness gate of an approval of r with requireLiveness.
func (s *Service) checkLiveness(ctx context.Context, tx storage.Tx, r *Request) error {
	live := r.Liveness()
	if live == nil {
		return nil
	}
	if s.Liveness == nil {
		return LivenessRequired(live.MinLevel, live.MaxAge()).WithCause(errors.New("consent: Service.Liveness is nil"))
	}
	return s.Liveness.Check(ctx, tx, r.Env, r.SubjectRef, live.MinLevel, live.MaxAge())
}

// livenessFact returns the LIVENESS attestation that answers ItemLiveness for r at
// now, when the approval answers it: of the subject's VALID, unexpired ones (meeting
// requireLiveness when r has it), the highest level, then the newest. nil when none
// qualifies or the Service cannot list them.
func (s *Service) livenessFact(tx storage.Tx, r *Request, answered []string, now time.Time) (*attestation.Attestation, error) {
	lookup := s.livenessLookup()
	if lookup == nil || !slices.Contains(answered, ItemLiveness) {
		return nil, nil
	}
	atts, err := lookup.ListBySubjectTx(tx, r.Env, r.SubjectRef, attestation.KindLiveness)
	if err != nil {
		return nil, err
	}
	live := r.Liveness()
	var best *attestation.Attestation
	for _, a := range atts {
		rank := LevelRank(levelOf(a))
		if a == nil || rank == 0 || a.Kind != attestation.KindLiveness || a.Subject != r.SubjectRef ||
			a.Status != attestation.StatusValid || a.Expired(now) || a.IssuedAt.After(now) {
			continue
		}
		if live != nil && (rank < LevelRank(live.MinLevel) || now.Sub(a.IssuedAt) > live.MaxAge()) {
			continue
		}
		if best == nil {
			best = a
			continue
		}
		br := LevelRank(levelOf(best))
		if rank > br || rank == br && (a.IssuedAt.After(best.IssuedAt) || a.IssuedAt.Equal(best.IssuedAt) && a.ID > best.ID) {
			best = a
		}
	}
	return best, nil
}

// claims builds the claims of r's CONSENT attestation: the facts Disclose answers
// for v.Disclosed, and the bookkeeping under ClaimConsent. claim_unavailable errors
// point at the item in the posted disclosedScope when it is there.
func (s *Service) claims(r *Request, d Decision, v *VerifiedDecision, f Facts) (map[string]any, error) {
	facts, err := Disclose(r.Mode, v.Disclosed, f)
	if err != nil {
		for _, e := range veriland.ErrorList(err) {
			item, _ := e.Meta["item"].(string)
			if i := slices.Index(d.DisclosedScope, item); i >= 0 {
				e.Pointer = PointerDisclosedScope + "/" + strconv.Itoa(i)
			}
		}
		return nil, err
	}
	posted := d.DisclosedScope
	if posted == nil {
		posted = []string{}
	}
	facts[ClaimConsent] = ConsentClaims{
		RequestID:          r.ID,
		Mode:               r.Mode,
		DisclosedScope:     slices.Clone(posted),
		DisclosedScopeHash: v.Message.DisclosedScopeHash,
		Nonce:              r.Nonce,
		Deadline:           v.Message.Deadline,
		RequireLiveness:    r.Liveness(),
	}
	return facts, nil
}

// draft is the CONSENT attestation an approval issues.
func (s *Service) draft(r *Request, v *VerifiedDecision, claims map[string]any) attestation.Draft {
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

// checkBound checks the result of a wallet lookup against holder.
func checkBound(wallet string, err error, holder common.Address) error {
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

// approval is what Decide prepares for an approval before the write lock.
type approval struct {
	facts     Facts
	claims    map[string]any
	presigned *attestation.Attestation // nil: sign inside the transaction
	// event finishes the prepared work of OnEvent (nil: OnEvent does it all).
	event func(context.Context, storage.Tx, Event) error
	// stored is the request's record as read before the transaction, and encoded the
	// record the decision makes of it; nil: apply does the whole decision inside.
	stored, encoded []byte
}

// decided moves r to decision d at now, with attestation att for an approval, and
// returns the event of the change.
func decided(r *Request, d Decision, v *VerifiedDecision, now time.Time, att *attestation.Attestation) Event {
	ev := Event{Env: r.Env, Type: EventRejected, Request: r, Actor: r.SubjectRef, At: now}
	r.Status = d.Decision
	r.DecidedAt = &now
	if d.Decision == StatusApproved {
		r.AttestationID = att.ID
		r.DisclosedScope = slices.Clone(v.Disclosed)
		ev.Type, ev.Attestation = EventApproved, att
	}
	return ev
}

func attestationID(a *attestation.Attestation) string {
	if a == nil {
		return ""
	}
	return a.ID
}

// applyPrepared is apply when the request is stored exactly as r, read before the
// transaction: PENDING, not due at now, with no liveness to check or disclose. It
// writes what Decide prepared: the presigned attestation, the encoded record, the
// event.
func (s *Service) applyPrepared(ctx context.Context, tx storage.Tx, r *Request, d Decision, v *VerifiedDecision, now time.Time, p approval) (*DecisionResult, error) {
	res := &DecisionResult{RequestID: r.ID, Status: d.Decision, Decision: d.Decision}
	if d.Decision == StatusApproved {
		if err := s.Attestations.(PreSigner).Put(ctx, tx, r.Env, p.presigned); err != nil {
			return nil, err
		}
		res.Attestation = p.presigned
	}
	ev := decided(r, d, v, now, p.presigned)
	if err := repo(tx, r.Env).putEncoded(r, p.encoded); err != nil {
		return nil, err
	}
	if err := s.emitPrepared(ctx, tx, ev, p.event); err != nil {
		return nil, err
	}
	res.Request = r.Clone()
	return res, nil
}

// apply records decision d on the PENDING request r inside tx: liveness gate,
// attestation, transition, event. p is what Decide prepared for an approval; when
// the liveness fact has changed since (a revocation, a new pass), the claims are
// rebuilt and the attestation signed here.
func (s *Service) apply(ctx context.Context, tx storage.Tx, r *Request, d Decision, v *VerifiedDecision, now time.Time, p approval) (*DecisionResult, error) {
	res := &DecisionResult{RequestID: r.ID, Status: d.Decision, Decision: d.Decision}
	var att *attestation.Attestation
	if d.Decision == StatusApproved {
		if err := s.checkLiveness(ctx, tx, r); err != nil {
			return nil, err
		}
		if slices.Contains(v.Disclosed, ItemLiveness) {
			live, err := s.livenessFact(tx, r, v.Disclosed, now)
			if err != nil {
				return nil, err
			}
			if attestationID(live) != attestationID(p.facts.Liveness) {
				f := p.facts
				f.Liveness = live
				if p.claims, err = s.claims(r, d, v, f); err != nil {
					return nil, err
				}
				p.presigned = nil
			}
		}
		att = p.presigned
		if att != nil {
			if err := s.Attestations.(PreSigner).Put(ctx, tx, r.Env, att); err != nil {
				return nil, err
			}
		} else {
			var err error
			if att, err = s.Attestations.Issue(ctx, tx, r.Env, s.draft(r, v, p.claims)); err != nil {
				return nil, err
			}
		}
		res.Attestation = att
	}
	ev := decided(r, d, v, now, att)
	if err := repo(tx, r.Env).put(r); err != nil {
		return nil, err
	}
	if err := s.emitPrepared(ctx, tx, ev, p.event); err != nil {
		return nil, err
	}
	res.Request = r.Clone()
	return res, nil
}
