package modexp

import (
	"errors"
	"math/big"
	"math/bits"
)

// MinBits and MaxBits bound the size of the moduli NewModulus accepts.
const (
	MinBits = 1024
	MaxBits = 8192
)

// ErrModulus is returned by NewModulus for a modulus that is nil, even, or
// outside MinBits..MaxBits bits.
var ErrModulus = errors.New("modexp: modulus must be odd and 1024 to 8192 bits")

// Modulus is an odd public modulus N with its Montgomery constants, ready for
// Exp. It is immutable and safe for concurrent use.
type Modulus struct {
	n       []uint64 // N, little-endian 64-bit limbs, n[len(n)-1] != 0
	m0inv   uint64   // -N⁻¹ mod 2⁶⁴
	rr      []uint64 // R² mod N, R = 2^(64·len(n))
	byteLen int      // N's length in bytes
}

// NewModulus prepares n for Exp; n is copied and may be modified afterwards.
// It returns ErrModulus unless n is odd and MinBits to MaxBits bits long.
//
// R² mod N is computed with one math/big division, in variable time: n must
// be public.
func NewModulus(n *big.Int) (*Modulus, error) {
	if n == nil || n.Sign() <= 0 || n.Bit(0) == 0 || n.BitLen() < MinBits || n.BitLen() > MaxBits {
		return nil, ErrModulus
	}
	limbs := (n.BitLen() + 63) / 64
	m := &Modulus{
		n:       natFromBig(n, limbs),
		byteLen: (n.BitLen() + 7) / 8,
	}
	m.m0inv = -inverse64(m.n[0])
	rr := new(big.Int).Lsh(big.NewInt(1), uint(2*64*limbs))
	rr.Mod(rr, n)
	m.rr = natFromBig(rr, limbs)
	return m, nil
}

// BitLen returns the length of N in bits.
func (m *Modulus) BitLen() int {
	return (len(m.n)-1)*64 + bits.Len64(m.n[len(m.n)-1])
}

// Size returns the length of N in bytes, the length of Exp's output.
func (m *Modulus) Size() int { return m.byteLen }

// natFromBig returns x (0 ≤ x < 2^(64·limbs)) as limbs little-endian words.
// It goes through bytes so as not to depend on the size of big.Word.
func natFromBig(x *big.Int, limbs int) []uint64 {
	z := make([]uint64, limbs)
	setBytes(z, x.FillBytes(make([]byte, 8*limbs)))
	return z
}

// inverse64 returns x⁻¹ mod 2⁶⁴ for odd x, by Newton's iteration: each step
// doubles the number of correct low bits, starting from 3 (x·x ≡ 1 mod 8).
func inverse64(x uint64) uint64 {
	y := x // correct to 3 bits
	for i := 0; i < 5; i++ {
		y *= 2 - x*y // 6, 12, 24, 48, 96 bits
	}
	return y
}
