package eccurve

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"math/big"
	"testing"
)

// brainpools returns the curves Verify handles with fixed-size arithmetic.
func brainpools(t testing.TB) []Curve {
	var out []Curve
	for _, c := range Known() {
		if HasFastVerify(c.Name) {
			out = append(out, c)
		}
	}
	if len(out) != 3 {
		t.Fatalf("fast curves: %d, want 3", len(out))
	}
	return out
}

// generic is the reference: crypto/ecdsa on keybase's big.Int curves.
func generic(c Curve, x, y *big.Int, digest []byte, r, s *big.Int) bool {
	return ecdsa.Verify(&ecdsa.PublicKey{Curve: c.Curve, X: x, Y: y}, digest, r, s)
}

// TestVerifyDifferential compares Verify with crypto/ecdsa on random keys and
// signatures, valid and corrupted, for every brainpool curve and several
// digest lengths (shorter, equal to and longer than the order).
func TestVerifyDifferential(t *testing.T) {
	for _, c := range brainpools(t) {
		t.Run(c.Name, func(t *testing.T) {
			for i := range 12 {
				k, err := ecdsa.GenerateKey(c.Curve, rand.Reader)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha512.Sum512([]byte{byte(i)})
				digest := sum[:[]int{20, 32, 48, 64}[i%4]]
				r, s, err := ecdsa.Sign(rand.Reader, k, digest)
				if err != nil {
					t.Fatal(err)
				}
				n := c.Curve.Params().N
				cases := []struct {
					name         string
					digest       []byte
					r, s, qx, qy *big.Int
				}{
					{"valid", digest, r, s, k.X, k.Y},
					{"r+1", digest, new(big.Int).Add(r, big.NewInt(1)), s, k.X, k.Y},
					{"s+1", digest, r, new(big.Int).Add(s, big.NewInt(1)), k.X, k.Y},
					{"n-s", digest, r, new(big.Int).Sub(n, s), k.X, k.Y},
					{"digest", append([]byte{1}, digest[1:]...), r, s, k.X, k.Y},
					{"other key", digest, r, s, c.Curve.Params().Gx, c.Curve.Params().Gy},
					{"r+n", digest, new(big.Int).Add(r, n), s, k.X, k.Y},
				}
				for _, tc := range cases {
					want := generic(c, tc.qx, tc.qy, tc.digest, tc.r, tc.s)
					if got := Verify(c.Name, tc.qx, tc.qy, tc.digest, tc.r, tc.s); got != want {
						t.Errorf("%d %s: Verify = %v, crypto/ecdsa = %v", i, tc.name, got, want)
					}
					if tc.name == "valid" && !want {
						t.Errorf("%d: reference rejects a fresh signature", i)
					}
				}
				sig, err := ecdsa.SignASN1(rand.Reader, k, digest)
				if err != nil {
					t.Fatal(err)
				}
				if !VerifyASN1(c.Name, k.X, k.Y, digest, sig) {
					t.Errorf("%d: VerifyASN1 rejects a valid signature", i)
				}
				sig[len(sig)-1] ^= 1
				if VerifyASN1(c.Name, k.X, k.Y, digest, sig) {
					t.Errorf("%d: VerifyASN1 accepts a corrupted signature", i)
				}
			}
		})
	}
}

// TestVerifyEdges covers the cases the generic formulas do not meet by chance:
// Q = ±G, u1 = 0, u2·Q = −u1·G (sum at infinity), r and s at and beyond the
// range ends, off-curve and out-of-range keys, and unknown curves.
func TestVerifyEdges(t *testing.T) {
	for _, c := range brainpools(t) {
		t.Run(c.Name, func(t *testing.T) {
			cp := c.Curve.Params()
			n, p := cp.N, cp.P
			one := big.NewInt(1)
			negGy := new(big.Int).Sub(p, cp.Gy)
			nm1 := new(big.Int).Sub(n, one)
			// With Q = G and digest e, u1·G + u2·G = (e + r)·s⁻¹·G: choose r, s so
			// that the sum is G (s = e + r) and check r against Gx mod n.
			gxn := new(big.Int).Mod(cp.Gx, n)
			e := big.NewInt(5)
			sG := new(big.Int).Mod(new(big.Int).Add(e, gxn), n)
			// Q = −G, s = e − r: then u1·G + u2·Q = (e − r)/s·G = G.
			sNeg := new(big.Int).Mod(new(big.Int).Sub(e, gxn), n)
			// e = −r mod n with Q = G, any s: u1·G + u2·G = 0, infinity.
			eInf := new(big.Int).Sub(n, gxn).FillBytes(make([]byte, (n.BitLen()+7)/8))
			// Q = 2G and Q = G with u1 = u2, exercising doubling inside add.
			twoGx, twoGy := c.Curve.Double(cp.Gx, cp.Gy)
			eDbl := gxn.FillBytes(make([]byte, (n.BitLen()+7)/8))
			offY := new(big.Int).Add(cp.Gy, one)
			cases := []struct {
				name   string
				x, y   *big.Int
				digest []byte
				r, s   *big.Int
				want   bool
			}{
				{"Q=G valid", cp.Gx, cp.Gy, e.Bytes(), gxn, sG, true},
				{"Q=-G valid", cp.Gx, negGy, e.Bytes(), gxn, sNeg, true},
				{"sum at infinity", cp.Gx, cp.Gy, eInf, gxn, big.NewInt(7), false},
				{"u1=0", twoGx, twoGy, nil, gxn, big.NewInt(3), false},
				{"u1=u2 Q=G", cp.Gx, cp.Gy, eDbl, gxn, big.NewInt(9), false},
				{"r=0", cp.Gx, cp.Gy, e.Bytes(), big.NewInt(0), sG, false},
				{"s=0", cp.Gx, cp.Gy, e.Bytes(), gxn, big.NewInt(0), false},
				{"r=n", cp.Gx, cp.Gy, e.Bytes(), n, sG, false},
				{"s=n", cp.Gx, cp.Gy, e.Bytes(), gxn, n, false},
				{"r=-1", cp.Gx, cp.Gy, e.Bytes(), big.NewInt(-1), sG, false},
				{"r=n-1 s=n-1", cp.Gx, cp.Gy, e.Bytes(), nm1, nm1, false},
				{"r huge", cp.Gx, cp.Gy, e.Bytes(), new(big.Int).Lsh(one, 600), sG, false},
			}
			for _, tc := range cases {
				want := generic(c, tc.x, tc.y, tc.digest, tc.r, tc.s)
				if want != tc.want {
					t.Errorf("%s: crypto/ecdsa = %v, test expects %v", tc.name, want, tc.want)
				}
				if got := Verify(c.Name, tc.x, tc.y, tc.digest, tc.r, tc.s); got != want {
					t.Errorf("%s: Verify = %v, crypto/ecdsa = %v", tc.name, got, want)
				}
			}
			// Keys that must be rejected whatever the signature: crypto/ecdsa
			// does not check them, so only our result is asserted.
			for _, k := range []struct {
				name string
				x, y *big.Int
			}{
				{"off curve", cp.Gx, offY},
				{"x+p", new(big.Int).Add(cp.Gx, p), cp.Gy},
				{"y+p", cp.Gx, new(big.Int).Add(cp.Gy, p)},
				{"negative x", new(big.Int).Neg(cp.Gx), cp.Gy},
				{"origin", new(big.Int), new(big.Int)},
				{"nil", nil, cp.Gy},
			} {
				if Verify(c.Name, k.x, k.y, e.Bytes(), gxn, sG) {
					t.Errorf("%s key: accepted", k.name)
				}
			}
		})
	}
	g := elliptic.P256().Params()
	if HasFastVerify("P-256") || Verify("P-256", g.Gx, g.Gy, []byte{1}, big.NewInt(1), big.NewInt(1)) {
		t.Error("P-256 must stay on crypto/ecdsa")
	}
}

// TestFieldAgainstBig checks Montgomery multiplication, squaring, addition, subtraction
// and inversion against math/big for each modulus, including values near m.
func TestFieldAgainstBig(t *testing.T) {
	for _, c := range brainpools(t) {
		for _, m := range []*big.Int{c.Curve.Params().P, c.Curve.Params().N} {
			f := newField(m)
			rInv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), uint(64*f.n)), m)
			vals := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), new(big.Int).Sub(m, big.NewInt(1)), new(big.Int).Sub(m, big.NewInt(2))}
			for range 20 {
				v, _ := rand.Int(rand.Reader, m)
				vals = append(vals, v)
			}
			for _, a := range vals {
				for _, b := range vals[:8] {
					al, bl := fromBig(a), fromBig(b)
					var z limbs
					f.mul(&z, &al, &bl)
					want := new(big.Int).Mul(a, b)
					want.Mul(want, rInv).Mod(want, m)
					if z != fromBig(want) {
						t.Fatalf("%s mul(%x, %x)", c.Name, a, b)
					}
					f.add(&z, &al, &bl)
					if z != fromBig(new(big.Int).Mod(new(big.Int).Add(a, b), m)) {
						t.Fatalf("%s add(%x, %x)", c.Name, a, b)
					}
					f.sub(&z, &al, &bl)
					if z != fromBig(new(big.Int).Mod(new(big.Int).Sub(a, b), m)) {
						t.Fatalf("%s sub(%x, %x)", c.Name, a, b)
					}
				}
				al := fromBig(a)
				var sq, prod limbs
				f.sqr(&sq, &al)
				f.mul(&prod, &al, &al)
				if sq != prod {
					t.Fatalf("%s sqr(%x)", c.Name, a)
				}
				if a.Sign() == 0 {
					continue
				}
				var am, inv, back limbs
				f.toMont(&am, &al)
				f.inv(&inv, &am)
				f.fromMont(&back, &inv)
				if back != fromBig(new(big.Int).ModInverse(a, m)) {
					t.Fatalf("%s inv(%x)", c.Name, a)
				}
			}
		}
	}
}
