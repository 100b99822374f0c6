package veriland_test

import (
	"errors"
	"fmt"

	"github.com/veriland/veriland"
)

func Example() {
	err := fmt.Errorf("loading request: %w", veriland.Errorf(veriland.CodeNotFound, "no verification request vrq_123"))

	var verr *veriland.Error
	if errors.As(err, &verr) {
		fmt.Println(verr.Code, "-", verr.Message)
	}
	fmt.Println(errors.Is(err, veriland.ErrNotFound))
	// Output:
	// not_found - no verification request vrq_123
	// true
}
