package parcel

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
)

// EIP-712 names of the owner's transfer consent (SPEC S13).
const (
	TransferDomainName    = "Land Transfer"
	TransferDomainVersion = "1"
	TransferPrimaryType   = "TransferConsent"
	// TransferEncodedType is the EIP-712 encodeType of TransferPrimaryType.
	TransferEncodedType = "TransferConsent(string transferId,string parcelId,uint64 fromVersion,bytes32 newOwnerIdDocHash,address newOwnerWallet,string notary,string decision,bytes32 nonce,uint64 deadline)"
)

// Owner decisions on a transfer, the "decision" member of a TransferConsent.
const (
	DecisionApproved = "APPROVED"
	DecisionRejected = "REJECTED"
)

var transferTypeHash = crypto.Keccak256Hash([]byte(TransferEncodedType))

// TransferConsent is the EIP-712 message the current owner signs to approve or
// refuse a transfer. NewOwnerIDDocHash is the keyed hash of the new owner's id_doc
// (the transfer's newOwner.idDocHash), NewOwnerWallet the new owner's wallet or the
// zero address, Nonce 32 random bytes made when the transfer was requested and
// Deadline the owner's deadline in unix seconds. The signature is only good for this
// transfer, this certificate version, this new owner and this notary.
type TransferConsent struct {
	TransferID        string
	ParcelID          string
	FromVersion       uint64
	NewOwnerIDDocHash [32]byte
	NewOwnerWallet    common.Address
	Notary            string
	Decision          string
	Nonce             [32]byte
	Deadline          uint64
}

// TransferDomain returns the transfer consent domain for chainID.
func TransferDomain(chainID uint64) ethsig.Domain {
	return ethsig.Domain{Name: TransferDomainName, Version: TransferDomainVersion, ChainID: chainID}
}

// StructHash returns the EIP-712 hashStruct of m, encoded by hand (tests check it
// against go-ethereum's apitypes).
func (m *TransferConsent) StructHash() [32]byte {
	var wallet [32]byte
	copy(wallet[12:], m.NewOwnerWallet[:])
	return ethsig.StructHash(transferTypeHash,
		ethsig.HashString(m.TransferID),
		ethsig.HashString(m.ParcelID),
		ethsig.Uint(m.FromVersion),
		m.NewOwnerIDDocHash,
		wallet,
		ethsig.HashString(m.Notary),
		ethsig.HashString(m.Decision),
		m.Nonce,
		ethsig.Uint(m.Deadline),
	)
}

// Digest returns the digest the owner signs, over the transfer domain of chainID
// (which comes from configuration, never from the client).
func (m *TransferConsent) Digest(chainID uint64) [32]byte {
	return ethsig.TypedDataDigest(TransferDomain(chainID).Separator(), m.StructHash())
}

// TransferConsentFields lists the members of the TransferConsent type, in order.
func TransferConsentFields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "transferId", Type: "string"},
		{Name: "parcelId", Type: "string"},
		{Name: "fromVersion", Type: "uint64"},
		{Name: "newOwnerIdDocHash", Type: "bytes32"},
		{Name: "newOwnerWallet", Type: "address"},
		{Name: "notary", Type: "string"},
		{Name: "decision", Type: "string"},
		{Name: "nonce", Type: "bytes32"},
		{Name: "deadline", Type: "uint64"},
	}
}

// TypedData returns m as a ready eth_signTypedData_v4 object for chainID; its apitypes
// hash equals Digest(chainID). The transfer serves it without "decision" (see
// OwnerConsent.TypedData).
func (m *TransferConsent) TypedData(chainID uint64) attestation.TypedData {
	return attestation.TypedData(ethsig.NewTypedData(TransferDomain(chainID), TransferPrimaryType, TransferConsentFields(), map[string]any{
		"transferId":        m.TransferID,
		"parcelId":          m.ParcelID,
		"fromVersion":       ethsig.UintValue(m.FromVersion),
		"newOwnerIdDocHash": ethsig.Bytes32Value(m.NewOwnerIDDocHash),
		"newOwnerWallet":    m.NewOwnerWallet.Hex(),
		"notary":            m.Notary,
		"decision":          m.Decision,
		"nonce":             ethsig.Bytes32Value(m.Nonce),
		"deadline":          ethsig.UintValue(m.Deadline),
	}))
}
