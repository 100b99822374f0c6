package attestation_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// TestStatusInAnswersAsStatus checks that StatusIn answers, for every case, what
// Status answers for the first environment that holds the id: the same view, the same
// error code and text (corrupt records included), and the environment it found.
func TestStatusInAnswersAsStatus(t *testing.T) {
	ctx := context.Background()
	s := newService(t, &fakeClock{t: t0})
	valid := issue(t, s, veriland.Sandbox, livenessDraft())
	revoked := issue(t, s, veriland.Sandbox, consentDraft())
	if _, err := s.Revoke(ctx, veriland.Sandbox, revoked.ID, "lost", admin); err != nil {
		t.Fatal(err)
	}
	prod := issue(t, s, veriland.Production, livenessDraft())
	put := func(id, value string) {
		t.Helper()
		err := s.Store.Update(ctx, func(tx storage.Tx) error {
			return tx.Put(storage.Bucket(veriland.Sandbox, "attestations"), []byte(id), []byte(value))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("att_not_json", `{"attestation":`)
	put("att_null", `{"attestation":null}`)
	put("att_bad_claims", `{"attestation":{"id":"att_bad_claims","status":"VALID","claims":{"a":1e999}}}`)

	both := []veriland.Environment{veriland.Production, veriland.Sandbox}
	for _, tc := range []struct {
		name string
		envs []veriland.Environment
		id   string
		want veriland.Environment // "" when not found or failing
	}{
		{"valid, both environments", both, valid.ID, veriland.Sandbox},
		{"valid, its own environment", []veriland.Environment{veriland.Sandbox}, valid.ID, veriland.Sandbox},
		{"valid, the other environment", []veriland.Environment{veriland.Production}, valid.ID, ""},
		{"revoked", both, revoked.ID, veriland.Sandbox},
		{"production first", both, prod.ID, veriland.Production},
		{"unknown id", both, "att_unknown", ""},
		{"empty id", both, "", ""},
		{"id too long", both, strings.Repeat("a", 513), ""},
		{"record not JSON", both, "att_not_json", ""},
		{"record without attestation", both, "att_null", ""},
		{"claims without canonical form", both, "att_bad_claims", ""},
		{"invalid environment", []veriland.Environment{"TEST"}, valid.ID, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// What Status answers, environment by environment, as the server's
			// findInEnvs does.
			var want *attestation.StatusView
			var wantErr error
			for _, env := range tc.envs {
				want, wantErr = s.Status(ctx, env, tc.id)
				if veriland.CodeOf(wantErr) != veriland.CodeNotFound {
					break
				}
			}
			got, env, err := s.StatusIn(ctx, tc.envs, tc.id)
			if (err == nil) != (wantErr == nil) || err != nil && (veriland.CodeOf(err) != veriland.CodeOf(wantErr) || err.Error() != wantErr.Error()) {
				t.Fatalf("StatusIn error = %v, Status error = %v", err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("StatusIn = %+v, Status = %+v", got, want)
			}
			if env != tc.want {
				t.Errorf("environment = %q, want %q", env, tc.want)
			}
		})
	}
}
