package attestation

import (
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// EIP-712 names of the attestation layout (SPEC S7).
const (
	DomainName    = "Identity Attestation"
	DomainVersion = "1"
	PrimaryType   = "Attestation"
	// EncodedType is the EIP-712 encodeType of PrimaryType.
	EncodedType = "Attestation(string id,string kind,string subject,string verifier,string[] scope,bytes32 claimsHash,bytes32 evidenceHash,uint64 issuedAt,uint64 expiresAt)"
)

// Message is the EIP-712 message the issuer signs for an attestation. Times are unix
// seconds; ExpiresAt 0 means no expiry.
type Message struct {
	ID           string
	Kind         string
	Subject      string
	Verifier     string
	Scope        []string
	ClaimsHash   [32]byte
	EvidenceHash [32]byte
	IssuedAt     uint64
	ExpiresAt    uint64
}

// Domain returns the attestation domain for chainID.
func Domain(chainID uint64) ethsig.Domain {
	return ethsig.Domain{Name: DomainName, Version: DomainVersion, ChainID: chainID}
}

// StructHash returns the EIP-712 hashStruct of m, encoded by hand.
func (m *Message) StructHash() [32]byte {
	return ethsig.StructHash(typeHash(),
		ethsig.HashString(m.ID),
		kindHash(m.Kind),
		ethsig.HashString(m.Subject),
		ethsig.HashString(m.Verifier),
		ethsig.HashStrings(m.Scope),
		m.ClaimsHash,
		m.EvidenceHash,
		ethsig.Uint(m.IssuedAt),
		ethsig.Uint(m.ExpiresAt),
	)
}

// Digest returns the digest the issuer signs: EIP-712 over the attestation domain of
// chainID.
func (m *Message) Digest(chainID uint64) [32]byte {
	return ethsig.TypedDataDigest(domainSeparator(chainID), m.StructHash())
}

// Fields lists the members of the Attestation type, in order.
func Fields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "id", Type: "string"},
		{Name: "kind", Type: "string"},
		{Name: "subject", Type: "string"},
		{Name: "verifier", Type: "string"},
		{Name: "scope", Type: "string[]"},
		{Name: "claimsHash", Type: "bytes32"},
		{Name: "evidenceHash", Type: "bytes32"},
		{Name: "issuedAt", Type: "uint64"},
		{Name: "expiresAt", Type: "uint64"},
	}
}

// TypedData returns m as a ready eth_signTypedData_v4 object for chainID. Its apitypes
// hash equals Digest(chainID).
func (m *Message) TypedData(chainID uint64) TypedData {
	scope := make([]any, len(m.Scope))
	for i, s := range m.Scope {
		scope[i] = s
	}
	return TypedData(ethsig.NewTypedData(Domain(chainID), PrimaryType, Fields(), map[string]any{
		"id":           m.ID,
		"kind":         m.Kind,
		"subject":      m.Subject,
		"verifier":     m.Verifier,
		"scope":        scope,
		"claimsHash":   ethsig.Bytes32Value(m.ClaimsHash),
		"evidenceHash": ethsig.Bytes32Value(m.EvidenceHash),
		"issuedAt":     ethsig.UintValue(m.IssuedAt),
		"expiresAt":    ethsig.UintValue(m.ExpiresAt),
	}))
}
