package modexp

import "math/bits"

// MaxExponent is the largest exponent Exp accepts, the largest crypto/rsa
// accepts for a public key.
const MaxExponent = 1<<31 - 1

// Exp returns s^e mod N as a big-endian string of m.Size() bytes, s being the
// big-endian number sig (of any length, leading zeros allowed). ok is false,
// and out nil, when s ≥ N. Exp panics unless 1 ≤ e ≤ MaxExponent.
//
// Exp runs in time that depends on s and e: they must be public, as RSA
// signatures and public exponents are.
func (m *Modulus) Exp(sig []byte, e int) (out []byte, ok bool) {
	if e < 1 || e > MaxExponent {
		panic("modexp: exponent out of range")
	}
	n := len(m.n)
	buf := make([]uint64, 5*n)
	s, sR, acc, t := buf[:n], buf[n:2*n], buf[2*n:3*n], buf[3*n:]
	if !setBytes(s, sig) || !less(s, m.n) {
		return nil, false
	}
	out = make([]byte, m.byteLen)
	if e == 1 {
		fillBytes(out, s)
		return out, true
	}
	m.montMul(sR, s, m.rr, t) // s·R mod N
	copy(acc, sR)
	for i := bits.Len(uint(e)) - 2; i > 0; i-- {
		m.montSqr(acc, acc, t)
		if e>>i&1 == 1 {
			m.montMul(acc, acc, sR, t)
		}
	}
	// The last bit: acc = s^(e-1)·R after the squaring when e is odd, and
	// multiplying by s itself, not s·R, leaves the Montgomery domain at the
	// same time (s^(e-1)·R·s·R⁻¹ = s^e), saving a reduction.
	m.montSqr(acc, acc, t)
	if e&1 == 1 {
		m.montMul(acc, acc, s, t)
	} else {
		copy(t, acc) // out of the Montgomery domain: acc·1·R⁻¹
		clear(t[n : 2*n])
		m.redc(acc, t)
	}
	fillBytes(out, acc)
	return out, true
}
