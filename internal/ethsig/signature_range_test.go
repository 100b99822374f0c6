package ethsig

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
)

func TestScalarBounds(t *testing.T) {
	n := crypto.S256().Params().N
	if new(big.Int).SetBytes(secp256k1N[:]).Cmp(n) != 0 {
		t.Error("secp256k1N is not the order of secp256k1")
	}
	if new(big.Int).SetBytes(secp256k1HalfN[:]).Cmp(new(big.Int).Rsh(n, 1)) != 0 {
		t.Error("secp256k1HalfN is not n/2")
	}
}

// rangeVerdict is what Recover decides for r ‖ s from their range alone: "range",
// "high-s", or "" when it goes on to the recovery (which may still fail).
func rangeVerdict(r, s *[32]byte) string {
	sig := append(append(r[:len(r):len(r)], s[:]...), 27)
	_, err := Recover([32]byte{1}, sig)
	var e *veriland.Error
	switch {
	case errors.Is(err, ErrHighS):
		return "high-s"
	case errors.As(err, &e) && e.Message == "signature r or s is out of range":
		return "range"
	}
	return ""
}

// bigVerdict is the same decision taken with crypto.ValidateSignatureValues, as
// Recover took it before it compared bytes.
func bigVerdict(r, s *[32]byte) string {
	rb, sb := new(big.Int).SetBytes(r[:]), new(big.Int).SetBytes(s[:])
	if !crypto.ValidateSignatureValues(0, rb, sb, true) {
		if crypto.ValidateSignatureValues(0, rb, sb, false) {
			return "high-s"
		}
		return "range"
	}
	return ""
}

func word(x *big.Int) [32]byte {
	var w [32]byte
	x.FillBytes(w[:])
	return w
}

func TestRangeChecksMatchValidateSignatureValues(t *testing.T) {
	n := crypto.S256().Params().N
	half := new(big.Int).Rsh(n, 1)
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	var edges [][32]byte
	for _, x := range []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(2), half, new(big.Int).Add(half, big.NewInt(1)),
		new(big.Int).Sub(half, big.NewInt(1)), new(big.Int).Sub(n, big.NewInt(1)), n,
		new(big.Int).Add(n, big.NewInt(1)), max,
	} {
		edges = append(edges, word(x))
	}
	for _, r := range edges {
		for _, s := range edges {
			if got, want := rangeVerdict(&r, &s), bigVerdict(&r, &s); got != want {
				t.Errorf("r %x s %x: %q, ValidateSignatureValues says %q", r, s, got, want)
			}
		}
	}
}

func FuzzRangeChecks(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(append(bytes.Repeat([]byte{0xff}, 32), secp256k1HalfN[:]...))
	f.Add(append(secp256k1N[:], secp256k1N[:]...))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 64 {
			return
		}
		r, s := (*[32]byte)(b[:32]), (*[32]byte)(b[32:])
		if got, want := rangeVerdict(r, s), bigVerdict(r, s); got != want {
			t.Fatalf("r %x s %x: %q, ValidateSignatureValues says %q", r, s, got, want)
		}
	})
}
