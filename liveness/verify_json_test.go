package liveness_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/jsonappend"
	"github.com/veriland/veriland/liveness"
)

// TestVerifyResultAppendJSON holds VerifyResult.AppendJSON to json.Marshal.
func TestVerifyResultAppendJSON(t *testing.T) {
	for _, r := range []*liveness.VerifyResult{
		nil,
		{},
		{Status: liveness.StatusVerified, Level: "L2", Attestation: &attestation.Attestation{ID: "att_<1>", Claims: json.RawMessage(`{"level":"L2"}`)}},
		{Status: "é", Attestation: &attestation.Attestation{Claims: json.RawMessage(`nope`)}},
	} {
		require.NoError(t, jsonappend.SameAsMarshal(r))
	}
}
