package eccurve_test

import (
	"crypto/elliptic"
	"fmt"

	"github.com/veriland/veriland/chipauth/internal/eccurve"
)

func Example() {
	c, ok := eccurve.ByCurve(elliptic.P256())
	fmt.Println(ok, c.Name, len(eccurve.Known()))
	// Output: true P-256 6
}
