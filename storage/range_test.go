package storage_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

func b(s string) []byte { return []byte(s) }

func TestPrefixEnd(t *testing.T) {
	tests := []struct {
		prefix []byte
		want   []byte
	}{
		{nil, nil},
		{b(""), nil},
		{b("a"), b("b")},
		{b("abc"), b("abd")},
		{b("a\x00"), b("a\x01")},
		{b("a\xfe"), b("a\xff")},
		{b("a\xff"), b("b")},
		{b("a\xff\xff"), b("b")},
		{b("ab\xff"), b("ac")},
		{b("\x00"), b("\x01")},
		{b("\xfe\xff"), b("\xff")},
		{b("\xff"), nil},
		{b("\xff\xff\xff"), nil},
		{b("\xff\x00"), b("\xff\x01")},
		{b("\xff\x00\xff"), b("\xff\x01")},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.prefix), func(t *testing.T) {
			in := bytes.Clone(tc.prefix)
			got := storage.PrefixEnd(in)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.prefix, in, "PrefixEnd changed its argument")
			if got != nil {
				got[0]++ // the result is the caller's own
				require.Equal(t, tc.prefix, in)
			}
		})
	}
}

func TestRangeBounds(t *testing.T) {
	tests := []struct {
		name         string
		r            storage.Range
		lower, upper []byte
		in, out      []string
	}{
		{name: "everything", r: storage.Range{},
			in: []string{"", "a", "\xff\xff"}},
		{name: "prefix", r: storage.Range{Prefix: b("ab")}, lower: b("ab"), upper: b("ac"),
			in: []string{"ab", "ab\x00", "abz", "ab\xff\xff"}, out: []string{"a", "aa\xff", "ac", "b", ""}},
		{name: "empty prefix", r: storage.Range{Prefix: b("")}, lower: b(""),
			in: []string{"", "a", "\xff"}},
		{name: "0xff prefix", r: storage.Range{Prefix: b("\xff")}, lower: b("\xff"),
			in: []string{"\xff", "\xff\xff", "\xff\x00"}, out: []string{"\xfe", "\xfe\xff", ""}},
		{name: "prefix ending in 0xff", r: storage.Range{Prefix: b("a\xff")}, lower: b("a\xff"), upper: b("b"),
			in: []string{"a\xff", "a\xff\xff"}, out: []string{"a", "a\xfe", "b"}},
		{name: "start", r: storage.Range{Start: b("m")}, lower: b("m"),
			in: []string{"m", "m\x00", "z"}, out: []string{"l", "l\xff", ""}},
		{name: "end", r: storage.Range{End: b("m")}, upper: b("m"),
			in: []string{"", "a", "l\xff"}, out: []string{"m", "m\x00", "z"}},
		{name: "start and end", r: storage.Range{Start: b("c"), End: b("f")}, lower: b("c"), upper: b("f"),
			in: []string{"c", "e\xff"}, out: []string{"b", "f", "f\x00"}},
		{name: "start after end", r: storage.Range{Start: b("f"), End: b("c")}, lower: b("f"), upper: b("c"),
			out: []string{"b", "c", "d", "f", "g"}},
		{name: "start inside prefix", r: storage.Range{Prefix: b("a"), Start: b("ab")}, lower: b("ab"), upper: b("b"),
			in: []string{"ab", "az"}, out: []string{"a", "aa", "b"}},
		{name: "start before prefix", r: storage.Range{Prefix: b("b"), Start: b("a")}, lower: b("b"), upper: b("c"),
			in: []string{"b", "bz"}, out: []string{"a", "az", "c"}},
		{name: "start equals prefix", r: storage.Range{Prefix: b("b"), Start: b("b")}, lower: b("b"), upper: b("c"),
			in: []string{"b"}, out: []string{"a", "c"}},
		{name: "start after prefix", r: storage.Range{Prefix: b("a"), Start: b("b")}, lower: b("b"), upper: b("b"),
			out: []string{"a", "az", "b"}},
		{name: "end inside prefix", r: storage.Range{Prefix: b("a"), End: b("am")}, lower: b("a"), upper: b("am"),
			in: []string{"a", "al\xff"}, out: []string{"am", "az", "b"}},
		{name: "end after prefix", r: storage.Range{Prefix: b("a"), End: b("z")}, lower: b("a"), upper: b("b"),
			in: []string{"a", "az"}, out: []string{"b", "y"}},
		{name: "end equals prefix end", r: storage.Range{Prefix: b("a"), End: b("b")}, lower: b("a"), upper: b("b"),
			in: []string{"a", "a\xff"}, out: []string{"b"}},
		{name: "end before prefix", r: storage.Range{Prefix: b("b"), End: b("a")}, lower: b("b"), upper: b("a"),
			out: []string{"", "a", "b", "c"}},
		{name: "0xff prefix and end", r: storage.Range{Prefix: b("\xff\xff"), End: b("\xff\xff\x80")}, lower: b("\xff\xff"), upper: b("\xff\xff\x80"),
			in: []string{"\xff\xff", "\xff\xff\x7f"}, out: []string{"\xff", "\xff\xff\x80", "\xff\xff\xff"}},
		{name: "all three", r: storage.Range{Prefix: b("k/"), Start: b("k/b"), End: b("k/d")}, lower: b("k/b"), upper: b("k/d"),
			in: []string{"k/b", "k/c\xff"}, out: []string{"k/a", "k/d", "k/", "k0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.lower, tc.r.Lower(), "Lower")
			require.Equal(t, tc.upper, tc.r.Upper(), "Upper")
			for _, k := range tc.in {
				require.True(t, tc.r.Contains(b(k)), "Contains(%q)", k)
			}
			for _, k := range tc.out {
				require.False(t, tc.r.Contains(b(k)), "Contains(%q)", k)
			}
			rev := tc.r
			rev.Reverse = true
			require.Equal(t, tc.r.Lower(), rev.Lower(), "Reverse changes nothing but the order")
			require.Equal(t, tc.r.Upper(), rev.Upper(), "Reverse changes nothing but the order")
		})
	}
}

// TestRangeBoundsMatchContains checks what backends rely on when they seek to Lower
// and stop at Upper: a key lies in [Lower, Upper) exactly when Contains reports it.
func TestRangeBoundsMatchContains(t *testing.T) {
	alphabet := []byte{0x00, 0x01, 'a', 0xfe, 0xff}
	var keys [][]byte
	var gen func(prefix []byte)
	gen = func(prefix []byte) {
		keys = append(keys, prefix)
		if len(prefix) == 3 {
			return
		}
		for _, c := range alphabet {
			gen(append(bytes.Clone(prefix), c))
		}
	}
	gen([]byte{})
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() []byte {
		if rng.IntN(3) == 0 {
			return nil
		}
		return keys[rng.IntN(len(keys))]
	}
	for range 1000 {
		r := storage.Range{Prefix: pick(), Start: pick(), End: pick()}
		lower, upper := r.Lower(), r.Upper()
		for _, k := range keys {
			inBounds := (lower == nil || bytes.Compare(k, lower) >= 0) && (upper == nil || bytes.Compare(k, upper) < 0)
			want := bytes.HasPrefix(k, r.Prefix) &&
				(r.Start == nil || bytes.Compare(k, r.Start) >= 0) &&
				(r.End == nil || bytes.Compare(k, r.End) < 0)
			if got := r.Contains(k); got != want {
				t.Fatalf("%+v: Contains(%q) = %v, want %v", r, k, got, want)
			}
			if inBounds != want {
				t.Fatalf("%+v: %q in [Lower %q, Upper %q) = %v, want %v", r, k, lower, upper, inBounds, want)
			}
		}
	}
}
