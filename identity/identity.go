package identity

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// Status is the lifecycle state of an identity (SPEC S3).
type Status string

// The four identity states. An identity is created PENDING_KYC while its KYC provider
// is asked, and leaves that state exactly once.
const (
	StatusActive        Status = "ACTIVE"         // KYC approved, directly or by review
	StatusPendingKYC    Status = "PENDING_KYC"    // waiting for the provider's answer
	StatusPendingReview Status = "PENDING_REVIEW" // waiting for an admin's review decision
	StatusRejected      Status = "REJECTED"       // KYC or review refused; final
)

// Identity is the stored identity record. It holds no personal data: the subjectRef
// exists only as a keyed hash in the uniqueness index, the KYC payload is never kept,
// and Claims holds only derived, non-personal facts from an allow-list.
type Identity struct {
	DID           string               `json:"did"`
	Env           veriland.Environment `json:"env"`
	Status        Status               `json:"status"`
	CountryCode   string               `json:"countryCode"`
	WalletAddress string               `json:"walletAddress,omitempty"` // lower-case 0x, "" if none
	// Claims are the derived KYC claims (is_adult, nationality, …) that survived the
	// Service's claim allow-list; only meaningful while Status is ACTIVE.
	Claims      map[string]any `json:"claims,omitempty"`
	ReviewID    string         `json:"reviewId,omitempty"`    // the manual review, if one was opened
	ProviderRef string         `json:"providerRef,omitempty"` // the KYC provider's case reference
	CreatedAt   time.Time      `json:"createdAt"`
	UpdatedAt   time.Time      `json:"updatedAt"`
}

// WalletBound reports whether a wallet address is bound to the identity.
func (id *Identity) WalletBound() bool { return id.WalletAddress != "" }

// StatusReport is the public view of an identity (GET /identity/{did}/status). It
// carries no personal data.
type StatusReport struct {
	DID         string    `json:"did"`
	Status      Status    `json:"status"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	CountryCode string    `json:"countryCode"`
	WalletBound bool      `json:"walletBound"`
}

// Report returns the public status view of the identity.
func (id *Identity) Report() *StatusReport {
	return &StatusReport{
		DID:         id.DID,
		Status:      id.Status,
		CreatedAt:   id.CreatedAt,
		UpdatedAt:   id.UpdatedAt,
		CountryCode: id.CountryCode,
		WalletBound: id.WalletBound(),
	}
}

func (id *Identity) clone() *Identity {
	c := *id
	if id.Claims != nil {
		// Claims hold only scalars (see sanitizeClaims), so a shallow map copy is deep.
		c.Claims = make(map[string]any, len(id.Claims))
		for k, v := range id.Claims {
			c.Claims[k] = v
		}
	}
	return &c
}

func decodeIdentity(b []byte) (*Identity, error) {
	var id Identity
	if err := json.Unmarshal(b, &id); err != nil {
		return nil, err
	}
	return &id, nil
}

// DIDPrefix starts every identity DID.
const DIDPrefix = "did:veriland:"

// ValidDID reports whether did has the shape of an identity DID: DIDPrefix and 22
// base58 characters.
func ValidDID(did string) bool {
	rest, ok := strings.CutPrefix(did, DIDPrefix)
	if !ok || len(rest) != 22 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !strings.ContainsRune(base58Alphabet, rune(rest[i])) {
			return false
		}
	}
	return true
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
