package consent_test

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland/consent"
)

// TestConsentClaimsMarshalCanonical pins the field order of ConsentClaims: without a
// liveness requirement encoding/json must write it exactly as RFC 8785 does, so that
// an approval's attestation keeps the claims as marshalled (attestation.Draft)
// instead of parsing and printing them again.
func TestConsentClaimsMarshalCanonical(t *testing.T) {
	claims := map[string]any{
		"is_adult": true, "nationality": "NG",
		consent.ClaimConsent: consent.ConsentClaims{
			Deadline: 1795000000, DisclosedScope: []string{"is_adult", "nationality"},
			DisclosedScopeHash: common.HexToHash("0x01"), Mode: consent.ModeSelective,
			Nonce: common.HexToHash("0x02"), RequestID: "vrq_01",
		},
	}
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := jcs.Transform(b)
	if err != nil || string(canon) != string(b) {
		t.Fatalf("json.Marshal(claims) = %s, RFC 8785 form %s (%v)", b, canon, err)
	}
}
