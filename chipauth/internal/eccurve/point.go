package eccurve

import "math/bits"

// jacobian is a point (X/Z², Y/Z³) with coordinates in Montgomery form; Z = 0
// is the point at infinity.
type jacobian struct {
	x, y, z limbs
}

// weierstrass is a short Weierstrass curve y² = x³ + ax + b over fp with a
// arbitrary (brainpool's a is not -3), constants in Montgomery form.
type weierstrass struct {
	fp   *field
	a, b limbs
}

// double sets q = 2p (dbl-2007-bl, generic a). Infinity and points with Y = 0
// give Z = 0, the point at infinity.
func (c *weierstrass) double(q, p *jacobian) {
	f := c.fp
	var xx, yy, yyyy, zz, s, m, t, u limbs
	f.sqr(&xx, &p.x)
	f.sqr(&yy, &p.y)
	f.sqr(&yyyy, &yy)
	f.sqr(&zz, &p.z)
	// S = 2·((X+YY)² − XX − YYYY)
	f.add(&s, &p.x, &yy)
	f.sqr(&s, &s)
	f.sub(&s, &s, &xx)
	f.sub(&s, &s, &yyyy)
	f.add(&s, &s, &s)
	// M = 3·XX + a·ZZ²
	f.add(&m, &xx, &xx)
	f.add(&m, &m, &xx)
	f.sqr(&t, &zz)
	f.mul(&t, &t, &c.a)
	f.add(&m, &m, &t)
	// Z3 = (Y+Z)² − YY − ZZ, computed before X and Y of p are overwritten.
	var z3 limbs
	f.add(&z3, &p.y, &p.z)
	f.sqr(&z3, &z3)
	f.sub(&z3, &z3, &yy)
	f.sub(&z3, &z3, &zz)
	// X3 = M² − 2S
	f.sqr(&t, &m)
	f.sub(&t, &t, &s)
	f.sub(&t, &t, &s)
	// Y3 = M·(S − X3) − 8·YYYY
	f.sub(&u, &s, &t)
	f.mul(&u, &u, &m)
	f.add(&yyyy, &yyyy, &yyyy)
	f.add(&yyyy, &yyyy, &yyyy)
	f.add(&yyyy, &yyyy, &yyyy)
	f.sub(&u, &u, &yyyy)
	q.x, q.y, q.z = t, u, z3
}

// add sets q = p1 + p2 for any inputs, including infinity, p1 = p2 and p1 = −p2.
func (c *weierstrass) add(q, p1, p2 *jacobian) {
	f := c.fp
	if f.isZero(&p1.z) {
		*q = *p2
		return
	}
	if f.isZero(&p2.z) {
		*q = *p1
		return
	}
	var z1z1, z2z2, u1, u2, s1, s2, h, r limbs
	f.sqr(&z1z1, &p1.z)
	f.sqr(&z2z2, &p2.z)
	f.mul(&u1, &p1.x, &z2z2)
	f.mul(&u2, &p2.x, &z1z1)
	f.mul(&s1, &p1.y, &p2.z)
	f.mul(&s1, &s1, &z2z2)
	f.mul(&s2, &p2.y, &p1.z)
	f.mul(&s2, &s2, &z1z1)
	f.sub(&h, &u2, &u1)
	f.sub(&r, &s2, &s1)
	if f.isZero(&h) {
		if f.isZero(&r) {
			c.double(q, p1)
			return
		}
		*q = jacobian{} // p1 = −p2
		return
	}
	var hh, hhh, v, x3, y3, z3 limbs
	f.sqr(&hh, &h)
	f.mul(&hhh, &hh, &h)
	f.mul(&v, &u1, &hh)
	// X3 = r² − H³ − 2V
	f.sqr(&x3, &r)
	f.sub(&x3, &x3, &hhh)
	f.sub(&x3, &x3, &v)
	f.sub(&x3, &x3, &v)
	// Y3 = r·(V − X3) − S1·H³
	f.sub(&y3, &v, &x3)
	f.mul(&y3, &y3, &r)
	f.mul(&s1, &s1, &hhh)
	f.sub(&y3, &y3, &s1)
	// Z3 = Z1·Z2·H
	f.mul(&z3, &p1.z, &p2.z)
	f.mul(&z3, &z3, &h)
	q.x, q.y, q.z = x3, y3, z3
}

// onCurve reports whether the affine point (x, y), in Montgomery form, satisfies
// y² = x³ + ax + b.
func (c *weierstrass) onCurve(x, y *limbs) bool {
	f := c.fp
	var lhs, rhs limbs
	f.sqr(&lhs, y)
	f.sqr(&rhs, x)
	f.add(&rhs, &rhs, &c.a)
	f.mul(&rhs, &rhs, x)
	f.add(&rhs, &rhs, &c.b)
	return f.equal(&lhs, &rhs)
}

// window is the width of the wNAF digits of doubleScalarMult: digits are
// odd, in [−15, 15], and at least window−1 zeros follow each non-zero digit.
const window = 5

// maxDigits bounds the wNAF length of a scalar below 2^512.
const maxDigits = 64*maxLimbs + 1

// table holds the odd multiples P, 3P, …, 15P.
type table [1 << (window - 2)]jacobian

// newTable fills t with the odd multiples of p.
func (c *weierstrass) newTable(t *table, p *jacobian) {
	var p2 jacobian
	c.double(&p2, p)
	t[0] = *p
	for i := 1; i < len(t); i++ {
		c.add(&t[i], &t[i-1], &p2)
	}
}

// addDigit adds d·P to acc for a wNAF digit d, from P's table.
func (c *weierstrass) addDigit(acc *jacobian, t *table, d int8) {
	switch {
	case d > 0:
		c.add(acc, acc, &t[d/2])
	case d < 0:
		neg := t[(-d)/2]
		var zero limbs
		c.fp.sub(&neg.y, &zero, &neg.y)
		c.add(acc, acc, &neg)
	}
}

// wnaf writes the width-window NAF of the n-limb scalar k to digits, least
// significant first, and returns the number of digits.
func wnaf(digits *[maxDigits]int8, k *limbs, n int) int {
	var v [maxLimbs + 1]uint64
	copy(v[:n], k[:n])
	const mask = 1<<window - 1
	count := 0
	for {
		nonzero := false
		for _, x := range v {
			nonzero = nonzero || x != 0
		}
		if !nonzero {
			return count
		}
		var d int8
		if v[0]&1 == 1 {
			low := int(v[0] & mask)
			if low >= 1<<(window-1) {
				low -= 1 << window
			}
			d = int8(low)
			if low > 0 {
				v[0] -= uint64(low) // the low bits are low: no borrow
			} else {
				carry := uint64(-low)
				for j := range v {
					v[j], carry = bits.Add64(v[j], carry, 0)
				}
			}
		}
		digits[count] = d
		count++
		for j := range len(v) - 1 {
			v[j] = v[j]>>1 | v[j+1]<<63
		}
		v[len(v)-1] >>= 1
	}
}

// doubleScalarMult returns u1·G + u2·Q (Straus–Shamir interleaving of the
// width-5 NAFs of both scalars) for scalars given as n little-endian limbs.
func (c *weierstrass) doubleScalarMult(g, q *jacobian, u1, u2 *limbs) jacobian {
	var tg, tq table
	c.newTable(&tg, g)
	c.newTable(&tq, q)
	var d1, d2 [maxDigits]int8
	n1 := wnaf(&d1, u1, c.fp.n)
	n2 := wnaf(&d2, u2, c.fp.n)
	var acc jacobian
	started := false
	for i := max(n1, n2) - 1; i >= 0; i-- {
		if started {
			c.double(&acc, &acc)
		}
		if d1[i] != 0 {
			c.addDigit(&acc, &tg, d1[i])
			started = true
		}
		if d2[i] != 0 {
			c.addDigit(&acc, &tq, d2[i])
			started = true
		}
	}
	return acc
}
