package consent_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/internal/ethsig"
)

func TestContextView(t *testing.T) {
	f := newFixture(t)
	r := f.create(func(c *consent.CreateRequest) {
		c.VerifierName = "Acme Bank"
		c.RequireLiveness = &consent.LivenessInput{MinLevel: "L3"}
	})
	view, err := f.svc.Context(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.VerifierRef{ID: "verifier-acme", Name: "Acme Bank"}, view.Verifier)
	require.Equal(t, &consent.LivenessRequirement{MinLevel: "L3", MaxAgeDays: consent.DefaultMaxAgeDays}, view.RequireLiveness)
	require.Equal(t, consent.ModeProofOnly, view.Mode)

	td := view.TypedData
	require.Equal(t, "Consent", td.PrimaryType)
	require.Equal(t, "Identity Consent", td.Domain.Name)
	require.Equal(t, "1", td.Domain.Version)
	require.Equal(t, int64(testChainID), (*big.Int)(td.Domain.ChainId).Int64())
	require.NotContains(t, td.Message, "decision")
	require.NotContains(t, td.Message, "disclosedScopeHash")
	require.Equal(t, r.ID, td.Message["requestId"])
	require.Equal(t, f.did, td.Message["subject"])
	require.Equal(t, "verifier-acme", td.Message["verifier"])
	require.Equal(t, r.Nonce.Hex(), td.Message["nonce"])

	// The presets fill the two missing members; the result hashes like the
	// hand-written encoder.
	require.Len(t, view.Presets, 2)
	for _, p := range view.Presets {
		msg := map[string]any{}
		for k, v := range td.Message {
			msg[k] = v
		}
		msg["decision"] = p.Decision
		msg["disclosedScopeHash"] = p.DisclosedScopeHash.Hex()
		full := td
		full.Message = msg
		got, _, _, err := ethsig.APIDigest(apitypes.TypedData(full))
		require.NoError(t, err)
		want := consent.ConsentMessage(r, consent.Status(p.Decision), p.DisclosedScope).Digest(testChainID)
		require.Equal(t, common.Hash(want), common.Hash(got))
	}

	// The JSON a wallet page reads.
	b, err := json.Marshal(view)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for _, k := range []string{"requestId", "status", "verifier", "subjectRef", "scope", "mode", "reason", "requireLiveness", "expiresAt", "typedData"} {
		require.Contains(t, m, k)
	}
	// The domain holds exactly the members EIP712Domain lists (ethers refuses an empty
	// verifyingContract), chainId as a JSON number (viem refuses a hex string).
	require.Equal(t, map[string]any{"name": "Identity Consent", "version": "1", "chainId": float64(testChainID)},
		m["typedData"].(map[string]any)["domain"])
	msg := m["typedData"].(map[string]any)["message"].(map[string]any)
	require.Equal(t, float64(r.Deadline()), msg["deadline"])
	require.NotContains(t, m, "callbackUrl")
	require.NotContains(t, m, "account")
	require.Equal(t, map[string]any{"minLevel": "L3", "maxAgeDays": float64(30)}, m["requireLiveness"])

	// Without requireLiveness the member is null; without a display name the sub shows.
	plain := f.create(nil)
	view, err = f.svc.Context(f.ctx, veriland.Sandbox, plain.ID)
	require.NoError(t, err)
	require.Equal(t, consent.VerifierRef{ID: "verifier-acme", Name: "verifier-acme"}, view.Verifier)
	b, err = json.Marshal(view)
	require.NoError(t, err)
	m = nil
	require.NoError(t, json.Unmarshal(b, &m))
	require.Contains(t, m, "requireLiveness")
	require.Nil(t, m["requireLiveness"])
}
