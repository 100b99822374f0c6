package eccurve

import (
	"math/big"
	"sync"

	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"
)

// fastCurve is a curve with fixed-size arithmetic for ECDSA verification.
type fastCurve struct {
	w      weierstrass
	fn     *field   // arithmetic modulo the group order
	g      jacobian // base point, Montgomery form
	nBits  int      // bit length of the order
	nBytes int
}

// fastCurves builds the fixed-size curves once; they are never modified.
var fastCurves = sync.OnceValue(func() map[string]*fastCurve {
	out := map[string]*fastCurve{}
	for _, c := range Known() {
		if len(c.Name) < 9 || c.Name[:9] != "brainpool" {
			continue
		}
		p := c.Curve.Params()
		fc := &fastCurve{w: weierstrass{fp: newField(p.P)}, fn: newField(p.N), nBits: p.N.BitLen(), nBytes: (p.N.BitLen() + 7) / 8}
		fp := fc.w.fp
		if fc.fn.n != fp.n || new(big.Int).Lsh(p.N, 1).Cmp(p.P) <= 0 {
			// verifyBytes reduces x mod n with one subtraction.
			panic("eccurve: " + c.Name + ": order not within a factor 2 of p") // curve constants only
		}
		a, b, gx, gy := fromBig(c.A), fromBig(c.B), fromBig(p.Gx), fromBig(p.Gy)
		fp.toMont(&fc.w.a, &a)
		fp.toMont(&fc.w.b, &b)
		fp.toMont(&fc.g.x, &gx)
		fp.toMont(&fc.g.y, &gy)
		fc.g.z = fp.one
		out[c.Name] = fc
	}
	return out
})

// HasFastVerify reports whether Verify uses fixed-size arithmetic for the named
// curve (the brainpool curves). For the NIST curves crypto/ecdsa is already fast.
func HasFastVerify(curve string) bool {
	_, ok := fastCurves()[curve]
	return ok
}

// VerifyASN1 verifies an ASN.1 DER ECDSA signature, parsed exactly as
// crypto/ecdsa.VerifyASN1 parses it, by the public key (x, y) on the named curve.
// It returns false for curves HasFastVerify does not know.
func VerifyASN1(curve string, x, y *big.Int, digest, sig []byte) bool {
	var inner cryptobyte.String
	var r, s []byte
	input := cryptobyte.String(sig)
	if !input.ReadASN1(&inner, asn1.SEQUENCE) || !input.Empty() ||
		!inner.ReadASN1Integer(&r) || !inner.ReadASN1Integer(&s) || !inner.Empty() {
		return false
	}
	return verifyBytes(curve, x, y, digest, r, s)
}

// Verify reports whether (r, s) is a valid ECDSA signature of digest by the
// public key (x, y) on the named curve, with the same result as crypto/ecdsa.Verify:
// the digest is truncated to the order's bit length, r and s must be in
// [1, n−1]. Keys off the curve or with coordinates outside [0, p−1] are rejected.
// It returns false for curves HasFastVerify does not know.
func Verify(curve string, x, y *big.Int, digest []byte, r, s *big.Int) bool {
	if x == nil || y == nil || r == nil || s == nil || r.Sign() <= 0 || s.Sign() <= 0 {
		return false
	}
	var rb, sb [8 * maxLimbs]byte
	if r.BitLen() > 8*len(rb) || s.BitLen() > 8*len(sb) {
		return false
	}
	return verifyBytes(curve, x, y, digest, r.FillBytes(rb[:]), s.FillBytes(sb[:]))
}

// verifyBytes is Verify with r and s as big-endian unsigned bytes (leading
// zeros allowed).
func verifyBytes(curve string, x, y *big.Int, digest, rBytes, sBytes []byte) bool {
	c, ok := fastCurves()[curve]
	if !ok || x == nil || y == nil || x.Sign() < 0 || y.Sign() < 0 {
		return false
	}
	fp, fn := c.w.fp, c.fn
	r, ok := scalar(fn, rBytes)
	if !ok {
		return false
	}
	s, ok := scalar(fn, sBytes)
	if !ok {
		return false
	}
	// Public key: coordinates in [0, p−1], on the curve.
	var xb, yb [8 * maxLimbs]byte
	if x.BitLen() > fp.bytes*8 || y.BitLen() > fp.bytes*8 {
		return false
	}
	qx, qy := fromBytes(x.FillBytes(xb[:fp.bytes])), fromBytes(y.FillBytes(yb[:fp.bytes]))
	if !fp.less(&qx, &fp.m) || !fp.less(&qy, &fp.m) {
		return false
	}
	var q jacobian
	fp.toMont(&q.x, &qx)
	fp.toMont(&q.y, &qy)
	q.z = fp.one
	if !c.w.onCurve(&q.x, &q.y) {
		return false
	}

	e := c.digestScalar(digest)
	// w = s⁻¹, u1 = e·w, u2 = r·w (mod n), in Montgomery form then out.
	var sm, w, em, rm, u1, u2 limbs
	fn.toMont(&sm, &s)
	fn.inv(&w, &sm)
	fn.toMont(&em, &e)
	fn.toMont(&rm, &r)
	fn.mul(&u1, &em, &w)
	fn.mul(&u2, &rm, &w)
	fn.fromMont(&u1, &u1)
	fn.fromMont(&u2, &u2)

	p := c.w.doubleScalarMult(&c.g, &q, &u1, &u2)
	if fp.isZero(&p.z) {
		return false
	}
	// x = X/Z², back to an integer, reduced mod n (p < 2n, so once).
	var zinv, ax limbs
	fp.inv(&zinv, &p.z)
	fp.sqr(&zinv, &zinv)
	fp.mul(&ax, &p.x, &zinv)
	fp.fromMont(&ax, &ax)
	ax = fn.reduceOnce(&ax)
	return fn.equal(&ax, &r)
}

// scalar parses a big-endian integer and checks 1 ≤ v ≤ n−1.
func scalar(fn *field, b []byte) (limbs, bool) {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > fn.bytes {
		return limbs{}, false
	}
	v := fromBytes(b)
	return v, fn.less(&v, &fn.m)
}

// digestScalar is crypto/ecdsa's hashToInt: the leftmost bits of the digest,
// as many as the order has, reduced mod n (the value is below 2n).
func (c *fastCurve) digestScalar(digest []byte) limbs {
	if len(digest) > c.nBytes {
		digest = digest[:c.nBytes]
	}
	e := fromBytes(digest)
	if excess := len(digest)*8 - c.nBits; excess > 0 {
		shiftRight(&e, uint(excess))
	}
	return c.fn.reduceOnce(&e)
}

// shiftRight shifts e right by k < 64 bits.
func shiftRight(e *limbs, k uint) {
	for i := range e {
		var hi uint64
		if i+1 < len(e) {
			hi = e[i+1]
		}
		e[i] = e[i]>>k | hi<<(64-k)
	}
}
