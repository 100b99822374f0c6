package eccurve

import (
	"math/big"
	"math/bits"
)

// maxLimbs is the widest modulus the field code handles: 8×64 = 512 bits. Moduli
// of 4, 6 and 8 limbs (brainpoolP256r1, P384r1, P512r1) are supported.
const maxLimbs = 8

// limbs is a field element or integer in little-endian 64-bit limbs; only the
// first n limbs of the owning field are used.
type limbs [maxLimbs]uint64

// field is arithmetic modulo an odd m of n limbs in Montgomery form (R = 2^(64n)).
// It works for any odd modulus, including those with the top bit set, and is
// used both for the prime p and the group order of a curve. Values are public
// (signature verification), so branches on them are acceptable.
type field struct {
	n     int
	m     limbs
	m0inv uint64 // -m⁻¹ mod 2^64
	rr    limbs  // R² mod m, to enter Montgomery form
	one   limbs  // R mod m, the Montgomery form of 1
	bytes int    // byte length of m
}

// newField builds the field for an odd modulus of at most 512 bits.
func newField(m *big.Int) *field {
	f := &field{n: (m.BitLen() + 63) / 64, bytes: (m.BitLen() + 7) / 8}
	if m.Bit(0) == 0 || (f.n != 4 && f.n != 6 && f.n != 8) {
		panic("eccurve: modulus must be odd and of 193 to 512 bits, 4, 6 or 8 limbs") // curve constants only
	}
	f.m = fromBig(m)
	// Newton iteration for m⁻¹ mod 2^64, then negate.
	inv := uint64(1)
	for range 6 {
		inv *= 2 - f.m[0]*inv
	}
	f.m0inv = -inv
	r := new(big.Int).Lsh(big.NewInt(1), uint(64*f.n))
	f.one = fromBig(new(big.Int).Mod(r, m))
	f.rr = fromBig(new(big.Int).Mod(new(big.Int).Mul(r, r), m))
	return f
}

// fromBig converts a non-negative integer below 2^512 to limbs.
func fromBig(x *big.Int) limbs {
	var buf [8 * maxLimbs]byte
	x.FillBytes(buf[:])
	return fromBytes(buf[:])
}

// fromBytes converts a big-endian byte string of at most 64 bytes to limbs.
func fromBytes(b []byte) limbs {
	var z limbs
	for i := range b {
		k := len(b) - 1 - i // byte index from the least significant end
		z[k/8] |= uint64(b[i]) << (8 * (k % 8))
	}
	return z
}

// isZero reports whether the first n limbs of a are zero.
func (f *field) isZero(a *limbs) bool {
	var acc uint64
	for i := range f.n {
		acc |= a[i]
	}
	return acc == 0
}

// equal reports whether a and b agree on the first n limbs.
func (f *field) equal(a, b *limbs) bool {
	for i := range f.n {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// less reports a < b over n limbs.
func (f *field) less(a, b *limbs) bool {
	for i := f.n - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// subM sets z = a - m over n limbs and returns the borrow.
func (f *field) subM(z, a *limbs) uint64 {
	var b uint64
	for i := range f.n {
		z[i], b = bits.Sub64(a[i], f.m[i], b)
	}
	return b
}

// add sets z = a + b mod m for a, b < m.
func (f *field) add(z, a, b *limbs) {
	var c uint64
	var t limbs
	for i := range f.n {
		t[i], c = bits.Add64(a[i], b[i], c)
	}
	var d limbs
	borrow := f.subM(&d, &t)
	if c != 0 || borrow == 0 {
		t = d
	}
	*z = t
}

// sub sets z = a - b mod m for a, b < m.
func (f *field) sub(z, a, b *limbs) {
	var borrow uint64
	var t limbs
	for i := range f.n {
		t[i], borrow = bits.Sub64(a[i], b[i], borrow)
	}
	if borrow != 0 {
		var c uint64
		for i := range f.n {
			t[i], c = bits.Add64(t[i], f.m[i], c)
		}
	}
	*z = t
}

// mul sets z = a·b·R⁻¹ mod m (CIOS Montgomery multiplication) for a, b < m.
func (f *field) mul(z, a, b *limbs) {
	switch f.n {
	case 4:
		f.mul4(z, a, b)
	case 6:
		f.mul6(z, a, b)
	default:
		f.mul8(z, a, b)
	}
}

// sqr sets z = a²·R⁻¹ mod m.
func (f *field) sqr(z, a *limbs) {
	switch f.n {
	case 4:
		f.sqr4(z, a)
	case 6:
		f.sqr6(z, a)
	default:
		f.sqr8(z, a)
	}
}

// toMont converts a < m into Montgomery form.
func (f *field) toMont(z, a *limbs) { f.mul(z, a, &f.rr) }

// fromMont converts out of Montgomery form.
func (f *field) fromMont(z, a *limbs) {
	one := limbs{1}
	f.mul(z, a, &one)
}

// reduceOnce returns a mod m for a < 2m (a given over n limbs with no carry).
func (f *field) reduceOnce(a *limbs) limbs {
	var d limbs
	if f.subM(&d, a) == 0 {
		return d
	}
	return *a
}

// inv sets z = a⁻¹ (Montgomery form in and out) by Fermat, a^(m-2); m must
// be prime. The inverse of zero is zero.
func (f *field) inv(z, a *limbs) {
	e := f.m
	var b uint64
	e[0], b = bits.Sub64(e[0], 2, 0)
	for i := 1; i < f.n && b != 0; i++ {
		e[i], b = bits.Sub64(e[i], 0, b)
	}
	// 4-bit fixed window over the public exponent.
	var tbl [16]limbs
	tbl[0] = f.one
	tbl[1] = *a
	for i := 2; i < 16; i++ {
		f.mul(&tbl[i], &tbl[i-1], a)
	}
	r := f.one
	for i := 16*f.n - 1; i >= 0; i-- {
		for range 4 {
			f.sqr(&r, &r)
		}
		w := (e[i/16] >> (4 * (i % 16))) & 15
		if w != 0 {
			f.mul(&r, &r, &tbl[w])
		}
	}
	*z = r
}
