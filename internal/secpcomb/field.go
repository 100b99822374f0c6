package secpcomb

import (
	"math/big"
	"math/bits"
)

// fe is an element of the secp256k1 base field, p = 2^256 - 2^32 - 977, as four
// little-endian 64-bit limbs, always fully reduced (< p).
type fe [4]uint64

// reduceC is 2^256 mod p.
const reduceC = 0x1000003d1

// fieldP is p as a big.Int.
var fieldP, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16)

// feFromBytes sets z to the big-endian b and reports whether b < p.
func feFromBytes(z *fe, b *[32]byte) bool {
	for i := range 4 {
		z[i] = uint64(b[31-8*i]) | uint64(b[30-8*i])<<8 | uint64(b[29-8*i])<<16 | uint64(b[28-8*i])<<24 |
			uint64(b[27-8*i])<<32 | uint64(b[26-8*i])<<40 | uint64(b[25-8*i])<<48 | uint64(b[24-8*i])<<56
	}
	// z < p unless z + reduceC overflows 2^256.
	_, c := bits.Add64(z[0], reduceC, 0)
	_, c = bits.Add64(z[1], 0, c)
	_, c = bits.Add64(z[2], 0, c)
	_, c = bits.Add64(z[3], 0, c)
	return c == 0
}

// bytes returns z big-endian.
func (z *fe) bytes() [32]byte {
	var b [32]byte
	for i := range 4 {
		for k := range 8 {
			b[31-8*i-k] = byte(z[i] >> (8 * k))
		}
	}
	return b
}

func (z *fe) isZero() bool { return z[0]|z[1]|z[2]|z[3] == 0 }

// normalize subtracts p from the 256-bit value z when z >= p.
func (z *fe) normalize() {
	t0, c := bits.Add64(z[0], reduceC, 0)
	t1, c := bits.Add64(z[1], 0, c)
	t2, c := bits.Add64(z[2], 0, c)
	t3, c := bits.Add64(z[3], 0, c)
	if c != 0 { // z + 2^256 - p >= 2^256, i.e. z >= p
		*z = fe{t0, t1, t2, t3}
	}
}

// feAdd sets z = a + b.
func feAdd(z, a, b *fe) {
	s0, c := bits.Add64(a[0], b[0], 0)
	s1, c := bits.Add64(a[1], b[1], c)
	s2, c := bits.Add64(a[2], b[2], c)
	s3, c := bits.Add64(a[3], b[3], c)
	if c != 0 { // a + b >= 2^256 > p: subtract p, i.e. add 2^256 - p, dropping 2^256
		s0, c = bits.Add64(s0, reduceC, 0)
		s1, c = bits.Add64(s1, 0, c)
		s2, c = bits.Add64(s2, 0, c)
		s3, _ = bits.Add64(s3, 0, c)
		*z = fe{s0, s1, s2, s3}
		return
	}
	*z = fe{s0, s1, s2, s3}
	z.normalize()
}

// feSub sets z = a - b.
func feSub(z, a, b *fe) {
	d0, br := bits.Sub64(a[0], b[0], 0)
	d1, br := bits.Sub64(a[1], b[1], br)
	d2, br := bits.Sub64(a[2], b[2], br)
	d3, br := bits.Sub64(a[3], b[3], br)
	if br != 0 { // add p, i.e. subtract 2^256 - p, wrapping
		d0, br = bits.Sub64(d0, reduceC, 0)
		d1, br = bits.Sub64(d1, 0, br)
		d2, br = bits.Sub64(d2, 0, br)
		d3, _ = bits.Sub64(d3, 0, br)
	}
	*z = fe{d0, d1, d2, d3}
}

// feMul sets z = a * b: a 4×4-limb schoolbook product, row by row with mac, then
// reduce.
func feMul(z, a, b *fe) {
	b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
	var t0, t1, t2, t3, t4, t5, t6, t7, c uint64
	c, t0 = bits.Mul64(a[0], b0)
	c, t1 = madd(a[0], b1, c)
	c, t2 = madd(a[0], b2, c)
	t4, t3 = madd(a[0], b3, c)
	c, t1 = madd(a[1], b0, t1)
	c, t2 = mac(a[1], b1, t2, c)
	c, t3 = mac(a[1], b2, t3, c)
	t5, t4 = mac(a[1], b3, t4, c)
	c, t2 = madd(a[2], b0, t2)
	c, t3 = mac(a[2], b1, t3, c)
	c, t4 = mac(a[2], b2, t4, c)
	t6, t5 = mac(a[2], b3, t5, c)
	c, t3 = madd(a[3], b0, t3)
	c, t4 = mac(a[3], b1, t4, c)
	c, t5 = mac(a[3], b2, t5, c)
	t7, t6 = mac(a[3], b3, t6, c)
	reduce(z, t0, t1, t2, t3, t4, t5, t6, t7)
}

// madd returns x·y + t as hi, lo; it cannot overflow 128 bits.
func madd(x, y, t uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(x, y)
	var cc uint64
	lo, cc = bits.Add64(lo, t, 0)
	return hi + cc, lo
}

// mac returns x·y + t + c as hi, lo; it cannot overflow 128 bits.
func mac(x, y, t, c uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(x, y)
	var cc uint64
	lo, cc = bits.Add64(lo, t, 0)
	hi += cc
	lo, cc = bits.Add64(lo, c, 0)
	hi += cc
	return hi, lo
}

// feSquare sets z = a².
func feSquare(z, a *fe) { feMul(z, a, a) }

// reduce sets z to the 512-bit t0 + t1·2^64 + … + t7·2^448 mod p, using
// 2^256 ≡ reduceC.
func reduce(z *fe, t0, t1, t2, t3, t4, t5, t6, t7 uint64) {
	carry, r0 := madd(t4, reduceC, t0)
	carry, r1 := mac(t5, reduceC, t1, carry)
	carry, r2 := mac(t6, reduceC, t2, carry)
	carry, r3 := mac(t7, reduceC, t3, carry)
	// r + carry·2^256 with carry < 2^34: fold carry·reduceC in.
	hi, lo := bits.Mul64(carry, reduceC)
	var c uint64
	r0, c = bits.Add64(r0, lo, 0)
	r1, c = bits.Add64(r1, hi, c)
	r2, c = bits.Add64(r2, 0, c)
	r3, c = bits.Add64(r3, 0, c)
	if c != 0 { // the value was below 2^256 + 2^67: one more fold cannot carry
		r0, c = bits.Add64(r0, reduceC, 0)
		r1, c = bits.Add64(r1, 0, c)
		r2, c = bits.Add64(r2, 0, c)
		r3, _ = bits.Add64(r3, 0, c)
	}
	*z = fe{r0, r1, r2, r3}
	z.normalize()
}

// feInverse sets z = a⁻¹ (a ≠ 0).
func feInverse(z, a *fe) {
	b := a.bytes()
	inv := new(big.Int).ModInverse(new(big.Int).SetBytes(b[:]), fieldP)
	var out [32]byte
	inv.FillBytes(out[:])
	feFromBytes(z, &out)
}
