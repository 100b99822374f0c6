package attestation

import (
	"testing"
)

// BenchmarkVerifyHashing measures what Verify does besides the key recovery: JCS and
// keccak of the claims, the typedData check and the EIP-712 digest.
func BenchmarkVerifyHashing(b *testing.B) {
	att := &Attestation{
		ID: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa", Kind: KindConsent, Subject: "did:pkh:eip155:1:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23",
		Verifier: "verifier-acme-bank", Scope: []string{"identity", "is_adult"},
		Claims: []byte(`{"identity":true,"is_adult":true}`),
	}
	m0, _ := att.Message()
	att.TypedData = m0.TypedData(1)
	b.ReportAllocs()
	for b.Loop() {
		ch, err := ClaimsHash(att.Claims)
		if err != nil {
			b.Fatal(err)
		}
		m := att.message(ch)
		if err := checkTypedData(att, m, 1); err != nil {
			b.Fatal(err)
		}
		_ = m.Digest(1)
	}
}
