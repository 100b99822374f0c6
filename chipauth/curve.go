package chipauth

import "math/big"

// decodePoint decodes an uncompressed (04) or compressed (02/03) point on the
// curve y² = x³ + ax + b mod p and checks that it lies on the curve.
func decodePoint(p, a, b *big.Int, data []byte) (x, y *big.Int, ok bool) {
	size := (p.BitLen() + 7) / 8
	if len(data) == 0 {
		return nil, nil, false
	}
	switch data[0] {
	case 4:
		if len(data) != 1+2*size {
			return nil, nil, false
		}
		x = new(big.Int).SetBytes(data[1 : 1+size])
		y = new(big.Int).SetBytes(data[1+size:])
	case 2, 3:
		if len(data) != 1+size {
			return nil, nil, false
		}
		x = new(big.Int).SetBytes(data[1:])
		if x.Cmp(p) >= 0 {
			return nil, nil, false
		}
		rhs := curveRHS(p, a, b, x)
		y = new(big.Int).ModSqrt(rhs, p)
		if y == nil {
			return nil, nil, false
		}
		if y.Bit(0) != uint(data[0]&1) {
			y.Sub(p, y)
		}
	default:
		return nil, nil, false
	}
	if x.Cmp(p) >= 0 || y.Cmp(p) >= 0 {
		return nil, nil, false
	}
	lhs := new(big.Int).Mul(y, y)
	lhs.Mod(lhs, p)
	if lhs.Cmp(curveRHS(p, a, b, x)) != 0 {
		return nil, nil, false
	}
	return x, y, true
}

// curveRHS computes x³ + ax + b mod p.
func curveRHS(p, a, b, x *big.Int) *big.Int {
	r := new(big.Int).Mul(x, x)
	r.Mul(r, x)
	ax := new(big.Int).Mul(a, x)
	r.Add(r, ax)
	r.Add(r, b)
	return r.Mod(r, p)
}
