package attestation_test

import (
	"testing"

	"github.com/veriland/veriland/attestation"
)

// BenchmarkSign measures Issuer.Sign for the drafts of the tests: the signature, the
// hashing, and the claims' RFC 8785 form (kept as marshalled when encoding/json
// already wrote it canonically, as for these maps).
func BenchmarkSign(b *testing.B) {
	for _, c := range []struct {
		name  string
		draft func() attestation.Draft
	}{{"liveness", livenessDraft}, {"consent", consentDraft}} {
		b.Run(c.name, func(b *testing.B) {
			iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
			d := c.draft()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := iss.Sign(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
