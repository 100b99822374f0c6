package binding_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
)

// recordingIdentities records SetChipClaims calls of committed and rolled-back
// transactions alike, and can fail.
type recordingIdentities struct {
	mu    sync.Mutex
	calls []map[string]any
	fail  error
}

func (r *recordingIdentities) SetChipClaims(_ context.Context, _ storage.Tx, _ veriland.Environment, _ string, c map[string]any) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	return r.fail == nil, r.fail
}

func TestBindDerivesHolderClaims(t *testing.T) {
	tests := []struct {
		name   string
		fields func(f *sandbox.MRZFields)
		want   map[string]any
	}{
		{"adult", func(*sandbox.MRZFields) {}, map[string]any{
			"nationality": "UTO", "document_country": "UTO", "document_type": "P", "chip_bound": true,
			"age_over_16": true, "age_over_18": true, "age_over_21": true, "is_adult": true}},
		{"seventeen, other nationality, ID card", func(f *sandbox.MRZFields) {
			// The fixture's clock is 2026-11-22: 18 tomorrow.
			f.BirthDate = time.Date(2008, 11, 23, 0, 0, 0, 0, time.UTC)
			f.Nationality = "D"
			f.DocumentType = "ID"
		}, map[string]any{
			"nationality": "D", "document_country": "UTO", "document_type": "ID", "chip_bound": true,
			"age_over_16": true, "age_over_18": false, "age_over_21": false, "is_adult": false}},
		{"eighteen today", func(f *sandbox.MRZFields) { f.BirthDate = time.Date(2008, 11, 22, 0, 0, 0, 0, time.UTC) },
			map[string]any{"nationality": "UTO", "document_country": "UTO", "document_type": "P", "chip_bound": true,
				"age_over_16": true, "age_over_18": true, "age_over_21": false, "is_adult": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, sandbox.P256)
			ids := &recordingIdentities{}
			f.svc.Identities = ids
			fields := mrzFields(docNumber)
			tt.fields(&fields)
			doc := f.issueDocument(t, f.ds, fields)
			_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
			require.NoError(t, err)
			require.NotEmpty(t, ids.calls)
			assert.Equal(t, tt.want, ids.calls[len(ids.calls)-1])
		})
	}
}

func TestBindClaimsFailureRollsBack(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	f.svc.Identities = &recordingIdentities{fail: errors.New("identity store down")}
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
	require.Error(t, err)
	list, err := f.svc.ListBindings(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox))
	require.NoError(t, err)
	assert.Empty(t, list, "no binding without its claims")
}

// With the real identity service: the claims land on the holder's identity in the
// binding's transaction, over the KYC claims; a did:pkh holder binds without claims.
func TestBindRecordsClaimsOnIdentity(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	ids := &identity.Service{Store: f.store, Pepper: testPepper, KYC: identity.SandboxKYC{Now: f.clock.Now}, Now: f.clock.Now}
	f.svc.Identities = ids
	res, err := ids.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "chip-holder", CountryCode: "FR"})
	require.NoError(t, err)
	did := res.DID

	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(did, veriland.Sandbox), doc.request(f.liveness(t, veriland.Sandbox, did, "L2")))
	require.NoError(t, err)
	id, err := ids.Get(ctx, veriland.Sandbox, did)
	require.NoError(t, err)
	assert.Equal(t, "UTO", id.Claims["nationality"], "the chip's nationality wins over the KYC's")
	assert.Equal(t, "FR", id.KYCClaims["nationality"])
	assert.Equal(t, true, id.Claims["chip_bound"])
	assert.Equal(t, "P", id.Claims["document_type"])
	assert.Equal(t, "standard", id.Claims["kyc_level"])

	pkh := "did:pkh:eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
	other := f.issueDocument(t, f.ds, mrzFields("Y1234567Z"))
	r, err := f.svc.Bind(ctx, veriland.Sandbox, holder(pkh, veriland.Sandbox), other.request(f.liveness(t, veriland.Sandbox, pkh, "L2")))
	require.NoError(t, err)
	assert.Equal(t, binding.StatusVerified, r.Status)
}
