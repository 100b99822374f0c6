package identity

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

const reviewPrefix = "rev"

// ReviewStatus is the state of a manual KYC review.
type ReviewStatus string

// The review states: OPEN until an admin decides it, once.
const (
	ReviewOpen     ReviewStatus = "OPEN"
	ReviewApproved ReviewStatus = "APPROVED"
	ReviewRejected ReviewStatus = "REJECTED"
)

// Review is a manual review opened when the KYC provider answers REVIEW. Its id
// ("rev_" + 26 base32 characters) is unguessable, so GET /identity/review/{id} may be
// public.
type Review struct {
	ID        string               `json:"id"`
	DID       string               `json:"did"`
	Env       veriland.Environment `json:"env"`
	Status    ReviewStatus         `json:"status"`
	CreatedAt time.Time            `json:"createdAt"`
	DecidedAt time.Time            `json:"decidedAt,omitzero"` // zero while OPEN
}

// GetReview returns review id (GET /identity/review/{id}, public).
// Errors: not_found (also for a review of the other environment).
func (s *Service) GetReview(ctx context.Context, env veriland.Environment, id string) (*Review, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if !ids.Valid(id, reviewPrefix) {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no review %s", id)
	}
	var rv *Review
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		rv, err = repo(tx, env).review(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rv, nil
}

// DecideReview decides an OPEN review (POST /identity/review/{id}/decision): APPROVED
// makes its identity ACTIVE, REJECTED makes it REJECTED.
//
// Callers: admins only. The HTTP layer checks the role; as a second line, a principal
// in ctx that is not an admin is refused here too (forbidden).
// Errors: validation_failed (decision), forbidden, not_found, invalid_state (the review
// is not OPEN, or its identity is not PENDING_REVIEW; the current status is in
// Meta["status"]).
func (s *Service) DecideReview(ctx context.Context, env veriland.Environment, id string, decision ReviewStatus) (*Review, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if p, ok := veriland.PrincipalFrom(ctx); ok && p.Role != veriland.RoleAdmin {
		return nil, veriland.Errorf(veriland.CodeForbidden, "deciding a review needs the admin role")
	}
	if decision != ReviewApproved && decision != ReviewRejected {
		return nil, veriland.Invalid("/decision", "decision must be APPROVED or REJECTED")
	}
	if !ids.Valid(id, reviewPrefix) {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no review %s", id)
	}
	now := s.now()
	var out *Review
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		rv, err := r.review(id)
		if err != nil {
			return err
		}
		if rv.Status != ReviewOpen {
			return veriland.Errorf(veriland.CodeInvalidState, "review is %s, not OPEN", rv.Status).
				WithMeta("status", string(rv.Status))
		}
		ident, err := r.identity(rv.DID)
		if err != nil {
			return err
		}
		if ident.Status != StatusPendingReview {
			return veriland.Errorf(veriland.CodeInvalidState, "identity is %s, not PENDING_REVIEW", ident.Status).
				WithMeta("status", string(ident.Status))
		}
		from := ident.Status
		ident = ident.clone()
		ident.UpdatedAt = now
		if decision == ReviewApproved {
			ident.Status = StatusActive
		} else {
			ident.Status = StatusRejected
			ident.setKYCClaims(nil)
		}
		decided := *rv
		decided.Status, decided.DecidedAt = decision, now
		if err := r.putReview(&decided); err != nil {
			return err
		}
		if err := r.putIdentity(ident); err != nil {
			return err
		}
		out = &decided
		return s.emit(ctx, tx, Event{
			Env: env, Action: ActionReviewDecided, DID: ident.DID, From: from, To: ident.Status,
			ReviewID: rv.ID, ReviewStatus: decision, At: now,
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
