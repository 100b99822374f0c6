package secpcomb

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func feBig(a *fe) *big.Int {
	b := a.bytes()
	return new(big.Int).SetBytes(b[:])
}

func bigFe(t testing.TB, x *big.Int) fe {
	t.Helper()
	var b [32]byte
	new(big.Int).Mod(x, fieldP).FillBytes(b[:])
	var z fe
	if !feFromBytes(&z, &b) {
		t.Fatalf("%x does not fit", b)
	}
	return z
}

// fieldSamples returns edge values (0, 1, p-1, p-2, limb boundaries) and random ones.
func fieldSamples(t testing.TB) []fe {
	one := big.NewInt(1)
	vals := []*big.Int{
		big.NewInt(0), one, big.NewInt(2), big.NewInt(reduceC), new(big.Int).Sub(fieldP, one),
		new(big.Int).Sub(fieldP, big.NewInt(2)), new(big.Int).Lsh(one, 64), new(big.Int).Lsh(one, 255),
		new(big.Int).Sub(new(big.Int).Lsh(one, 192), one), new(big.Int).Rsh(fieldP, 1),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b [32]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		vals = append(vals, new(big.Int).SetBytes(b[:]))
	}
	out := make([]fe, len(vals))
	for i, v := range vals {
		out[i] = bigFe(t, v)
	}
	return out
}

func checkField(t *testing.T, a, b fe) {
	t.Helper()
	A, B := feBig(&a), feBig(&b)
	var z fe
	for _, c := range []struct {
		name string
		op   func()
		want *big.Int
	}{
		{"add", func() { feAdd(&z, &a, &b) }, new(big.Int).Add(A, B)},
		{"sub", func() { feSub(&z, &a, &b) }, new(big.Int).Sub(A, B)},
		{"mul", func() { feMul(&z, &a, &b) }, new(big.Int).Mul(A, B)},
		{"square", func() { feSquare(&z, &a) }, new(big.Int).Mul(A, A)},
	} {
		c.op()
		want := c.want.Mod(c.want, fieldP)
		if got := feBig(&z); got.Cmp(want) != 0 || !feFromBytesOK(&z) {
			t.Fatalf("%s(%x, %x) = %x, want %x", c.name, A, B, got, want)
		}
	}
	if A.Sign() != 0 {
		feInverse(&z, &a)
		var one fe
		feMul(&one, &z, &a)
		if one != feOne {
			t.Fatalf("inverse(%x) is wrong", A)
		}
	}
}

// feFromBytesOK reports whether z is fully reduced.
func feFromBytesOK(z *fe) bool {
	b := z.bytes()
	var back fe
	return feFromBytes(&back, &b) && back == *z
}

func TestFieldAgainstBigInt(t *testing.T) {
	s := fieldSamples(t)
	for _, a := range s {
		for _, b := range s[:20] {
			checkField(t, a, b)
			checkField(t, b, a)
		}
	}
}

func TestFeFromBytesRefusesP(t *testing.T) {
	var b [32]byte
	fieldP.FillBytes(b[:])
	var z fe
	if feFromBytes(&z, &b) {
		t.Fatal("p accepted as a field element")
	}
	new(big.Int).Sub(fieldP, big.NewInt(1)).FillBytes(b[:])
	if !feFromBytes(&z, &b) {
		t.Fatal("p-1 refused")
	}
}

func FuzzField(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(append(fieldP.Bytes(), fieldP.Bytes()...))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) != 64 {
			return
		}
		a := bigFe(t, new(big.Int).SetBytes(in[:32]))
		b := bigFe(t, new(big.Int).SetBytes(in[32:]))
		checkField(t, a, b)
	})
}
