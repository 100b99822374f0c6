package modexp

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"filippo.io/bigmod"
)

// benchmarkInputs returns a random modulus of bits bits and a signature below it.
func benchmarkInputs(bits int) (*big.Int, []byte) {
	r := rand.New(rand.NewPCG(uint64(bits), 1))
	n := randomModulus(r, bits)
	return n, randomBelow(r, n).FillBytes(make([]byte, (bits+7)/8))
}

// BenchmarkExp measures s^65537 mod N, the RSA verification operation, with
// each kernel, next to math/big (what chipauth used above 2048 bits) and
// filippo.io/bigmod (what it used up to 2048 bits).
func BenchmarkExp(b *testing.B) {
	for _, bits := range []int{2048, 3072, 4096} {
		n, sig := benchmarkInputs(bits)
		m, err := NewModulus(n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(bits), func(b *testing.B) {
			withKernel(b, func(_ testing.TB, k kernel) {
				b.Run(k.String(), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, ok := m.Exp(sig, 65537); !ok {
							b.Fatal("Exp refused")
						}
					}
				})
			})
			b.Run("mathbig", func(b *testing.B) {
				b.ReportAllocs()
				e := big.NewInt(65537)
				for b.Loop() {
					s := new(big.Int).SetBytes(sig)
					s.Exp(s, e, n).FillBytes(make([]byte, m.Size()))
				}
			})
			if bits != 2048 {
				return // bigmod has assembly for 1024, 1536 and 2048 bits only
			}
			bm, err := bigmod.NewModulus(n.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			b.Run("bigmod", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s, err := bigmod.NewNat().SetBytes(sig, bm)
					if err != nil {
						b.Fatal(err)
					}
					bigmod.NewNat().ExpShortVarTime(s, 65537, bm).Bytes(bm)
				}
			})
		})
	}
}

// BenchmarkNewModulus measures preparing a modulus, which a DS key pays once
// per document.
func BenchmarkNewModulus(b *testing.B) {
	for _, bits := range []int{2048, 3072, 4096} {
		n, _ := benchmarkInputs(bits)
		b.Run(fmt.Sprint(bits), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewModulus(n); err != nil {
					b.Fatal(err)
				}
			}
		})
		if bits == 2048 {
			b.Run("2048/bigmod", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bigmod.NewModulus(n.Bytes()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
