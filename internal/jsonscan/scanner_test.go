package jsonscan

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// primitives are the readers the tests and the fuzz target exercise one by one.
var primitives = []struct {
	name string
	read func(s *Scanner) (any, bool)
}{
	{"PlainString", func(s *Scanner) (any, bool) {
		v, ok := s.PlainString()
		return string(v), ok
	}},
	{"SkipString", func(s *Scanner) (any, bool) { return nil, s.SkipString() }},
	{"Number", func(s *Scanner) (any, bool) {
		v, ok := s.Number()
		return string(v), ok
	}},
	{"Float", func(s *Scanner) (any, bool) { return s.Float() }},
	{"Literal", func(s *Scanner) (any, bool) {
		switch s.Peek() {
		case 't':
			return true, s.Literal("true")
		case 'f':
			return false, s.Literal("false")
		}
		return nil, s.Literal("null")
	}},
	{"Skip", func(s *Scanner) (any, bool) { return nil, s.Skip(3) }},
	{"RawValue", func(s *Scanner) (any, bool) {
		v, ok := s.RawValue(3)
		return string(v), ok
	}},
}

func primitive(t *testing.T, name string) func(s *Scanner) (any, bool) {
	t.Helper()
	for _, p := range primitives {
		if p.name == name {
			return p.read
		}
	}
	t.Fatalf("no primitive %s", name)
	return nil
}

func TestPrimitives(t *testing.T) {
	tests := []struct {
		prim, in string
		want     any // the value read; ignored when ok is false
		ok       bool
		pos      int // where the scanner stops when ok
	}{
		{"PlainString", ` "abc" `, "abc", true, 6},
		{"PlainString", `"é ∑"`, "é ∑", true, 8},
		{"PlainString", `""`, "", true, 2},
		{"PlainString", `"a\"b"`, nil, false, 0},
		{"PlainString", `"a\nb"`, nil, false, 0},
		{"PlainString", "\"a\tb\"", nil, false, 0},
		{"PlainString", "\"\xff\"", nil, false, 0},
		{"PlainString", "\"\x7f\"", "\x7f", true, 3},
		{"PlainString", `"abc`, nil, false, 0},
		{"PlainString", `abc`, nil, false, 0},
		{"SkipString", `"a\"b\u00e9\/"`, nil, true, 14},
		{"SkipString", "\"\xff\"", nil, true, 3},
		{"SkipString", `"\x"`, nil, false, 0},
		{"SkipString", `"\u12g4"`, nil, false, 0},
		{"SkipString", `"\u12"`, nil, false, 0},
		{"SkipString", `"a\`, nil, false, 0},
		{"SkipString", "\"\x01\"", nil, false, 0},
		{"Number", `-0.5e+10,`, "-0.5e+10", true, 8},
		{"Number", `0`, "0", true, 1},
		{"Number", `01`, "0", true, 1}, // the 1 is the next primitive's to refuse
		{"Number", `-`, nil, false, 0},
		{"Number", `1.`, nil, false, 0},
		{"Number", `1e`, nil, false, 0},
		{"Number", `.5`, nil, false, 0},
		{"Number", `+1`, nil, false, 0},
		{"Float", ` 1700000000000.25`, 1700000000000.25, true, 17},
		{"Float", `-0`, math.Copysign(0, -1), true, 2},
		{"Float", `0.1`, 0.1, true, 3},
		{"Float", `123456789012345678901234567890`, 1.2345678901234568e29, true, 30},
		{"Float", `9007199254740993`, 9007199254740992.0, true, 16},
		{"Float", `1e308`, 1e308, true, 5},
		{"Float", `1e309`, nil, false, 0},
		{"Float", `-1e400`, nil, false, 0},
		{"Float", `1e-400`, 0.0, true, 6},
		{"Float", `"1"`, nil, false, 0},
		// Eight bytes read at once: exactly eight digits, fewer, a byte just below
		// '0' or above '9', one whose +6 carries into the next byte.
		{"Float", `12345678`, 12345678.0, true, 8},
		{"Float", `98765432,`, 98765432.0, true, 8},
		{"Float", `1234567:9`, 1234567.0, true, 7},
		{"Float", `1234567/9`, 1234567.0, true, 7},
		{"Float", "1234567\xfa9", 1234567.0, true, 7},
		{"Float", "1\xff\xff\xff\xff\xff\xff\xff", 1.0, true, 1},
		{"Float", `123456789.5`, 123456789.5, true, 11},
		{"Float", `-9999999999999.999`, -9999999999999.999, true, 18},
		{"Literal", ` true`, true, true, 5},
		{"Literal", `false`, false, true, 5},
		{"Literal", `null`, nil, true, 4},
		{"Literal", `nul`, nil, false, 0},
		{"Skip", `{"a\n":[1,{"b":null}],"c":"\u0041"}`, nil, true, 35},
		{"Skip", `[[[[1]]]]`, nil, false, 0}, // deeper than 3
		{"Skip", `[[[1]]]`, nil, true, 7},
		{"Skip", `{"a" 1}`, nil, false, 0},
		{"Skip", `{"a":1,}`, nil, false, 0},
		{"Skip", `[1,]`, nil, false, 0},
		{"Skip", `{a:1}`, nil, false, 0},
		{"Skip", `[1 2]`, nil, false, 0},
		{"Skip", ``, nil, false, 0},
		{"RawValue", `  {"a": [true]} `, `{"a": [true]}`, true, 15},
	}
	for _, tt := range tests {
		s := New([]byte(tt.in))
		got, ok := primitive(t, tt.prim)(&s)
		if ok != tt.ok {
			t.Errorf("%s(%q): ok %v, want %v", tt.prim, tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if f, isFloat := tt.want.(float64); isFloat {
			if g := got.(float64); math.Float64bits(g) != math.Float64bits(f) {
				t.Errorf("%s(%q) = %v, want %v", tt.prim, tt.in, g, f)
			}
		} else if tt.want != nil && got != tt.want {
			t.Errorf("%s(%q) = %#v, want %#v", tt.prim, tt.in, got, tt.want)
		}
		if s.Pos() != tt.pos {
			t.Errorf("%s(%q) stops at %d, want %d", tt.prim, tt.in, s.Pos(), tt.pos)
		}
	}
}

func TestObjectAndArray(t *testing.T) {
	tests := []struct {
		in   string
		want string // the keys and elements read, or "refused"
	}{
		{`{}`, ""},
		{` { "a" : 1 , "b":[ ] } `, "a:1 b:[] "},
		{`{"a":1,"a":2}`, "a:1 a:2 "}, // repeats are the caller's to refuse
		{`{"a\u0041":1}`, "refused"},  // keys must be plain
		{`{"a":1`, "refused"},
		{`{"a":1 "b":2}`, "refused"},
		{`{"a":[1,2 3]}`, "refused"},
		{`[]`, "refused"},
	}
	for _, tt := range tests {
		s := New([]byte(tt.in))
		var got strings.Builder
		ok := s.Object(func(key []byte) bool {
			got.WriteString(string(key) + ":")
			if s.Peek() == '[' {
				got.WriteString("[")
				ok := s.Array(func() bool {
					n, ok := s.Number()
					got.Write(n)
					return ok
				})
				got.WriteString("] ")
				return ok
			}
			n, ok := s.Number()
			got.Write(n)
			got.WriteString(" ")
			return ok
		})
		if !ok || !s.End() {
			got.Reset()
			got.WriteString("refused")
		}
		if got.String() != tt.want {
			t.Errorf("Object(%q) read %q, want %q", tt.in, got.String(), tt.want)
		}
	}
}

// FuzzPrimitives checks every primitive against encoding/json: whatever a primitive
// reads from the start of the input is one valid JSON value for encoding/json, of
// the same value where the primitive returns one (PlainString's bytes, Float's
// float64, the literal), and Number and RawValue return exactly that value's text.
func FuzzPrimitives(f *testing.F) {
	for _, s := range []string{`"abc"`, `"é"`, `"\u00e9"`, `-0.5e+10`, `1700000000000.25`,
		`1e309`, `12345678`, `1234567:9`, "1234567\xfa9", `true`, `null`, `{"a":[1,{"b":"c"}]}`, `[[[[1]]]]`, "\"\xff\"", `0.1e-400`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, p := range primitives {
			s := New([]byte(in))
			got, ok := p.read(&s)
			if !ok {
				continue
			}
			text := in[:s.Pos()]
			if !json.Valid([]byte(text)) {
				t.Fatalf("%s reads %q from %q, not valid JSON for encoding/json", p.name, text, in)
			}
			switch p.name {
			case "PlainString":
				var v string
				if err := json.Unmarshal([]byte(text), &v); err != nil || v != got {
					t.Fatalf("%s(%q) = %q, encoding/json %#v", p.name, in, got, v)
				}
			case "Float":
				var want float64
				if err := json.Unmarshal([]byte(text), &want); err != nil || math.Float64bits(want) != math.Float64bits(got.(float64)) {
					t.Fatalf("Float(%q) = %v, encoding/json %v (%v)", in, got, want, err)
				}
			case "Literal":
				var v any
				if err := json.Unmarshal([]byte(text), &v); err != nil || v != got {
					t.Fatalf("Literal(%q) = %v, encoding/json %v", in, got, v)
				}
			case "Number":
				var v json.Number
				if err := json.Unmarshal([]byte(text), &v); err != nil {
					t.Fatalf("Number(%q) reads %q: %v", in, text, err)
				}
				fallthrough
			case "RawValue":
				if strings.TrimLeft(text, " \t\r\n") != got {
					t.Fatalf("%s(%q) = %q, not the value's text", p.name, in, got)
				}
			}
		}
	})
}
