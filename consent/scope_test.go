package consent_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
)

func TestVocabulary(t *testing.T) {
	v := consent.Vocabulary(nil)
	require.Equal(t, []string{"identity", "liveness", "chip_bound"}, v[:3])
	for _, it := range []string{"is_adult", "age_over_16", "age_over_18", "age_over_21", "nationality",
		"document_country", "document_type", "country_of_residence", "kyc_level"} {
		require.Contains(t, v, it)
	}
	require.NotContains(t, v, consent.ClaimConsent)
	// An embedder's claim names: no repeats, never the bookkeeping member or a bad item.
	require.Equal(t, []string{"identity", "liveness", "chip_bound", "is_adult", "bank:holder"},
		consent.Vocabulary([]string{"is_adult", "chip_bound", "consent", "bank:holder", "two words", "is_adult"}))
	require.Equal(t, []string{"identity", "liveness", "chip_bound"}, consent.Vocabulary([]string{}))
}

// TestDisclose is the claims builder's table: what each mode states for each kind of
// fact, and what it refuses.
func TestDisclose(t *testing.T) {
	issued := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	live := &attestation.Attestation{ID: "att_live", Kind: attestation.KindLiveness, IssuedAt: issued,
		Claims: json.RawMessage(`{"level":"L2","policyVersion":"1"}`)}
	kyc := &identity.Identity{Status: identity.StatusActive, CountryCode: "NG", Claims: map[string]any{
		"is_adult": true, "nationality": "NG", "age_over_21": false, "kyc_level": float64(2), "document_type": "",
	}}
	chip := &identity.Identity{Status: identity.StatusActive, Claims: map[string]any{
		"chip_bound": true, "document_country": "UTO", "document_type": "P", "age_over_18": true, "is_adult": "yes",
	}}
	pending := &identity.Identity{Status: identity.StatusPendingReview, CountryCode: "NG", Claims: map[string]any{"is_adult": true}}

	type refusal struct{ item, reason string }
	tests := []struct {
		name    string
		mode    consent.Mode
		items   []string
		facts   consent.Facts
		want    map[string]any
		refused []refusal
	}{
		{"PROOF_ONLY boolean and value", consent.ModeProofOnly, []string{"is_adult", "nationality"}, consent.Facts{Identity: kyc},
			map[string]any{"is_adult": true, "nationality": consent.ProofVerified}, nil},
		{"PROOF_ONLY number value", consent.ModeProofOnly, []string{"kyc_level"}, consent.Facts{Identity: kyc},
			map[string]any{"kyc_level": "verified"}, nil},
		{"PROOF_ONLY identity", consent.ModeProofOnly, []string{"identity"}, consent.Facts{Identity: kyc},
			map[string]any{"identity": "verified"}, nil},
		{"PROOF_ONLY liveness", consent.ModeProofOnly, []string{"liveness"}, consent.Facts{Liveness: live},
			map[string]any{"liveness": "verified"}, nil},
		{"PROOF_ONLY chip_bound", consent.ModeProofOnly, []string{"chip_bound"}, consent.Facts{Identity: chip},
			map[string]any{"chip_bound": true}, nil},
		{"PROOF_ONLY false predicate", consent.ModeProofOnly, []string{"is_adult", "age_over_21"}, consent.Facts{Identity: kyc},
			nil, []refusal{{"age_over_21", consent.ReasonDoesNotHold}}},
		{"PROOF_ONLY not chip-bound", consent.ModeProofOnly, []string{"chip_bound"}, consent.Facts{Identity: kyc},
			nil, []refusal{{"chip_bound", consent.ReasonDoesNotHold}}},
		{"PROOF_ONLY missing facts", consent.ModeProofOnly, []string{"nationality", "age_over_16", "liveness"}, consent.Facts{Identity: chip},
			nil, []refusal{{"nationality", consent.ReasonMissing}, {"age_over_16", consent.ReasonMissing}, {"liveness", consent.ReasonMissing}}},
		{"PROOF_ONLY empty string is no fact", consent.ModeProofOnly, []string{"document_type"}, consent.Facts{Identity: kyc},
			nil, []refusal{{"document_type", consent.ReasonMissing}}},
		{"PROOF_ONLY a boolean item stored as a string is no fact", consent.ModeProofOnly, []string{"is_adult"}, consent.Facts{Identity: chip},
			nil, []refusal{{"is_adult", consent.ReasonMissing}}},
		{"no identity: only liveness", consent.ModeProofOnly, []string{"identity", "liveness"}, consent.Facts{Liveness: live},
			nil, []refusal{{"identity", consent.ReasonMissing}}},
		{"identity not ACTIVE answers nothing", consent.ModeSelective, []string{"is_adult", "identity"}, consent.Facts{Identity: pending},
			nil, []refusal{{"is_adult", consent.ReasonMissing}, {"identity", consent.ReasonMissing}}},
		{"the bookkeeping member is never a fact", consent.ModeSelective, []string{"consent"}, consent.Facts{Identity: &identity.Identity{
			Status: identity.StatusActive, Claims: map[string]any{"consent": "x"}}},
			nil, []refusal{{"consent", consent.ReasonMissing}}},
		{"SELECTIVE values", consent.ModeSelective, []string{"nationality", "is_adult", "age_over_21", "kyc_level"}, consent.Facts{Identity: kyc},
			map[string]any{"nationality": "NG", "is_adult": true, "age_over_21": false, "kyc_level": float64(2)}, nil},
		{"SELECTIVE identity by KYC", consent.ModeSelective, []string{"identity"}, consent.Facts{Identity: kyc},
			map[string]any{"identity": map[string]any{"status": "ACTIVE", "level": "KYC", "country": "NG"}}, nil},
		{"SELECTIVE identity by chip, no country", consent.ModeSelective, []string{"identity", "chip_bound", "document_type"}, consent.Facts{Identity: chip},
			map[string]any{"identity": map[string]any{"status": "ACTIVE", "level": "CHIP"}, "chip_bound": true, "document_type": "P"}, nil},
		{"SELECTIVE chip_bound false", consent.ModeSelective, []string{"chip_bound"}, consent.Facts{Identity: kyc},
			map[string]any{"chip_bound": false}, nil},
		{"SELECTIVE liveness", consent.ModeSelective, []string{"liveness"}, consent.Facts{Liveness: live},
			map[string]any{"liveness": map[string]any{"level": "L2", "attestationId": "att_live", "issuedAt": "2026-03-01T12:00:00Z"}}, nil},
		{"SELECTIVE liveness without a level", consent.ModeSelective, []string{"liveness"},
			consent.Facts{Liveness: &attestation.Attestation{ID: "att_x", Claims: json.RawMessage(`{"level":"L9"}`)}},
			nil, []refusal{{"liveness", consent.ReasonMissing}}},
		{"nothing asked", consent.ModeSelective, nil, consent.Facts{}, map[string]any{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := consent.Disclose(tc.mode, tc.items, tc.facts)
			if tc.refused == nil {
				require.NoError(t, err)
				require.Equal(t, tc.want, got)
				// Claims are JSON: they survive a round trip unchanged.
				b, err := json.Marshal(got)
				require.NoError(t, err)
				var back map[string]any
				require.NoError(t, json.Unmarshal(b, &back))
				require.Equal(t, tc.want, back)
				return
			}
			require.Nil(t, got)
			require.Equal(t, veriland.CodeClaimUnavailable, veriland.CodeOf(err))
			var list veriland.Errors
			var one *veriland.Error
			if len(tc.refused) > 1 {
				require.ErrorAs(t, err, &list)
			} else {
				require.ErrorAs(t, err, &one)
				list = veriland.Errors{one}
			}
			require.Len(t, list, len(tc.refused))
			for i, want := range tc.refused {
				require.Equal(t, veriland.CodeClaimUnavailable, list[i].Code)
				require.Equal(t, want.item, list[i].Meta["item"])
				require.Equal(t, want.reason, list[i].Meta["reason"])
				require.Contains(t, list[i].Message, want.item)
			}
		})
	}
}

func TestParseClaims(t *testing.T) {
	facts, book, err := consent.ParseClaims(json.RawMessage(`{"is_adult":true,"consent":{"requestId":"vrq_1","mode":"SELECTIVE","disclosedScope":["is_adult"],"requireLiveness":{"minLevel":"L2","maxAgeDays":30}}}`))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"is_adult": true}, facts)
	require.Equal(t, "vrq_1", book.RequestID)
	require.Equal(t, &consent.LivenessRequirement{MinLevel: "L2", MaxAgeDays: 30}, book.RequireLiveness)

	// Attestations issued before the facts existed kept the bookkeeping flat.
	facts, book, err = consent.ParseClaims(json.RawMessage(`{"requestId":"vrq_old","decision":"APPROVED","mode":"FULL","disclosedScope":[]}`))
	require.NoError(t, err)
	require.Empty(t, facts)
	require.Equal(t, "vrq_old", book.RequestID)
	require.Equal(t, "vrq_old", consent.RequestIDOf(&attestation.Attestation{Kind: attestation.KindConsent, Claims: json.RawMessage(`{"requestId":"vrq_old"}`)}))

	for _, raw := range []string{`{"is_adult":true}`, `[]`, `{"consent":7}`, ``} {
		_, _, err := consent.ParseClaims(json.RawMessage(raw))
		require.Error(t, err, raw)
	}
	require.Empty(t, consent.RequestIDOf(nil))
	require.Empty(t, consent.RequestIDOf(&attestation.Attestation{Kind: attestation.KindLiveness, Claims: json.RawMessage(`{"consent":{"requestId":"vrq_1"}}`)}))
}
