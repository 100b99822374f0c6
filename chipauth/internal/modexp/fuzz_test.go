package modexp

import (
	"bytes"
	"math/big"
	"testing"
)

// FuzzExp compares Exp with math/big on fuzzed moduli, bases and exponents,
// with every kernel, and NewModulus's refusals with its documented contract.
func FuzzExp(f *testing.F) {
	ones := bytes.Repeat([]byte{0xff}, 140)
	f.Add(ones[:129], []byte{2}, uint32(65537))
	f.Add(ones[:128], ones[:128], uint32(3))
	f.Add(append([]byte{0x80}, make([]byte, 255)...), []byte{0x7f, 0xff}, uint32(17))
	f.Add(append([]byte{1}, ones[:130]...), ones[:131], uint32(MaxExponent))
	f.Add(ones[:100], []byte{1}, uint32(65537)) // modulus too short
	f.Add(append([]byte{0x80}, make([]byte, 383)...), append([]byte{0x80}, make([]byte, 383)...), uint32(1))
	f.Fuzz(func(t *testing.T, nb, sig []byte, e32 uint32) {
		if len(nb) > MaxBits/8+1 || len(sig) > MaxBits/8+16 {
			return
		}
		e := int(e32%(1<<16)) + 1 // large exponents are slow in math/big
		if e32 == MaxExponent {
			e = MaxExponent
		}
		n := new(big.Int).SetBytes(nb)
		m, err := NewModulus(n)
		valid := n.Bit(0) == 1 && n.BitLen() >= MinBits && n.BitLen() <= MaxBits
		if valid != (err == nil) {
			t.Fatalf("NewModulus(%d-bit %x) = %v", n.BitLen(), n, err)
		}
		if err != nil {
			// Make a valid modulus of the fuzzed bytes, so that short inputs
			// exercise Exp too.
			n.SetBit(n, MinBits-1, 1).SetBit(n, 0, 1)
			if m, err = NewModulus(n); err != nil {
				return // too long
			}
		}
		withKernel(t, func(t testing.TB, k kernel) {
			checkExp(t, n, m, sig, e, k.String())
		})
	})
}
