package modexp

import "math/bits"

// The Montgomery arithmetic below works on numbers of len(m.n) limbs, all
// kept fully reduced (below N). t is scratch space of 2·len(m.n) limbs.

// redc sets z = t·R⁻¹ mod N for t < N·R (Montgomery reduction, one limb of
// t cleared per row); t is destroyed. z may not overlap t.
func (m *Modulus) redc(z, t []uint64) {
	n := len(m.n)
	t = t[:2*n]
	cc := redcRows(t, m.n, m.m0inv)
	// t[n:] + cc·R = t·R⁻¹ mod N, below 2N.
	if cc != 0 || !less(t[n:], m.n) {
		subVV(z, t[n:], m.n)
		return
	}
	copy(z, t[n:])
}

// montMul sets z = x·y·R⁻¹ mod N; z may alias x or y.
func (m *Modulus) montMul(z, x, y, t []uint64) {
	n := len(m.n)
	t = t[:2*n]
	clear(t[:n])
	mulRows(t, x[:n], y[:n])
	m.redc(z, t)
}

// montSqr sets z = x²·R⁻¹ mod N; z may alias x. The products x[i]·x[j] for
// i < j are computed once and doubled, then the squares x[i]² are added:
// n(n-1)/2 + n limb products instead of n², before the n² of the reduction.
func (m *Modulus) montSqr(z, x, t []uint64) {
	n := len(m.n)
	t = t[:2*n]
	clear(t)
	sqrRows(t, x[:n])
	addDoubleSquares(t, x[:n])
	m.redc(z, t)
}

// addDoubleSquaresGeneric is addDoubleSquares in Go.
func addDoubleSquaresGeneric(t, x []uint64) {
	t = t[:2*len(x)]
	var shift, c uint64
	for i, xi := range x {
		hi, lo := bits.Mul64(xi, xi)
		a, b := t[2*i], t[2*i+1]
		a2 := a<<1 | shift
		b2 := b<<1 | a>>63
		shift = b >> 63
		t[2*i], c = bits.Add64(a2, lo, c)
		t[2*i+1], c = bits.Add64(b2, hi, c)
	}
}

// redcRowsGeneric is redcRows with a call to addMulVVW per row.
func redcRowsGeneric(t, n []uint64, m0inv uint64) (cc uint64) {
	l := len(n)
	for i := 0; i < l; i++ {
		q := t[i] * m0inv
		c := addMulVVW(t[i:i+l], n, q)
		t[i+l], cc = bits.Add64(t[i+l], c, cc)
	}
	return cc
}

// mulRowsGeneric is mulRows with a call to addMulVVW per row.
func mulRowsGeneric(t, x, y []uint64) {
	l := len(x)
	for i := 0; i < l; i++ {
		t[i+l] = addMulVVW(t[i:i+l], x, y[i])
	}
}

// sqrRowsGeneric is sqrRows with a call to addMulVVW per row.
func sqrRowsGeneric(t, x []uint64) {
	l := len(x)
	for i := 0; i < l-1; i++ {
		// x[i]·x[j] for j > i lands at i+j: t[2i+1 : i+l], carry at t[i+l],
		// which no earlier row has reached.
		t[i+l] = addMulVVW(t[2*i+1:i+l], x[i+1:], x[i])
	}
}
