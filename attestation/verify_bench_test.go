package attestation_test

import (
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/attestation"
)

// BenchmarkVerify and BenchmarkEcrecover sit together so that the cost of everything
// Verify does besides the public key recovery (hashing, JCS of the claims, the
// typedData check) can be read as their ratio.
func BenchmarkVerify(b *testing.B) {
	iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
	att, err := iss.Sign(consentDraft())
	if err != nil {
		b.Fatal(err)
	}
	att = roundTrip(b, att)
	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{iss.Address()}, ChainID: 1, Now: t0.Add(time.Hour)}
	b.ReportAllocs()
	for b.Loop() {
		if err := attestation.Verify(att, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEcrecover(b *testing.B) {
	iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
	digest := crypto.Keccak256([]byte("digest"))
	sig, err := crypto.Sign(digest, iss.Key)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.Ecrecover(digest, sig); err != nil {
			b.Fatal(err)
		}
	}
}
