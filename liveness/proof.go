package liveness

import (
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// EIP-712 names of the liveness proof layout (SPEC S4).
const (
	ProofDomainName    = "Identity Liveness"
	ProofDomainVersion = "1"
	ProofPrimaryType   = "LivenessProof"
	// ProofEncodedType is the EIP-712 encodeType of ProofPrimaryType.
	ProofEncodedType = "LivenessProof(string sessionId,bytes32 nonce,bytes32 merkleRoot,uint256 frameCount,uint256 sessionDurationMs)"
)

// LivenessProof is the EIP-712 message a device signs at the end of a liveness
// session: the session and its nonce, the Merkle root over the captured frames'
// (index, timestamp, frameDigest) leaves, and the capture's frame count and duration.
type LivenessProof struct {
	SessionID         string
	Nonce             [32]byte
	MerkleRoot        [32]byte
	FrameCount        uint64
	SessionDurationMs uint64
}

// ProofDomain returns the liveness domain for chainID.
func ProofDomain(chainID uint64) ethsig.Domain {
	return ethsig.Domain{Name: ProofDomainName, Version: ProofDomainVersion, ChainID: chainID}
}

// proofTypeHash is keccak256(ProofEncodedType), spelled out; a test checks it.
func proofTypeHash() [32]byte {
	return [32]byte{
		0xf3, 0x2a, 0xb2, 0xc6, 0xfa, 0x1e, 0x65, 0x2b, 0xa3, 0xf6, 0x65, 0x58, 0x9b, 0x2a, 0xce, 0x39,
		0xd8, 0x9f, 0xc7, 0xb5, 0xdf, 0x85, 0xce, 0xf5, 0x0a, 0x14, 0xef, 0x48, 0x98, 0x04, 0x81, 0x39,
	}
}

// StructHash returns the EIP-712 hashStruct of p, encoded by hand.
func (p *LivenessProof) StructHash() [32]byte {
	return ethsig.StructHash(proofTypeHash(),
		ethsig.HashString(p.SessionID),
		p.Nonce,
		p.MerkleRoot,
		ethsig.Uint(p.FrameCount),
		ethsig.Uint(p.SessionDurationMs),
	)
}

// Digest returns the digest the device signs: EIP-712 over the liveness domain of
// chainID, which comes from configuration, never from the client.
func (p *LivenessProof) Digest(chainID uint64) [32]byte {
	return ethsig.TypedDataDigest(ProofDomain(chainID).Separator(), p.StructHash())
}

// ProofFields lists the members of the LivenessProof type, in order.
func ProofFields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "sessionId", Type: "string"},
		{Name: "nonce", Type: "bytes32"},
		{Name: "merkleRoot", Type: "bytes32"},
		{Name: "frameCount", Type: "uint256"},
		{Name: "sessionDurationMs", Type: "uint256"},
	}
}

// TypedData returns p as a ready eth_signTypedData_v4 object for chainID. Its apitypes
// hash equals Digest(chainID).
func (p *LivenessProof) TypedData(chainID uint64) apitypes.TypedData {
	return ethsig.NewTypedData(ProofDomain(chainID), ProofPrimaryType, ProofFields(), map[string]any{
		"sessionId":         p.SessionID,
		"nonce":             ethsig.Bytes32Value(p.Nonce),
		"merkleRoot":        ethsig.Bytes32Value(p.MerkleRoot),
		"frameCount":        ethsig.UintValue(p.FrameCount),
		"sessionDurationMs": ethsig.UintValue(p.SessionDurationMs),
	})
}
