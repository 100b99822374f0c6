package eccurve

import (
	"math/big"
	"testing"
)

// TestCoefficients checks every curve's a and b against its own base point:
// Gy² = Gx³ + a·Gx + b (mod p), and that the curve's operations agree.
func TestCoefficients(t *testing.T) {
	for _, c := range Known() {
		p := c.Curve.Params()
		lhs := new(big.Int).Exp(p.Gy, big.NewInt(2), p.P)
		rhs := new(big.Int).Exp(p.Gx, big.NewInt(3), p.P)
		rhs.Add(rhs, new(big.Int).Mul(c.A, p.Gx))
		rhs.Add(rhs, c.B)
		rhs.Mod(rhs, p.P)
		if lhs.Cmp(rhs) != 0 {
			t.Errorf("%s: base point not on y² = x³ + ax + b", c.Name)
		}
		if !c.Curve.IsOnCurve(p.Gx, p.Gy) {
			t.Errorf("%s: IsOnCurve(G) false", c.Name)
		}
		if got, ok := ByOID(c.OID); !ok || got.Name != c.Name {
			t.Errorf("%s: ByOID", c.Name)
		}
		if got, ok := ByParams(p.P, c.A, c.B, p.N); !ok || got.Name != c.Name {
			t.Errorf("%s: ByParams", c.Name)
		}
		if got, ok := ByCurve(c.Curve); !ok || got.Name != c.Name {
			t.Errorf("%s: ByCurve", c.Name)
		}
	}
}
