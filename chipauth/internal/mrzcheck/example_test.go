package mrzcheck_test

import (
	"fmt"

	"github.com/veriland/veriland/chipauth/internal/mrzcheck"
)

func Example() {
	fmt.Printf("%c\n", mrzcheck.Digit("L898902C3"))
	// Output: 6
}
