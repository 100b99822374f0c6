package jsonscan_test

import (
	"fmt"

	"github.com/veriland/veriland/internal/jsonscan"
)

// A decoder for one known shape reads the members it expects and gives up (to
// encoding/json) on anything else.
func Example() {
	s := jsonscan.New([]byte(` {"name": "frame", "at": [1700000000000.25, 12], "meta": {"x": "\u00e9"}} `))
	var name string
	var at []float64
	ok := s.Object(func(key []byte) bool {
		switch string(key) {
		case "name":
			v, ok := s.PlainString()
			name = string(v)
			return ok
		case "at":
			return s.Array(func() bool {
				f, ok := s.Float()
				at = append(at, f)
				return ok
			})
		}
		return s.Skip(8) // a member this shape ignores
	})
	fmt.Println(ok && s.End(), name, at)
	// Output: true frame [1.70000000000025e+12 12]
}
