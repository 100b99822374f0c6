package liveness

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
)

func TestLivenessProofVectors(t *testing.T) {
	for _, v := range ethsigtest.Load(t, "testdata/veriland_typed_data.json", ProofPrimaryType) {
		t.Run(v.Name, func(t *testing.T) {
			var m struct {
				SessionID                     string
				Nonce, MerkleRoot             common.Hash
				FrameCount, SessionDurationMs uint64
			}
			b, _ := json.Marshal(v.Message)
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			p := LivenessProof{
				SessionID: m.SessionID, Nonce: m.Nonce, MerkleRoot: m.MerkleRoot,
				FrameCount: m.FrameCount, SessionDurationMs: m.SessionDurationMs,
			}
			chain := v.ChainID()
			ethsigtest.Check(t, v, p.TypedData(chain),
				ProofDomain(chain).Separator(), p.StructHash(), p.Digest(chain), p.Digest(5))
		})
	}
}

func TestLivenessProofTypeHash(t *testing.T) {
	if proofTypeHash() != ethsig.HashString(ProofEncodedType) {
		t.Fatal("proofTypeHash is not keccak256(ProofEncodedType)")
	}
	var p LivenessProof
	td := p.TypedData(1)
	if got := string(td.EncodeType(ProofPrimaryType)); got != ProofEncodedType {
		t.Fatalf("apitypes encodeType = %q", got)
	}
}
