package eccurve

import (
	"crypto/rand"
	"math/big"
	"testing"
)

// TestWNAF checks that the digits of wnaf sum back to the scalar and respect
// the NAF shape (odd digits in [−15, 15], window−1 zeros after each non-zero).
func TestWNAF(t *testing.T) {
	max512 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 512), big.NewInt(1))
	vals := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(15), big.NewInt(16), big.NewInt(31), max512}
	for range 50 {
		v, _ := rand.Int(rand.Reader, max512)
		vals = append(vals, v)
	}
	for _, v := range vals {
		k := fromBig(v)
		var digits [maxDigits]int8
		n := wnaf(&digits, &k, maxLimbs)
		sum := new(big.Int)
		gap := window
		for i := n - 1; i >= 0; i-- {
			sum.Lsh(sum, 1)
			sum.Add(sum, big.NewInt(int64(digits[i])))
		}
		for i := range n {
			d := digits[i]
			if d != 0 {
				if d%2 == 0 || d > 15 || d < -15 || gap < window-1 {
					t.Fatalf("%x: digit %d = %d after %d zeros", v, i, d, gap)
				}
				gap = 0
			} else {
				gap++
			}
		}
		if sum.Cmp(v) != 0 {
			t.Fatalf("wnaf(%x) sums to %x", v, sum)
		}
	}
}

// TestDoubleScalarMult compares u1·G + u2·Q with keybase's big.Int curve
// operations, including u1 or u2 zero, one and n−1, and Q = G.
func TestDoubleScalarMult(t *testing.T) {
	for _, c := range brainpools(t) {
		fc := fastCurves()[c.Name]
		cp := c.Curve.Params()
		nm1 := new(big.Int).Sub(cp.N, big.NewInt(1))
		d, _ := rand.Int(rand.Reader, cp.N)
		qx, qy := c.Curve.ScalarBaseMult(d.Bytes())
		scalars := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), nm1}
		for range 4 {
			v, _ := rand.Int(rand.Reader, cp.N)
			scalars = append(scalars, v)
		}
		for _, key := range [][2]*big.Int{{qx, qy}, {cp.Gx, cp.Gy}} {
			var q jacobian
			x, y := fromBig(key[0]), fromBig(key[1])
			fc.w.fp.toMont(&q.x, &x)
			fc.w.fp.toMont(&q.y, &y)
			q.z = fc.w.fp.one
			for _, a := range scalars {
				for _, b := range scalars {
					ax, ay := c.Curve.ScalarBaseMult(a.Bytes())
					bx, by := c.Curve.ScalarMult(key[0], key[1], b.Bytes())
					wx, wy := c.Curve.Add(ax, ay, bx, by)
					ua, ub := fromBig(a), fromBig(b)
					p := fc.w.doubleScalarMult(&fc.g, &q, &ua, &ub)
					gotX, gotY := affine(fc, &p)
					if wx.Sign() == 0 && wy.Sign() == 0 {
						if !fc.w.fp.isZero(&p.z) {
							t.Errorf("%s: %x·G + %x·Q: want infinity", c.Name, a, b)
						}
						continue
					}
					if gotX == nil || gotX.Cmp(wx) != 0 || gotY.Cmp(wy) != 0 {
						t.Errorf("%s: %x·G + %x·Q differs", c.Name, a, b)
					}
				}
			}
		}
	}
}

// affine converts p to big.Int affine coordinates, nil at infinity.
func affine(fc *fastCurve, p *jacobian) (x, y *big.Int) {
	f := fc.w.fp
	if f.isZero(&p.z) {
		return nil, nil
	}
	var zi, zi2, zi3, ax, ay limbs
	f.inv(&zi, &p.z)
	f.sqr(&zi2, &zi)
	f.mul(&zi3, &zi2, &zi)
	f.mul(&ax, &p.x, &zi2)
	f.mul(&ay, &p.y, &zi3)
	f.fromMont(&ax, &ax)
	f.fromMont(&ay, &ay)
	return toBig(&ax), toBig(&ay)
}

// toBig converts limbs to a big.Int.
func toBig(a *limbs) *big.Int {
	z := new(big.Int)
	for i := len(a) - 1; i >= 0; i-- {
		z.Lsh(z, 64)
		z.Or(z, new(big.Int).SetUint64(a[i]))
	}
	return z
}
