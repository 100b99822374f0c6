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
	CountryCode   string               `json:"countryCode,omitempty"`   // as submitted; "" when none was given
	WalletAddress string               `json:"walletAddress,omitempty"` // lower-case 0x, "" if none
	// Claims are the identity's derived, non-personal facts (is_adult, age_over_18,
	// nationality, chip_bound, …) that survived the Service's claim allow-list: the
	// KYC provider's (KYCClaims) overlaid with those derived from the holder's latest
	// chip binding (ChipClaims), which take precedence for the same name. Consent
	// answers verifiers' scope items from it. Only meaningful while Status is ACTIVE.
	Claims map[string]any `json:"claims,omitempty"`
	// KYCClaims are the claims the KYC provider reported (after the allow-list).
	KYCClaims map[string]any `json:"kycClaims,omitempty"`
	// ChipClaims are the claims derived from the DG1 of the holder's latest chip
	// binding (SetChipClaims), after the allow-list.
	ChipClaims  map[string]any `json:"chipClaims,omitempty"`
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
	DID       string    `json:"did"`
	Status    Status    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// CountryCode is the country code given at issuance; omitted when none was.
	CountryCode string `json:"countryCode,omitempty"`
	WalletBound bool   `json:"walletBound"`
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
	c.Claims, c.KYCClaims, c.ChipClaims = copyClaims(id.Claims), copyClaims(id.KYCClaims), copyClaims(id.ChipClaims)
	return &c
}

// copyClaims copies a claim map. Claims hold only scalars (see sanitizeClaims), so a
// shallow map copy is deep.
func copyClaims(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// mergeClaims returns the effective claims: kyc overlaid with chip (chip wins), nil
// when both are empty.
func mergeClaims(kyc, chip map[string]any) map[string]any {
	if len(kyc) == 0 && len(chip) == 0 {
		return nil
	}
	out := make(map[string]any, len(kyc)+len(chip))
	for k, v := range kyc {
		out[k] = v
	}
	for k, v := range chip {
		out[k] = v
	}
	return out
}

func decodeIdentity(b []byte) (*Identity, error) {
	var id Identity
	if err := json.Unmarshal(b, &id); err != nil {
		return nil, err
	}
	if id.KYCClaims == nil && id.ChipClaims == nil && id.Claims != nil {
		// A record written before claims had sources: all of them were the KYC's.
		id.KYCClaims = copyClaims(id.Claims)
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
