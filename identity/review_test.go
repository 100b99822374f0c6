package identity_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

func issueForReview(t *testing.T, f *fixture) *identity.IssueResult {
	t.Helper()
	res, err := f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{
		SubjectRef: "needs-review", CountryCode: "GH", Payload: payload("review"),
	})
	require.NoError(t, err)
	require.Equal(t, identity.StatusPendingReview, res.Status)
	return res
}

func TestReviewDecisions(t *testing.T) {
	tests := []struct {
		decision identity.ReviewStatus
		status   identity.Status
	}{
		{identity.ReviewApproved, identity.StatusActive},
		{identity.ReviewRejected, identity.StatusRejected},
	}
	for _, tt := range tests {
		t.Run(string(tt.decision), func(t *testing.T) {
			f := newFixture(t, nil)
			ctx := context.Background()
			res := issueForReview(t, f)
			created := f.clock.Now()

			rv, err := f.svc.GetReview(ctx, veriland.Sandbox, res.ReviewID)
			require.NoError(t, err)
			require.Equal(t, &identity.Review{ID: res.ReviewID, DID: res.DID, Env: veriland.Sandbox,
				Status: identity.ReviewOpen, CreatedAt: created}, rv)

			f.clock.Advance(time.Hour)
			admin := veriland.WithPrincipal(ctx, veriland.Principal{Role: veriland.RoleAdmin, Env: veriland.Sandbox})
			decided, err := f.svc.DecideReview(admin, veriland.Sandbox, res.ReviewID, tt.decision)
			require.NoError(t, err)
			require.Equal(t, tt.decision, decided.Status)
			require.Equal(t, f.clock.Now(), decided.DecidedAt)

			again, err := f.svc.GetReview(ctx, veriland.Sandbox, res.ReviewID)
			require.NoError(t, err)
			require.Equal(t, decided, again)

			id, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
			require.NoError(t, err)
			require.Equal(t, tt.status, id.Status)
			require.Equal(t, f.clock.Now(), id.UpdatedAt)
			require.Equal(t, created, id.CreatedAt)
			if tt.status == identity.StatusActive {
				require.Equal(t, "GH", id.Claims["nationality"])
				require.Equal(t, true, id.Claims["is_adult"])
			} else {
				require.Nil(t, id.Claims)
			}

			_, err = f.svc.DecideReview(admin, veriland.Sandbox, res.ReviewID, identity.ReviewApproved)
			verr := requireCode(t, err, veriland.CodeInvalidState)
			require.Equal(t, string(tt.decision), verr.Meta["status"])

			evs := f.events.list(t)
			require.Equal(t, identity.Event{Env: veriland.Sandbox, Action: identity.ActionReviewDecided, DID: res.DID,
				From: identity.StatusPendingReview, To: tt.status, ReviewID: res.ReviewID, ReviewStatus: tt.decision,
				At: f.clock.Now()}, evs[len(evs)-1])
		})
	}
}

func TestReviewErrors(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res := issueForReview(t, f)

	tests := []struct {
		name     string
		ctx      context.Context
		env      veriland.Environment
		id       string
		decision identity.ReviewStatus
		code     veriland.Code
	}{
		{"verifier principal", veriland.WithPrincipal(ctx, veriland.Principal{Role: veriland.RoleVerifier}), veriland.Sandbox, res.ReviewID, identity.ReviewApproved, veriland.CodeForbidden},
		{"OPEN is no decision", ctx, veriland.Sandbox, res.ReviewID, identity.ReviewOpen, veriland.CodeValidationFailed},
		{"lower-case decision", ctx, veriland.Sandbox, res.ReviewID, "approved", veriland.CodeValidationFailed},
		{"unknown review", ctx, veriland.Sandbox, "rev_aaaaaaaaaaaaaaaaaaaaaaaaaa", identity.ReviewApproved, veriland.CodeNotFound},
		{"malformed id", ctx, veriland.Sandbox, "../x", identity.ReviewApproved, veriland.CodeNotFound},
		{"other environment", ctx, veriland.Production, res.ReviewID, identity.ReviewApproved, veriland.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.DecideReview(tt.ctx, tt.env, tt.id, tt.decision)
			requireCode(t, err, tt.code)
		})
	}
	_, err := f.svc.GetReview(ctx, veriland.Production, res.ReviewID)
	requireCode(t, err, veriland.CodeNotFound)

	// Nothing above changed the review.
	rv, err := f.svc.GetReview(ctx, veriland.Sandbox, res.ReviewID)
	require.NoError(t, err)
	require.Equal(t, identity.ReviewOpen, rv.Status)
}
