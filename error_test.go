package veriland_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/veriland/veriland"
)

// TestErrorsUnwrap checks that errors.Is and errors.As see the members of an Errors
// list, directly and through a wrap.
func TestErrorsUnwrap(t *testing.T) {
	a := veriland.Invalid("/a", "a")
	notFound := veriland.Errorf(veriland.CodeNotFound, "no such thing")
	cases := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"sentinel member", veriland.Errors{a, veriland.ErrNotFound}, veriland.ErrNotFound, true},
		{"member with the same code", veriland.Errors{a, notFound}, veriland.ErrNotFound, true},
		{"wrapped list", fmt.Errorf("ctx: %w", veriland.Errors{a, notFound}), veriland.ErrNotFound, true},
		{"absent code", veriland.Errors{a, a}, veriland.ErrNotFound, false},
		{"cause of a member", veriland.Errors{a, veriland.Invalid("/b", "b").WithCause(errSentinel)}, errSentinel, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errors.Is(c.err, c.target); got != c.want {
				t.Fatalf("errors.Is = %v, want %v", got, c.want)
			}
		})
	}

	var custom *customErr
	if !errors.As(veriland.Errors{a, veriland.Invalid("/c", "c").WithCause(&customErr{"x"})}, &custom) || custom.s != "x" {
		t.Fatalf("errors.As did not find the member's cause: %v", custom)
	}
}

var errSentinel = errors.New("sentinel")

type customErr struct{ s string }

func (c *customErr) Error() string { return c.s }

// TestSentinelImmutable checks that the With* methods leave the receiver untouched, so
// that process-wide sentinels such as ErrNotFound never change.
func TestSentinelImmutable(t *testing.T) {
	got := veriland.ErrNotFound.WithMeta("k", "v")
	if len(veriland.ErrNotFound.Meta) != 0 {
		t.Fatalf("ErrNotFound.Meta = %v after WithMeta, want empty", veriland.ErrNotFound.Meta)
	}
	if got.Meta["k"] != "v" || got.Code != veriland.CodeNotFound {
		t.Fatalf("WithMeta result = %+v", got)
	}
	got2 := got.WithMeta("k2", "v2")
	if _, ok := got.Meta["k2"]; ok {
		t.Fatalf("WithMeta changed the Meta map of its receiver: %v", got.Meta)
	}
	if got2.Meta["k"] != "v" || got2.Meta["k2"] != "v2" {
		t.Fatalf("chained WithMeta lost a key: %v", got2.Meta)
	}
	withCause := veriland.ErrNotFound.WithCause(errSentinel)
	if veriland.ErrNotFound.Cause != nil {
		t.Fatalf("ErrNotFound.Cause = %v after WithCause, want nil", veriland.ErrNotFound.Cause)
	}
	if !errors.Is(withCause, errSentinel) || !errors.Is(withCause, veriland.ErrNotFound) {
		t.Fatalf("WithCause result does not match its cause and code")
	}
	if veriland.CodeOf(veriland.Errors{veriland.Invalid("/a", "a"), veriland.ErrNotFound}) != veriland.CodeValidationFailed {
		t.Fatalf("CodeOf of a list must stay the first member's code")
	}
}
