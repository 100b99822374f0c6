package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Outcome is a KYC provider's answer.
type Outcome string

// The four outcomes (SPEC S3).
const (
	OutcomeApproved Outcome = "APPROVED" // identity becomes ACTIVE, with claims
	OutcomeRejected Outcome = "REJECTED" // identity becomes REJECTED
	OutcomeReview   Outcome = "REVIEW"   // a manual review is opened; PENDING_REVIEW
	OutcomePending  Outcome = "PENDING"  // the result comes later (CompleteKYC); PENDING_KYC
)

// Valid reports whether o is one of the four outcomes.
func (o Outcome) Valid() bool {
	switch o {
	case OutcomeApproved, OutcomeRejected, OutcomeReview, OutcomePending:
		return true
	}
	return false
}

// KYCProvider checks a KYC payload. Implementations: SandboxKYC and HTTPKYC.
//
// Check is called once per new identity, outside any storage transaction. It must
// neither persist nor log req.Payload. It returns a *veriland.Error with
// CodeValidationFailed when the payload itself is unacceptable (passed on to the
// client); any other error means the provider is unavailable (503 unavailable).
type KYCProvider interface {
	Check(ctx context.Context, req KYCRequest) (KYCResult, error)
}

// KYCRequest is what a provider sees of a new identity.
type KYCRequest struct {
	Env         veriland.Environment
	DID         string          // the identity being created; providers echo it back
	CountryCode string          // ISO country code as submitted
	Payload     json.RawMessage // personal data for the provider only; never stored or logged
}

// String redacts the payload, so that a KYCRequest printed by mistake leaks nothing.
func (r KYCRequest) String() string {
	return fmt.Sprintf("KYCRequest{Env:%s DID:%s CountryCode:%s Payload:[%d bytes redacted]}",
		r.Env, r.DID, r.CountryCode, len(r.Payload))
}

// GoString redacts the payload like String.
func (r KYCRequest) GoString() string { return r.String() }

// LogValue redacts the payload for log/slog.
func (r KYCRequest) LogValue() slog.Value {
	return slog.GroupValue(slog.String("env", string(r.Env)), slog.String("did", r.DID),
		slog.String("countryCode", r.CountryCode), slog.Int("payloadBytes", len(r.Payload)))
}

// KYCResult is a provider's answer. Claims are derived, non-personal facts (is_adult,
// nationality, …); the Service keeps only those on its allow-list.
type KYCResult struct {
	Outcome     Outcome        `json:"outcome"`
	Claims      map[string]any `json:"claims,omitempty"`
	ProviderRef string         `json:"providerRef,omitempty"` // the provider's case id, if any
}

// DefaultClaimNames returns the claims kept when Service.ClaimNames is nil: facts a
// verifier may ask for that identify nobody by themselves.
func DefaultClaimNames() []string {
	return []string{
		"is_adult", "age_over_16", "age_over_18", "age_over_21",
		"nationality", "country_of_residence", "document_type", "document_country", "kyc_level",
		"chip_bound",
	}
}

const (
	maxClaimString = 64
	maxProviderRef = 128
	maxClaimsKept  = 32
)

// sanitizeClaims keeps the allowed claims whose values are scalars: booleans, numbers
// and short strings. Anything else could carry personal data a provider sent by mistake.
func (s *Service) sanitizeClaims(in map[string]any) map[string]any {
	names := s.ClaimNames
	if names == nil {
		names = DefaultClaimNames()
	}
	out := map[string]any{}
	for _, name := range names {
		v, ok := in[name]
		if !ok || len(out) >= maxClaimsKept {
			continue
		}
		switch v := v.(type) {
		case bool, float64, int, int64, json.Number:
			out[name] = v
		case string:
			if len(v) <= maxClaimString {
				out[name] = v
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// checkResult validates a provider's answer. final says whether PENDING is refused.
func checkResult(res KYCResult, final bool) error {
	if !res.Outcome.Valid() || (final && res.Outcome == OutcomePending) {
		return veriland.Invalid("/outcome", "outcome must be APPROVED, REJECTED or REVIEW")
	}
	if len(res.ProviderRef) > maxProviderRef || strings.ContainsAny(res.ProviderRef, "\x00\n\r") {
		return veriland.Invalid("/providerRef", "providerRef must be at most %d printable characters", maxProviderRef)
	}
	return nil
}

// providerError maps a KYC provider failure: validation errors about the payload
// pass through, a missing provider is 503 unavailable naming the configuration to
// supply (NotConfiguredError), everything else is 503 unavailable.
func providerError(err error) error {
	var missing *NotConfiguredError
	if errors.As(err, &missing) {
		return missing.clientError()
	}
	var verr *veriland.Error
	if errors.As(err, &verr) && verr.Code == veriland.CodeValidationFailed {
		return verr
	}
	var list veriland.Errors
	if errors.As(err, &list) {
		return list
	}
	return veriland.Errorf(veriland.CodeUnavailable, "the KYC provider is unavailable").WithCause(err)
}

// CompleteKYC applies a provider's late result to a PENDING_KYC identity: the domain
// call behind the inbound kyc.completed webhook (SPEC S8). ref is the identity's DID
// or the ProviderRef the provider gave when it answered PENDING. The identity becomes
// ACTIVE (APPROVED), REJECTED, or PENDING_REVIEW with a new OPEN review (REVIEW).
//
// Callers: the webhook dispatcher, after the webhook's signature was verified.
// Errors: validation_failed (outcome PENDING or unknown), not_found, invalid_state
// (the identity is no longer PENDING_KYC; its status is in Meta["status"]).
func (s *Service) CompleteKYC(ctx context.Context, env veriland.Environment, ref string, res KYCResult) (*Identity, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if err := checkResult(res, true); err != nil {
		return nil, err
	}
	now := s.now()
	var reviewID string
	if res.Outcome == OutcomeReview {
		var err error
		if reviewID, err = ids.New(s.rand(), reviewPrefix); err != nil {
			return nil, err
		}
	}
	var out *Identity
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		did := ref
		if !strings.HasPrefix(ref, DIDPrefix) {
			found, ok, err := r.lookup(bucketProvider, []byte(ref))
			if err != nil {
				return err
			}
			if !ok || ref == "" {
				return veriland.Errorf(veriland.CodeNotFound, "no identity for provider reference")
			}
			did = found
		}
		id, err := r.identity(did)
		if err != nil {
			return err
		}
		if id.Status != StatusPendingKYC {
			return veriland.Errorf(veriland.CodeInvalidState, "identity is %s, not PENDING_KYC", id.Status).
				WithMeta("status", string(id.Status))
		}
		out, err = s.applyResult(ctx, r, id, res, reviewID, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// applyResult moves a PENDING_KYC identity to the state res decides, inside tx.
// It works on a copy so that a retried transaction starts from what it read.
func (s *Service) applyResult(ctx context.Context, r repository, cur *Identity, res KYCResult, reviewID string, now time.Time) (*Identity, error) {
	id := cur.clone()
	id.UpdatedAt = now
	if res.ProviderRef != "" && id.ProviderRef == "" {
		// A reference already naming another identity is ignored rather than stolen:
		// the DID still reaches this identity.
		owner, taken, err := r.lookup(bucketProvider, []byte(res.ProviderRef))
		if err != nil {
			return nil, err
		}
		if !taken || owner == id.DID {
			id.ProviderRef = res.ProviderRef
			if err := r.index(bucketProvider, []byte(res.ProviderRef), id.DID); err != nil {
				return nil, err
			}
		}
	}
	ev := Event{Env: r.env, Action: ActionKYCCompleted, DID: id.DID, From: cur.Status, At: now}
	switch res.Outcome {
	case OutcomeApproved:
		id.Status = StatusActive
		id.setKYCClaims(s.sanitizeClaims(res.Claims))
	case OutcomeRejected:
		id.Status = StatusRejected
		id.setKYCClaims(nil)
	case OutcomeReview:
		id.Status = StatusPendingReview
		// Kept for when the review approves; meaningless before (Status gates use).
		id.setKYCClaims(s.sanitizeClaims(res.Claims))
		id.ReviewID = reviewID
		rv := &Review{ID: reviewID, DID: id.DID, Env: r.env, Status: ReviewOpen, CreatedAt: now}
		if err := r.putReview(rv); err != nil {
			return nil, err
		}
		ev.ReviewID, ev.ReviewStatus = reviewID, ReviewOpen
	case OutcomePending:
		// Nothing decided yet: only a new provider reference may have to be recorded.
		if id.ProviderRef == cur.ProviderRef {
			return cur, nil
		}
		if err := r.putIdentity(id); err != nil {
			return nil, err
		}
		return id, nil
	}
	ev.To = id.Status
	if err := r.putIdentity(id); err != nil {
		return nil, err
	}
	if err := s.emit(ctx, r.tx, ev); err != nil {
		return nil, err
	}
	return id, nil
}
