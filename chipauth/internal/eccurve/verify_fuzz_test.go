package eccurve

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"math/big"
	"testing"
)

// FuzzVerify compares Verify and VerifyASN1 with crypto/ecdsa on arbitrary
// digests and signatures, under a fixed on-curve key per curve (crypto/ecdsa
// does not reject off-curve keys, so keys are not fuzzed) and, when the
// input's key byte is odd, on the generator G as the key. Seeds include valid
// signatures.
func FuzzVerify(f *testing.F) {
	curves := brainpools(f)
	keys := make([]*ecdsa.PrivateKey, len(curves))
	for i, c := range curves {
		// A fixed private key so that the corpus stays meaningful across runs.
		h := sha256.Sum256([]byte(c.Name))
		d := new(big.Int).SetBytes(h[:])
		d.Mod(d, c.Curve.Params().N)
		x, y := c.Curve.ScalarBaseMult(d.Bytes())
		keys[i] = &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: c.Curve, X: x, Y: y}, D: d}
		digest := sha256.Sum256([]byte("seed"))
		sig, err := ecdsa.SignASN1(rand.Reader, keys[i], digest[:])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), digest[:], sig)
		f.Add(uint8(i+3), digest[:], sig)
		f.Add(uint8(i), []byte{}, []byte{0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01})
	}
	f.Fuzz(func(t *testing.T, which uint8, digest, sig []byte) {
		i := int(which) % len(curves)
		c := curves[i]
		pub := &keys[i].PublicKey
		if which&1 == 1 {
			pub = &ecdsa.PublicKey{Curve: c.Curve, X: c.Curve.Params().Gx, Y: c.Curve.Params().Gy}
		}
		want := ecdsa.VerifyASN1(pub, digest, sig)
		if got := VerifyASN1(c.Name, pub.X, pub.Y, digest, sig); got != want {
			t.Fatalf("%s: VerifyASN1 = %v, crypto/ecdsa = %v", c.Name, got, want)
		}
		// The raw halves as plain (r ‖ s) integers.
		if len(sig) >= 2 {
			r := new(big.Int).SetBytes(sig[:len(sig)/2])
			s := new(big.Int).SetBytes(sig[len(sig)/2:])
			want := ecdsa.Verify(pub, digest, r, s)
			if got := Verify(c.Name, pub.X, pub.Y, digest, r, s); got != want {
				t.Fatalf("%s: Verify = %v, crypto/ecdsa = %v", c.Name, got, want)
			}
		}
	})
}
