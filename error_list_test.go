package veriland_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/veriland/veriland"
)

func TestErrorList(t *testing.T) {
	a := veriland.Invalid("/a", "a")
	b := veriland.Invalid("/b", "b")
	cases := []struct {
		name string
		err  error
		want []string // pointers
	}{
		{"nil", nil, nil},
		{"a plain error", errors.New("x"), nil},
		{"one *Error", a, []string{"/a"}},
		{"one wrapped *Error", fmt.Errorf("ctx: %w", a), []string{"/a"}},
		{"a list", veriland.Errors{a, b}, []string{"/a", "/b"}},
		{"a wrapped list", fmt.Errorf("ctx: %w", veriland.Errors{a, b}), []string{"/a", "/b"}},
		{"Err of a list of one", veriland.Errors{b}.Err(), []string{"/b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, e := range veriland.ErrorList(c.err) {
				got = append(got, e.Pointer)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) || (c.want == nil) != (veriland.ErrorList(c.err) == nil) {
				t.Fatalf("ErrorList = %v, want %v", got, c.want)
			}
		})
	}
}
