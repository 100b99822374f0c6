package eccurve

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha512"
	"testing"
)

// benchmarkVerify measures one signature verification on the named curve,
// with the fixed-size code ("fixed") and crypto/ecdsa's generic path ("generic").
func benchmarkVerify(b *testing.B, name string) {
	c, ok := ByName(name)
	if !ok {
		b.Fatal(name)
	}
	k, err := ecdsa.GenerateKey(c.Curve, rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	sum := sha512.Sum512([]byte("bench"))
	digest := sum[:c.Curve.Params().N.BitLen()/8]
	r, s, err := ecdsa.Sign(rand.Reader, k, digest)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !Verify(name, k.X, k.Y, digest, r, s) {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !ecdsa.Verify(&k.PublicKey, digest, r, s) {
				b.Fatal("rejected")
			}
		}
	})
}

func BenchmarkVerifyBrainpool256(b *testing.B) { benchmarkVerify(b, "brainpoolP256r1") }
func BenchmarkVerifyBrainpool384(b *testing.B) { benchmarkVerify(b, "brainpoolP384r1") }
func BenchmarkVerifyBrainpool512(b *testing.B) { benchmarkVerify(b, "brainpoolP512r1") }
