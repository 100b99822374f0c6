package consent

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
)

func TestConsentTypedDataVectors(t *testing.T) {
	for _, v := range ethsigtest.Load(t, "testdata/veriland_typed_data.json", ConsentPrimaryType) {
		t.Run(v.Name, func(t *testing.T) {
			var m struct {
				RequestID, Subject, Verifier, Decision string
				DisclosedScopeHash, Nonce              common.Hash
				Deadline                               uint64
			}
			b, _ := json.Marshal(v.Message)
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			c := ConsentTypedData{
				RequestID: m.RequestID, Subject: m.Subject, Verifier: m.Verifier, Decision: m.Decision,
				DisclosedScopeHash: m.DisclosedScopeHash, Nonce: m.Nonce, Deadline: m.Deadline,
			}
			chain := v.ChainID()
			ethsigtest.Check(t, v, c.TypedData(chain),
				ConsentDomain(chain).Separator(), c.StructHash(), c.Digest(chain), c.Digest(5))

			if got := DisclosedScopeHash(v.DisclosedScope); got != c.DisclosedScopeHash {
				t.Errorf("DisclosedScopeHash(%q) = %x, want %x", v.DisclosedScope, got, c.DisclosedScopeHash)
			}
			if v.EmptyScopeHash != (common.Hash{}) && DisclosedScopeHash(nil) != v.EmptyScopeHash {
				t.Errorf("DisclosedScopeHash(nil) = %x, want %s", DisclosedScopeHash(nil), v.EmptyScopeHash)
			}
		})
	}
}

func TestConsentTypeHash(t *testing.T) {
	if consentTypeHash() != ethsig.HashString(ConsentEncodedType) {
		t.Fatal("consentTypeHash is not keccak256(ConsentEncodedType)")
	}
	var c ConsentTypedData
	td := c.TypedData(1)
	if got := string(td.EncodeType(ConsentPrimaryType)); got != ConsentEncodedType {
		t.Fatalf("apitypes encodeType = %q", got)
	}
}
