package attestation

import (
	"testing"

	"github.com/veriland/veriland/internal/ethsig"
)

func TestPrecomputedHashes(t *testing.T) {
	if typeHash() != ethsig.HashString(EncodedType) {
		t.Error("typeHash")
	}
	if domainTypeHash() != ethsig.HashString(ethsig.DomainType) {
		t.Error("domainTypeHash")
	}
	for _, chain := range []uint64{0, 1, 5, 11155111, 1<<64 - 1} {
		if computeDomainSeparator(chain) != Domain(chain).Separator() {
			t.Errorf("computeDomainSeparator(%d)", chain)
		}
		// Twice: computed, then from the cache.
		for range 2 {
			if domainSeparator(chain) != Domain(chain).Separator() {
				t.Errorf("domainSeparator(%d)", chain)
			}
		}
	}
	for _, k := range []string{"CONSENT", "LIVENESS", "CHIP_BINDING", "OTHER", ""} {
		if kindHash(k) != ethsig.HashString(k) {
			t.Errorf("kindHash(%q)", k)
		}
	}
}
