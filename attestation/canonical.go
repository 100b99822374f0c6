package attestation

import (
	"bytes"
	"strconv"

	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland/internal/jsonscan"
)

// isCanonical reports whether b is certainly already in RFC 8785 canonical form, so
// that hashing it needs no transformation. It recognises a conservative subset — no
// whitespace, object keys of printable ASCII in strictly increasing order, strings of
// printable ASCII or valid multi-byte UTF-8 with no escapes, numbers as ECMAScript
// prints them, true, false, null — which is what Issuer.Sign stores for ordinary
// claims, and what encoding/json writes for a struct whose fields are in that order
// (the claims of liveness and consent), so that Sign keeps its bytes as they are.
// Anything else returns false and goes through the full JCS transformation. FuzzIsCanonical checks that whatever it accepts, jcs.Transform
// leaves unchanged.
func isCanonical(b []byte) bool {
	p := canonScanner{b: b}
	return p.value(0) && p.i == len(b)
}

type canonScanner struct {
	b []byte
	i int
}

const maxCanonicalDepth = 64

func (p *canonScanner) value(depth int) bool {
	if p.i >= len(p.b) || depth > maxCanonicalDepth {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		_, ok := p.str(false)
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		return p.literal("true") || p.literal("false") || p.literal("null")
	}
}

func (p *canonScanner) literal(lit string) bool {
	if len(p.b)-p.i >= len(lit) && string(p.b[p.i:p.i+len(lit)]) == lit {
		p.i += len(lit)
		return true
	}
	return false
}

func (p *canonScanner) object(depth int) bool {
	p.i++ // '{'
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	var prev []byte
	for first := true; ; first = false {
		key, ok := p.str(true)
		// Keys of printable ASCII sort the same in UTF-16 code units as in bytes.
		if !ok || (!first && string(key) <= string(prev)) {
			return false
		}
		prev = key
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		if !p.value(depth + 1) {
			return false
		}
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}

func (p *canonScanner) array(depth int) bool {
	p.i++ // '['
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return true
	}
	for {
		if !p.value(depth+1) || p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return true
		default:
			return false
		}
	}
}

// str scans a string with no escapes and returns its contents. asciiOnly restricts
// it to printable ASCII (object keys).
func (p *canonScanner) str(asciiOnly bool) ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	p.i++
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, true
		case c == '\\' || c < 0x20 || c == 0x7f:
			return nil, false
		case c < 0x80:
			p.i++
		case asciiOnly:
			return nil, false
		default:
			n := utf8SeqLen(p.b[p.i:])
			if n == 0 {
				return nil, false
			}
			p.i += n
		}
	}
	return nil, false
}

// utf8SeqLen returns the length of the valid UTF-8 sequence of a non-ASCII rune at
// the start of b (surrogates and overlong forms refused), or 0.
func utf8SeqLen(b []byte) int {
	c := b[0]
	var n int
	var lo, hi byte = 0x80, 0xbf
	switch {
	case c >= 0xc2 && c <= 0xdf:
		n = 2
	case c == 0xe0:
		n, lo = 3, 0xa0
	case c >= 0xe1 && c <= 0xec, c == 0xee, c == 0xef:
		n = 3
	case c == 0xed:
		n, hi = 3, 0x9f
	case c == 0xf0:
		n, lo = 4, 0x90
	case c >= 0xf1 && c <= 0xf3:
		n = 4
	case c == 0xf4:
		n, hi = 4, 0x8f
	default:
		return 0
	}
	if len(b) < n || b[1] < lo || b[1] > hi {
		return 0
	}
	for _, cc := range b[2:n] {
		if cc < 0x80 || cc > 0xbf {
			return 0
		}
	}
	return n
}

// number scans a JSON number (jsonscan's grammar) and reports whether it is
// printed as RFC 8785 prints it, ECMAScript's Number serialisation of its float64
// (jcs.NumberToJSON): an integer of at most 15 digits always is (the grammar has no
// leading zeros), but for "-0"; any other number (a fraction such as a liveness
// score, 0.93) is parsed and printed again, and must come out the same.
func (p *canonScanner) number() bool {
	s := jsonscan.New(p.b)
	s.Seek(p.i) // at '-' or a digit: Number skips no space
	text, ok := s.Number()
	if !ok {
		return false
	}
	p.i = s.Pos()
	digits := bytes.TrimPrefix(text, []byte("-"))
	if len(digits) <= 15 && isDigits(digits) {
		return string(text) != "-0"
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return false
	}
	out, err := jcs.NumberToJSON(f)
	return err == nil && out == string(text)
}

// isDigits reports whether b holds only decimal digits.
func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
