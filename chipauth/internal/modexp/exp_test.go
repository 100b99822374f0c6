package modexp

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// withKernel runs f once with each kernel this build can run as the active
// one. Tests using it must not run in parallel.
func withKernel(t testing.TB, f func(t testing.TB, k kernel)) {
	saved := active
	defer func() { active = saved }()
	for _, k := range kernels() {
		active = k
		f(t, k)
	}
}

// randomBytes returns l random bytes.
func randomBytes(r *rand.Rand, l int) []byte {
	b := make([]byte, l)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// randomModulus returns a random odd number of exactly bits bits.
func randomModulus(r *rand.Rand, bits int) *big.Int {
	n := new(big.Int).SetBytes(randomBytes(r, (bits+7)/8))
	n.Mod(n, new(big.Int).Lsh(big.NewInt(1), uint(bits))) // at most bits bits
	n.SetBit(n, bits-1, 1)
	return n.SetBit(n, 0, 1)
}

// randomBelow returns a random number in [0, n).
func randomBelow(r *rand.Rand, n *big.Int) *big.Int {
	x := new(big.Int).SetBytes(randomBytes(r, (n.BitLen()+7)/8+8))
	return x.Mod(x, n)
}

// wantExp is Exp computed with math/big.
func wantExp(n *big.Int, sig []byte, e int) ([]byte, bool) {
	s := new(big.Int).SetBytes(sig)
	if s.Cmp(n) >= 0 {
		return nil, false
	}
	s.Exp(s, big.NewInt(int64(e)), n)
	return s.FillBytes(make([]byte, (n.BitLen()+7)/8)), true
}

// checkExp compares m.Exp(sig, e) with math/big.
func checkExp(t testing.TB, n *big.Int, m *Modulus, sig []byte, e int, what string) {
	t.Helper()
	got, ok := m.Exp(sig, e)
	want, wantOK := wantExp(n, sig, e)
	if ok != wantOK || !bytes.Equal(got, want) {
		t.Fatalf("%s: %d-bit N=%x e=%d sig=%x:\ngot  %x, %v\nwant %x, %v", what, n.BitLen(), n, e, sig, got, ok, want, wantOK)
	}
}

var (
	testSizes     = []int{1024, 1025, 1536, 2047, 2048, 2056, 3000, 3072, 4096, 8192}
	testExponents = []int{1, 2, 3, 4, 17, 65537, 65536, MaxExponent}
)

// edgeInputs returns the signatures every modulus is tested with: the
// extremes of the range, just outside it, and encodings of unusual length.
func edgeInputs(n *big.Int) map[string][]byte {
	size := (n.BitLen() + 7) / 8
	fill := func(x *big.Int) []byte { return x.FillBytes(make([]byte, size)) }
	one := big.NewInt(1)
	allOnes := bytes.Repeat([]byte{0xff}, size)
	return map[string][]byte{
		"0":              make([]byte, size),
		"empty":          nil,
		"1":              fill(one),
		"1 short":        {1},
		"2":              {2},
		"N-1":            fill(new(big.Int).Sub(n, one)),
		"N":              fill(n),
		"N+1":            new(big.Int).Add(n, one).Bytes(),
		"N leading zero": append([]byte{0, 0, 0}, n.Bytes()...),
		"N-1 zeros":      append(make([]byte, 9), new(big.Int).Sub(n, one).Bytes()...),
		"all ones":       allOnes,
		"all ones long":  append([]byte{0xff}, allOnes...),
		"2^64k":          new(big.Int).Lsh(one, uint(64*((n.BitLen()-1)/64))).Bytes(),
		"R mod N":        new(big.Int).Mod(new(big.Int).Lsh(one, uint(64*((n.BitLen()+63)/64))), n).Bytes(),
		"one zero byte":  {0},
		"N-1 short by 1": new(big.Int).Rsh(n, 8).Bytes(),
	}
}

func TestExpDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	withKernel(t, func(t testing.TB, k kernel) {
		for _, bits := range testSizes {
			for trial := 0; trial < 3; trial++ {
				n := randomModulus(r, bits)
				m, err := NewModulus(n)
				if err != nil {
					t.Fatal(err)
				}
				if m.BitLen() != bits || m.Size() != (bits+7)/8 {
					t.Fatalf("%d bits: BitLen %d, Size %d", bits, m.BitLen(), m.Size())
				}
				for _, e := range testExponents {
					if bits == 8192 && e == MaxExponent && trial > 0 {
						continue // slow in math/big; one trial is enough
					}
					for name, sig := range edgeInputs(n) {
						checkExp(t, n, m, sig, e, fmt.Sprintf("%v %s", k, name))
					}
					for i := 0; i < 4; i++ {
						s := randomBelow(r, n)
						checkExp(t, n, m, s.FillBytes(make([]byte, m.Size())), e, fmt.Sprintf("%v random", k))
					}
				}
			}
		}
	})
}

// TestExpSpecialModuli covers moduli whose limbs stress the carries: all
// ones (2^k-1), 2^(k-1)+1, and with a top limb of 1.
func TestExpSpecialModuli(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	one := big.NewInt(1)
	var moduli []*big.Int
	for _, bits := range testSizes {
		p := new(big.Int).Lsh(one, uint(bits))
		moduli = append(moduli,
			new(big.Int).Sub(p, one),
			new(big.Int).Add(new(big.Int).Rsh(p, 1), one),
			new(big.Int).Sub(new(big.Int).Rsh(p, 1), new(big.Int).Lsh(one, uint(bits/2))).Add(new(big.Int), one),
		)
	}
	moduli = moduli[:len(moduli):len(moduli)]
	moduli = append(moduli, new(big.Int).Add(new(big.Int).Lsh(one, 1024), big.NewInt(3))) // 1025 bits, top limb 1
	withKernel(t, func(t testing.TB, k kernel) {
		for _, n := range moduli {
			if n.BitLen() < MinBits {
				continue
			}
			m, err := NewModulus(n)
			if err != nil {
				t.Fatalf("%x: %v", n, err)
			}
			for _, e := range []int{3, 65537} {
				for name, sig := range edgeInputs(n) {
					checkExp(t, n, m, sig, e, fmt.Sprintf("%v %s", k, name))
				}
				s := randomBelow(r, n)
				checkExp(t, n, m, s.Bytes(), e, fmt.Sprintf("%v random", k))
			}
		}
	})
}

func TestNewModulusRefuses(t *testing.T) {
	one := big.NewInt(1)
	tests := []struct {
		name string
		n    *big.Int
		ok   bool
	}{
		{"nil", nil, false},
		{"zero", new(big.Int), false},
		{"negative", new(big.Int).Neg(new(big.Int).Add(new(big.Int).Lsh(one, 2047), one)), false},
		{"even", new(big.Int).Lsh(one, 2047), false},
		{"1023 bits", new(big.Int).Add(new(big.Int).Lsh(one, 1022), one), false},
		{"1024 bits", new(big.Int).Add(new(big.Int).Lsh(one, 1023), one), true},
		{"8192 bits", new(big.Int).Sub(new(big.Int).Lsh(one, 8192), one), true},
		{"8193 bits", new(big.Int).Add(new(big.Int).Lsh(one, 8192), one), false},
	}
	for _, tt := range tests {
		m, err := NewModulus(tt.n)
		if (err == nil) != tt.ok || (err != nil && (err != ErrModulus || m != nil)) {
			t.Errorf("%s: got %v, %v", tt.name, m, err)
		}
	}
}

func TestNewModulusCopies(t *testing.T) {
	n := randomModulus(rand.New(rand.NewPCG(5, 6)), 2048)
	keep := new(big.Int).Set(n)
	m, err := NewModulus(n)
	if err != nil {
		t.Fatal(err)
	}
	n.SetInt64(7)
	checkExp(t, keep, m, []byte{2}, 65537, "after caller modified n")
}

func TestExpPanicsOnBadExponent(t *testing.T) {
	m, err := NewModulus(randomModulus(rand.New(rand.NewPCG(7, 8)), 1024))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []int{0, -1, MaxExponent + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Exp with e=%d did not panic", e)
				}
			}()
			m.Exp([]byte{2}, e)
		}()
	}
}

// toBig returns the little-endian limbs x as a big.Int.
func toBig(x []uint64) *big.Int {
	b := make([]byte, 8*len(x))
	fillBytes(b, x)
	return new(big.Int).SetBytes(b)
}

// TestAddMulVVW checks every kernel against math/big on every length up to
// 40 (all tails of the unrolled loops) with extreme and random words.
func TestAddMulVVW(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := func(i int) uint64 {
		switch i % 3 {
		case 0:
			return ^uint64(0)
		case 1:
			return r.Uint64()
		}
		return r.Uint64() >> (r.Uint64() % 64)
	}
	withKernel(t, func(t testing.TB, k kernel) {
		for l := 0; l <= 40; l++ {
			for trial := 0; trial < 6; trial++ {
				z, x := make([]uint64, l), make([]uint64, l+1)
				for i := range z {
					z[i], x[i] = word(trial+i), word(trial*7+i)
				}
				x[l] = 12345 // beyond len(z): must be ignored
				y := word(trial)
				want := new(big.Int).Mul(toBig(x[:l]), new(big.Int).SetUint64(y))
				want.Add(want, toBig(z))
				c := addMulVVW(z, x, y)
				got := toBig(append(z, c))
				if got.Cmp(want) != 0 {
					t.Fatalf("%v len %d trial %d: got %x, want %x", k, l, trial, got, want)
				}
			}
		}
	})
}

func TestInverse64(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, x := range []uint64{1, 3, ^uint64(0), 1<<63 + 1, r.Uint64() | 1, r.Uint64() | 1} {
		if y := inverse64(x); x*y != 1 {
			t.Errorf("inverse64(%#x) = %#x, product %#x", x, y, x*y)
		}
	}
}

// TestRows checks the row loops (redcRows, mulRows, sqrRows) of every kernel
// against the generic ones on every length up to 40, with extreme and random
// limbs.
func TestRows(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	limbs := func(l int, trial int) []uint64 {
		x := make([]uint64, l)
		for i := range x {
			switch (trial + i) % 3 {
			case 0:
				x[i] = ^uint64(0)
			default:
				x[i] = r.Uint64()
			}
		}
		return x
	}
	type result struct {
		t  []uint64
		cc uint64
	}
	run := func(l, trial int) (out [3]result) {
		x, y, t0, n := limbs(l, trial), limbs(l, trial+1), limbs(2*l, trial+2), limbs(l, trial)
		n[0] |= 1
		m0inv := -inverse64(n[0])
		t := append([]uint64(nil), t0...)
		out[0].cc = redcRows(t, n, m0inv)
		out[0].t = t
		t = make([]uint64, 2*l)
		copy(t[l:], t0[l:]) // high half is overwritten, low half must be zero
		mulRows(t, x, y)
		out[1].t = t
		t = make([]uint64, 2*l)
		sqrRows(t, x)
		addDoubleSquares(t, x)
		out[2].t = t
		if sq := new(big.Int).Mul(toBig(x), toBig(x)); sq.Cmp(toBig(t)) != 0 {
			panic(fmt.Sprintf("sqrRows+addDoubleSquares(%x) = %x, want %x", x, t, sq))
		}
		return out
	}
	for l := 1; l <= 40; l++ {
		for trial := 0; trial < 3; trial++ {
			var want [3]result
			seed := r.Uint64()
			withKernel(t, func(t testing.TB, k kernel) {
				r = rand.New(rand.NewPCG(seed, 0))
				got := run(l, trial)
				if k == kernelGeneric {
					want = got
					return
				}
				for i, name := range []string{"redcRows", "mulRows", "sqrRows+addDoubleSquares"} {
					if got[i].cc != want[i].cc || fmt.Sprint(got[i].t) != fmt.Sprint(want[i].t) {
						t.Fatalf("%v %s len %d trial %d:\ngot  %x %d\nwant %x %d", k, name, l, trial, got[i].t, got[i].cc, want[i].t, want[i].cc)
					}
				}
			})
		}
	}
}
