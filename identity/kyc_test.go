package identity_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

func TestCompleteKYC(t *testing.T) {
	tests := []struct {
		name   string
		byRef  bool
		result identity.KYCResult
		status identity.Status
	}{
		{"approved by DID", false, identity.KYCResult{Outcome: identity.OutcomeApproved, Claims: map[string]any{"is_adult": false, "name": "x"}}, identity.StatusActive},
		{"approved by provider ref", true, identity.KYCResult{Outcome: identity.OutcomeApproved}, identity.StatusActive},
		{"rejected", true, identity.KYCResult{Outcome: identity.OutcomeRejected}, identity.StatusRejected},
		{"review", false, identity.KYCResult{Outcome: identity.OutcomeReview}, identity.StatusPendingReview},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			ctx := context.Background()
			res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "late", CountryCode: "FR", Payload: payload("timeout")})
			require.NoError(t, err)
			require.Equal(t, identity.StatusPendingKYC, res.Status)
			pending, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
			require.NoError(t, err)
			require.Equal(t, "sandbox-"+res.DID, pending.ProviderRef)

			ref := res.DID
			if tt.byRef {
				ref = pending.ProviderRef
			}
			_, err = f.svc.CompleteKYC(ctx, veriland.Production, ref, tt.result)
			requireCode(t, err, veriland.CodeNotFound)

			id, err := f.svc.CompleteKYC(ctx, veriland.Sandbox, ref, tt.result)
			require.NoError(t, err)
			require.Equal(t, tt.status, id.Status)
			if tt.status == identity.StatusPendingReview {
				rv, err := f.svc.GetReview(ctx, veriland.Sandbox, id.ReviewID)
				require.NoError(t, err)
				require.Equal(t, identity.ReviewOpen, rv.Status)
			}
			if tt.name == "approved by DID" {
				require.Equal(t, map[string]any{"is_adult": false}, id.Claims)
			}
			got, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
			require.NoError(t, err)
			require.Equal(t, id, got)

			_, err = f.svc.CompleteKYC(ctx, veriland.Sandbox, ref, tt.result)
			verr := requireCode(t, err, veriland.CodeInvalidState)
			require.Equal(t, string(tt.status), verr.Meta["status"])
		})
	}
}

func TestCompleteKYCErrors(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "late", CountryCode: "FR", Payload: payload("timeout")})
	require.NoError(t, err)
	tests := []struct {
		name   string
		ref    string
		result identity.KYCResult
		code   veriland.Code
	}{
		{"pending is no completion", res.DID, identity.KYCResult{Outcome: identity.OutcomePending}, veriland.CodeValidationFailed},
		{"unknown outcome", res.DID, identity.KYCResult{Outcome: "OK"}, veriland.CodeValidationFailed},
		{"unknown DID", "did:veriland:1111111111111111111111", identity.KYCResult{Outcome: identity.OutcomeApproved}, veriland.CodeNotFound},
		{"malformed DID", "did:veriland:x", identity.KYCResult{Outcome: identity.OutcomeApproved}, veriland.CodeNotFound},
		{"unknown provider ref", "case-404", identity.KYCResult{Outcome: identity.OutcomeApproved}, veriland.CodeNotFound},
		{"empty ref", "", identity.KYCResult{Outcome: identity.OutcomeApproved}, veriland.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.CompleteKYC(ctx, veriland.Sandbox, tt.ref, tt.result)
			requireCode(t, err, tt.code)
		})
	}
	id, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.Equal(t, identity.StatusPendingKYC, id.Status)
}

func TestParseKYCCompletion(t *testing.T) {
	const did = "did:veriland:1111111111111111111111"
	tests := []struct {
		name string
		data string
		ref  string
		err  []string // pointers, or "" for a decoding error
	}{
		{"by DID", `{"env":"SANDBOX","did":"` + did + `","outcome":"APPROVED","claims":{"is_adult":true}}`, did, nil},
		{"by provider ref", `{"env":"PRODUCTION","providerRef":"case-1","outcome":"REJECTED"}`, "case-1", nil},
		{"DID wins", `{"env":"SANDBOX","did":"` + did + `","providerRef":"case-1","outcome":"REVIEW"}`, did, nil},
		{"unknown member", `{"env":"SANDBOX","did":"` + did + `","outcome":"APPROVED","name":"x"}`, "", []string{""}},
		{"not JSON", `nope`, "", []string{""}},
		{"missing everything", `{}`, "", []string{"/env", "/did", "/outcome"}},
		{"pending", `{"env":"SANDBOX","did":"` + did + `","outcome":"PENDING"}`, "", []string{"/outcome"}},
		{"bad DID", `{"env":"SANDBOX","did":"did:web:x","outcome":"APPROVED"}`, "", []string{"/did"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := identity.ParseKYCCompletion([]byte(tt.data))
			if tt.err == nil {
				require.NoError(t, err)
				require.Equal(t, tt.ref, c.Ref())
				require.Equal(t, c.Outcome, c.Result().Outcome)
				return
			}
			require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
			var got []string
			var list veriland.Errors
			var one *veriland.Error
			if errorsAs(err, &list) {
				for _, e := range list {
					got = append(got, e.Pointer)
				}
			} else if errorsAs(err, &one) {
				got = []string{one.Pointer}
			}
			require.Equal(t, tt.err, got)
		})
	}
}
