package consent_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
)

// TestFindThenDecide covers the route's path: Find in the environments a public
// request may address, then DecideFound without reading the request again.
func TestFindThenDecide(t *testing.T) {
	both := []veriland.Environment{veriland.Production, veriland.Sandbox}
	tests := []struct {
		name   string
		envs   []veriland.Environment
		id     func(f *fixture) string
		before func(f *fixture, r *consent.Request) // between Find and DecideFound
		code   veriland.Code                        // of Find, or else of DecideFound
		status consent.Status                       // of the decision, when it succeeds
	}{
		{name: "found in the second environment", envs: both, status: consent.StatusApproved},
		{name: "only the sandbox", envs: []veriland.Environment{veriland.Sandbox}, status: consent.StatusApproved},
		{name: "not in production", envs: []veriland.Environment{veriland.Production}, code: veriland.CodeNotFound},
		{name: "unknown id", envs: both, id: func(*fixture) string { return "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa" }, code: veriland.CodeNotFound},
		{name: "malformed id", envs: both, id: func(*fixture) string { return "not-an-id" }, code: veriland.CodeNotFound},
		{name: "decided after Find", envs: both, before: func(f *fixture, r *consent.Request) {
			_, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, f.signedServed(t, r, f.holder, consent.StatusRejected, nil))
			require.NoError(t, err)
		}, code: veriland.CodeInvalidState},
		{name: "expired after Find", envs: both, before: func(f *fixture, r *consent.Request) {
			f.clock.Advance(2 * time.Hour)
		}, code: veriland.CodeInvalidState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			r := f.create(nil)
			id := r.ID
			if tt.id != nil {
				id = tt.id(f)
			}
			d := f.signedServed(t, r, f.holder, consent.StatusApproved, r.Scope)
			found, err := f.svc.Find(f.ctx, tt.envs, id)
			if tt.code == veriland.CodeNotFound {
				require.True(t, veriland.IsCode(err, tt.code), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, veriland.Sandbox, found.Env)
			if tt.before != nil {
				tt.before(f, r)
			}
			res, err := f.svc.DecideFound(f.ctx, found, d)
			if tt.code != "" {
				require.True(t, veriland.IsCode(err, tt.code), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.status, res.Status)
			require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventApproved))
		})
	}
	_, err := (&consent.Service{}).DecideFound(t.Context(), nil, consent.Decision{})
	require.Error(t, err)
}
