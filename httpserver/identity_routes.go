package httpserver

import (
	"errors"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// issueIdentity answers POST /identity/issue (public, rate limited per client IP).
func (s *Server) issueIdentity(w http.ResponseWriter, r *http.Request) error {
	env, err := s.publicEnv(r)
	if err != nil {
		return err
	}
	var req identity.IssueRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	res, err := s.cfg.Identity.Issue(r.Context(), env, req)
	if err != nil {
		return s.defaultEnvHint(r, err)
	}
	s.writeJSON(w, r, http.StatusCreated, res)
	return nil
}

// defaultEnvHint completes the refusal of a public route that creates records when
// the request went to PRODUCTION only because it named no environment (no token, no
// Veriland-Environment header) and PRODUCTION lacks a dependency the operator has
// not configured (503 unavailable with meta "missing"): a newcomer trying the sandbox
// most likely forgot the header, so the detail says so before it says how to
// configure the dependency. Any other error is returned as it is.
func (s *Server) defaultEnvHint(r *http.Request, err error) error {
	if _, ok := veriland.PrincipalFrom(r.Context()); ok || r.Header.Get(headerEnvironment) != "" {
		return err
	}
	var ve *veriland.Error
	if !errors.As(err, &ve) || ve.Code != veriland.CodeUnavailable || ve.Meta["missing"] == nil {
		return err
	}
	hinted := *ve
	hinted.Message = "This request went to PRODUCTION because it carried no " + headerEnvironment + " header (and no token); " +
		"to use the sandbox, send the header " + headerEnvironment + ": SANDBOX. For PRODUCTION: " + ve.Message
	return &hinted
}

// identityRead serves GET /identity/{did}/status and GET /identity/review/{id},
// which net/http cannot register side by side (they overlap on
// /identity/review/status).
func (s *Server) identityRead(w http.ResponseWriter, r *http.Request) error {
	first, second := r.PathValue("first"), r.PathValue("second")
	switch {
	case first == "review":
		r.SetPathValue("id", second)
		return s.getReview(w, r)
	case second == "status":
		r.SetPathValue("did", first)
		return s.identityStatus(w, r)
	}
	return veriland.Errorf(veriland.CodeNotFound, "no route for %s %s", r.Method, r.URL.Path)
}

// identityStatus answers GET /identity/{did}/status (public). No personal data.
func (s *Server) identityStatus(w http.ResponseWriter, r *http.Request) error {
	did := r.PathValue("did")
	rep, _, err := findInEnvs(s, r, func(env veriland.Environment) (*identity.StatusReport, error) {
		return s.cfg.Identity.Status(r.Context(), env, did)
	})
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, rep)
	return nil
}

// getReview answers GET /identity/review/{id} (public).
func (s *Server) getReview(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	rev, _, err := findInEnvs(s, r, func(env veriland.Environment) (*identity.Review, error) {
		return s.cfg.Identity.GetReview(r.Context(), env, id)
	})
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, reviewView(rev))
	return nil
}

type reviewDecisionBody struct {
	Decision identity.ReviewStatus `json:"decision"`
}

// decideReview answers POST /identity/review/{id}/decision (admin).
func (s *Server) decideReview(w http.ResponseWriter, r *http.Request) error {
	var body reviewDecisionBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if body.Decision != identity.ReviewApproved && body.Decision != identity.ReviewRejected {
		return veriland.Invalid("/decision", "decision must be APPROVED or REJECTED")
	}
	rev, err := s.cfg.Identity.DecideReview(r.Context(), principal(r).Env, r.PathValue("id"), body.Decision)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, reviewView(rev))
	return nil
}

// reviewJSON is the public shape of a review: no environment, decidedAt only once
// decided.
type reviewJSON struct {
	ID        string                `json:"id"`
	DID       string                `json:"did"`
	Status    identity.ReviewStatus `json:"status"`
	CreatedAt time.Time             `json:"createdAt"`
	DecidedAt *time.Time            `json:"decidedAt,omitempty"`
}

func reviewView(r *identity.Review) reviewJSON {
	v := reviewJSON{ID: r.ID, DID: r.DID, Status: r.Status, CreatedAt: r.CreatedAt}
	if !r.DecidedAt.IsZero() {
		d := r.DecidedAt
		v.DecidedAt = &d
	}
	return v
}
