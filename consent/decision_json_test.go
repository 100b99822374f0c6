package consent_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/internal/jsonappend"
)

// TestDecisionResultAppendJSON holds DecisionResult.AppendJSON to json.Marshal.
func TestDecisionResultAppendJSON(t *testing.T) {
	for _, r := range []*consent.DecisionResult{
		nil,
		{},
		{RequestID: "vr_1", Status: consent.StatusRejected, Decision: consent.StatusRejected},
		{RequestID: "<&>\u2028", Status: consent.StatusApproved, Decision: consent.StatusApproved,
			Attestation: &attestation.Attestation{ID: "att_1", Claims: json.RawMessage(`{"a":true}`)}, Request: &consent.Request{}},
		{RequestID: "x", Attestation: &attestation.Attestation{Claims: json.RawMessage(`{`)}},
	} {
		require.NoError(t, jsonappend.SameAsMarshal(r))
	}
}
