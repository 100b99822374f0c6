package eccurve

import (
	"math/big"
	"testing"
)

// FuzzField compares Montgomery multiplication, squaring, addition,
// subtraction and inversion with math/big for arbitrary operands (reduced mod
// m first) under each brainpool p and n.
func FuzzField(f *testing.F) {
	f.Add(uint8(0), []byte{1}, []byte{2})
	f.Add(uint8(5), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte{})
	f.Add(uint8(2), make([]byte, 64), []byte{0xaa, 0x55})
	var moduli []*big.Int
	for _, c := range brainpools(f) {
		moduli = append(moduli, c.Curve.Params().P, c.Curve.Params().N)
	}
	f.Fuzz(func(t *testing.T, which uint8, ab, bb []byte) {
		m := moduli[int(which)%len(moduli)]
		fl := newField(m)
		a := new(big.Int).Mod(new(big.Int).SetBytes(ab), m)
		b := new(big.Int).Mod(new(big.Int).SetBytes(bb), m)
		rInv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), uint(64*fl.n)), m)
		al, bl := fromBig(a), fromBig(b)
		var z limbs
		fl.mul(&z, &al, &bl)
		if want := new(big.Int).Mul(a, b); z != fromBig(want.Mul(want, rInv).Mod(want, m)) {
			t.Fatalf("mul(%x, %x)", a, b)
		}
		fl.sqr(&z, &al)
		if want := new(big.Int).Mul(a, a); z != fromBig(want.Mul(want, rInv).Mod(want, m)) {
			t.Fatalf("sqr(%x)", a)
		}
		fl.add(&z, &al, &bl)
		if z != fromBig(new(big.Int).Mod(new(big.Int).Add(a, b), m)) {
			t.Fatalf("add(%x, %x)", a, b)
		}
		fl.sub(&z, &al, &bl)
		if z != fromBig(new(big.Int).Mod(new(big.Int).Sub(a, b), m)) {
			t.Fatalf("sub(%x, %x)", a, b)
		}
		if a.Sign() != 0 {
			var am, inv limbs
			fl.toMont(&am, &al)
			fl.inv(&inv, &am)
			fl.fromMont(&z, &inv)
			if z != fromBig(new(big.Int).ModInverse(a, m)) {
				t.Fatalf("inv(%x)", a)
			}
		}
	})
}
