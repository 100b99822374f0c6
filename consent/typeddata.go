package consent

import (
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// EIP-712 names of the consent layout (SPEC S5).
const (
	ConsentDomainName    = "Identity Consent"
	ConsentDomainVersion = "1"
	ConsentPrimaryType   = "Consent"
	// ConsentEncodedType is the EIP-712 encodeType of ConsentPrimaryType.
	ConsentEncodedType = "Consent(string requestId,string subject,string verifier,string decision,bytes32 disclosedScopeHash,bytes32 nonce,uint256 deadline)"
)

// ConsentTypedData is the EIP-712 message a holder signs to decide a verification
// request. Subject is the request's subjectRef, Verifier the verifier token's sub, Nonce
// the 32 random bytes made at request creation and Deadline its expiresAt in unix
// seconds.
type ConsentTypedData struct {
	RequestID          string
	Subject            string
	Verifier           string
	Decision           string
	DisclosedScopeHash [32]byte
	Nonce              [32]byte
	Deadline           uint64
}

// ConsentDomain returns the consent domain for chainID.
func ConsentDomain(chainID uint64) ethsig.Domain {
	return ethsig.Domain{Name: ConsentDomainName, Version: ConsentDomainVersion, ChainID: chainID}
}

// consentTypeHash is keccak256(ConsentEncodedType), spelled out; a test checks it.
func consentTypeHash() [32]byte {
	return [32]byte{
		0x03, 0xdc, 0xf6, 0x21, 0x1f, 0x75, 0xba, 0x9d, 0xae, 0xe3, 0xb2, 0x39, 0x0e, 0x27, 0x07, 0xf5,
		0x3d, 0x0c, 0x87, 0xc0, 0x87, 0xc3, 0x3c, 0x8d, 0xb9, 0xf6, 0xf6, 0x00, 0xb4, 0x10, 0x5a, 0xb4,
	}
}

// StructHash returns the EIP-712 hashStruct of c, encoded by hand.
func (c *ConsentTypedData) StructHash() [32]byte {
	return ethsig.StructHash(consentTypeHash(),
		ethsig.HashString(c.RequestID),
		ethsig.HashString(c.Subject),
		ethsig.HashString(c.Verifier),
		ethsig.HashString(c.Decision),
		c.DisclosedScopeHash,
		c.Nonce,
		ethsig.Uint(c.Deadline),
	)
}

// Digest returns the digest the holder signs: EIP-712 over the consent domain of
// chainID, which comes from configuration, never from the client.
func (c *ConsentTypedData) Digest(chainID uint64) [32]byte {
	return ethsig.TypedDataDigest(ConsentDomain(chainID).Separator(), c.StructHash())
}

// ConsentFields lists the members of the Consent type, in order.
func ConsentFields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "requestId", Type: "string"},
		{Name: "subject", Type: "string"},
		{Name: "verifier", Type: "string"},
		{Name: "decision", Type: "string"},
		{Name: "disclosedScopeHash", Type: "bytes32"},
		{Name: "nonce", Type: "bytes32"},
		{Name: "deadline", Type: "uint256"},
	}
}

// TypedData returns c as a ready eth_signTypedData_v4 object for chainID. Its apitypes
// hash equals Digest(chainID). To hand out a template for the holder to complete,
// delete "decision" and "disclosedScopeHash" from its Message.
func (c *ConsentTypedData) TypedData(chainID uint64) apitypes.TypedData {
	return ethsig.NewTypedData(ConsentDomain(chainID), ConsentPrimaryType, ConsentFields(), map[string]any{
		"requestId":          c.RequestID,
		"subject":            c.Subject,
		"verifier":           c.Verifier,
		"decision":           c.Decision,
		"disclosedScopeHash": ethsig.Bytes32Value(c.DisclosedScopeHash),
		"nonce":              ethsig.Bytes32Value(c.Nonce),
		"deadline":           ethsig.UintValue(c.Deadline),
	})
}

// DisclosedScopeHash returns keccak256 of the concatenated keccak256 of each disclosed
// item, in the order sent: EIP-712's encoding of a string[]. The empty list hashes to
// keccak256 of nothing.
func DisclosedScopeHash(items []string) [32]byte {
	return ethsig.HashStrings(items)
}
