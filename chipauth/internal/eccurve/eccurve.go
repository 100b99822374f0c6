package eccurve

import (
	"crypto/elliptic"
	"encoding/asn1"
	"math/big"

	"github.com/keybase/go-crypto/brainpool"
)

// Curve is an elliptic curve passive authentication accepts, with the
// domain parameters that explicit-parameter keys are matched against.
type Curve struct {
	Name  string
	OID   asn1.ObjectIdentifier
	Curve elliptic.Curve
	A, B  *big.Int // y² = x³ + ax + b over GF(p)
}

func mustHex(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("chipauth: bad curve constant " + s) // constants below are fixed; never reached
	}
	return n
}

// Known lists the curves of ICAO Doc 9303 part 12 that Go can verify on.
// It is built per call: there is no package-level mutable state.
func Known() []Curve {
	nist := func(name string, oid asn1.ObjectIdentifier, c elliptic.Curve) Curve {
		p := c.Params()
		return Curve{Name: name, OID: oid, Curve: c, A: new(big.Int).Sub(p.P, big.NewInt(3)), B: p.B}
	}
	// crypto/elliptic.CurveParams has no A and keybase's r1 curves leave B unset,
	// so the RFC 5639 coefficients are spelled out (checked in curve_test.go).
	return []Curve{
		nist("P-256", asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 7}, elliptic.P256()),
		nist("P-384", asn1.ObjectIdentifier{1, 3, 132, 0, 34}, elliptic.P384()),
		nist("P-521", asn1.ObjectIdentifier{1, 3, 132, 0, 35}, elliptic.P521()),
		{
			Name: "brainpoolP256r1", OID: asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 7}, Curve: brainpool.P256r1(),
			A: mustHex("7d5a0975fc2c3057eef67530417affe7fb8055c126dc5c6ce94a4b44f330b5d9"),
			B: mustHex("26dc5c6ce94a4b44f330b5d9bbd77cbf958416295cf7e1ce6bccdc18ff8c07b6"),
		},
		{
			Name: "brainpoolP384r1", OID: asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 11}, Curve: brainpool.P384r1(),
			A: mustHex("7bc382c63d8c150c3c72080ace05afa0c2bea28e4fb22787139165efba91f90f8aa5814a503ad4eb04a8c7dd22ce2826"),
			B: mustHex("04a8c7dd22ce28268b39b55416f0447c2fb77de107dcd2a62e880ea53eeb62d57cb4390295dbc9943ab78696fa504c11"),
		},
		{
			Name: "brainpoolP512r1", OID: asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 13}, Curve: brainpool.P512r1(),
			A: mustHex("7830a3318b603b89e2327145ac234cc594cbdd8d3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94ca"),
			B: mustHex("3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94cadc083e67984050b75ebae5dd2809bd638016f723"),
		},
	}
}

// ByOID finds a named curve by its OID.
func ByOID(oid asn1.ObjectIdentifier) (Curve, bool) {
	for _, c := range Known() {
		if c.OID.Equal(oid) {
			return c, true
		}
	}
	return Curve{}, false
}

// ByParams finds the known curve with prime p, coefficients a and b and order
// n. The caller compares the base point, whose encoding it has to decode.
func ByParams(p, a, b, n *big.Int) (Curve, bool) {
	for _, c := range Known() {
		cp := c.Curve.Params()
		if cp.P.Cmp(p) == 0 && c.A.Cmp(a) == 0 && c.B.Cmp(b) == 0 && cp.N.Cmp(n) == 0 {
			return c, true
		}
	}
	return Curve{}, false
}

// ByCurve finds the entry for an elliptic.Curve value.
func ByCurve(ec elliptic.Curve) (Curve, bool) {
	for _, c := range Known() {
		if c.Curve.Params() == ec.Params() {
			return c, true
		}
	}
	return Curve{}, false
}

// ByName finds a known curve by its name, e.g. "brainpoolP384r1".
func ByName(name string) (Curve, bool) {
	for _, c := range Known() {
		if c.Name == name {
			return c, true
		}
	}
	return Curve{}, false
}
