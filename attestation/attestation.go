package attestation

import (
	"encoding/json"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Kind says what an attestation attests (SPEC S7).
type Kind string

// The attestation kinds.
const (
	KindConsent     Kind = "CONSENT"
	KindLiveness    Kind = "LIVENESS"
	KindChipBinding Kind = "CHIP_BINDING"
)

// Valid reports whether k is one of the attestation kinds.
func (k Kind) Valid() bool {
	return k == KindConsent || k == KindLiveness || k == KindChipBinding
}

// Status is whether an attestation still stands.
type Status string

// The attestation statuses. Expiry is not a status: it is checked against a time.
const (
	StatusValid   Status = "VALID"
	StatusRevoked Status = "REVOKED"
)

// AnchorStatus is how far an attestation's digest is on its way onto a chain.
type AnchorStatus string

// The anchor statuses.
const (
	AnchorPending  AnchorStatus = "PENDING"  // queued; the worker has not succeeded yet
	AnchorAnchored AnchorStatus = "ANCHORED" // in a block: TxHash and BlockNumber are set
	AnchorFailed   AnchorStatus = "FAILED"   // every attempt failed
	AnchorDisabled AnchorStatus = "DISABLED" // this service does not anchor
)

// Attestation is the signed statement the service issues (SPEC S7). Its signature
// covers the EIP-712 Message built from ID, Kind, Subject, Verifier, Scope, the JCS hash
// of Claims, EvidenceHash, IssuedAt and ExpiresAt; Status, RevokedAt, Anchor and
// TypedData are not signed. TypedData is the same message as a ready
// eth_signTypedData_v4 object, for clients; Verify checks it but never trusts it.
type Attestation struct {
	ID           string          `json:"id"`
	Kind         Kind            `json:"kind"`
	Subject      string          `json:"subject"`
	Verifier     string          `json:"verifier"`
	Scope        []string        `json:"scope"`
	Claims       json.RawMessage `json:"claims"`
	EvidenceHash common.Hash     `json:"evidenceHash"`
	IssuedAt     time.Time       `json:"issuedAt"`
	ExpiresAt    *time.Time      `json:"expiresAt"` // null: no expiry
	Status       Status          `json:"status"`
	RevokedAt    *time.Time      `json:"revokedAt,omitempty"`
	Issuer       IssuerRef       `json:"issuer"`
	TypedData    TypedData       `json:"typedData"`
	Signature    hexutil.Bytes   `json:"signature"`
	Anchor       AnchorState     `json:"anchor"`
	// RevocationAnchor tracks the anchoring of the revocation, once revoked.
	RevocationAnchor *AnchorState `json:"revocationAnchor,omitempty"`
}

// IssuerRef names the key that signed an attestation and the chainId of its domain.
type IssuerRef struct {
	Address common.Address `json:"address"`
	ChainID uint64         `json:"chainId"`
}

// AnchorState is the anchoring progress kept on an attestation.
type AnchorState struct {
	Status      AnchorStatus `json:"status"`
	TxHash      string       `json:"txHash,omitempty"`
	BlockNumber *uint64      `json:"blockNumber,omitempty"`
}

// Message returns the EIP-712 message att's signature covers, rebuilt from its fields
// (never from TypedData). It fails only when Claims is not valid JSON.
func (att *Attestation) Message() (*Message, error) {
	ch, err := ClaimsHash(att.Claims)
	if err != nil {
		return nil, err
	}
	return att.message(ch), nil
}

func (att *Attestation) message(claimsHash [32]byte) *Message {
	m := &Message{
		ID:           att.ID,
		Kind:         string(att.Kind),
		Subject:      att.Subject,
		Verifier:     att.Verifier,
		Scope:        att.Scope,
		ClaimsHash:   claimsHash,
		EvidenceHash: att.EvidenceHash,
		IssuedAt:     unixSeconds(att.IssuedAt),
	}
	if att.ExpiresAt != nil {
		m.ExpiresAt = unixSeconds(*att.ExpiresAt)
	}
	return m
}

// Expired reports whether att has expired at t.
func (att *Attestation) Expired(t time.Time) bool {
	return att.ExpiresAt != nil && !t.Before(*att.ExpiresAt)
}

// unixSeconds returns t in unix seconds, clamping times before 1970 to 0: the signed
// fields are unsigned.
func unixSeconds(t time.Time) uint64 {
	if s := t.Unix(); s > 0 {
		return uint64(s)
	}
	return 0
}
