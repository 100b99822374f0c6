package ethsig

import "testing"

func TestDomainTypeHash(t *testing.T) {
	if domainTypeHash() != HashString(DomainType) {
		t.Fatal("domainTypeHash is not keccak256(DomainType)")
	}
}
