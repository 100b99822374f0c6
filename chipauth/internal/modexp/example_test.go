package modexp_test

import (
	"fmt"
	"math/big"

	"github.com/veriland/veriland/chipauth/internal/modexp"
)

func Example() {
	// N = 2¹⁰²⁷ - 1 stands in for an RSA modulus; 3 for a signature.
	n := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1027), big.NewInt(1))
	m, err := modexp.NewModulus(n)
	if err != nil {
		panic(err)
	}
	em, ok := m.Exp([]byte{3}, 65537)
	if !ok {
		panic("signature not below N")
	}
	want := new(big.Int).Exp(big.NewInt(3), big.NewInt(65537), n)
	fmt.Println(len(em), new(big.Int).SetBytes(em).Cmp(want) == 0)

	// A "signature" that is not below N is refused.
	_, ok = m.Exp(n.Bytes(), 65537)
	fmt.Println(ok)
	// Output:
	// 129 true
	// false
}
