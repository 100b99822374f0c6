package jsonscan

import "unicode/utf8"

// Scanner reads JSON from a byte slice, from a position that each primitive
// advances past what it consumed. Primitives skip the white space before what they
// read. A primitive that reports false may leave the position anywhere: the caller
// is expected to give up on the fast path.
type Scanner struct {
	data []byte
	pos  int
}

// New returns a Scanner at the start of data.
func New(data []byte) Scanner { return Scanner{data: data} }

// Data returns the data the scanner reads.
func (s *Scanner) Data() []byte { return s.data }

// Pos returns the index of the next byte to read.
func (s *Scanner) Pos() int { return s.pos }

// Seek moves the scanner to index pos of its data, for a caller that read part of
// the data by other means.
func (s *Scanner) Seek(pos int) { s.pos = pos }

// Since returns the bytes from index start to the current position (aliasing the
// data): with start taken from Pos after Space, the text of what was just read.
func (s *Scanner) Since(start int) []byte { return s.data[start:s.pos] }

// Space skips JSON white space (space, tab, line feed, carriage return) and returns
// the index of the next byte.
func (s *Scanner) Space() int {
	s.pos = spaceEnd(s.data, s.pos)
	return s.pos
}

// spaceEnd returns the index of the first byte at data[i:] that is not white space.
func spaceEnd(data []byte, i int) int {
	for i < len(data) {
		// One comparison for the usual case, a byte above the space.
		if c := data[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
		i++
	}
	return i
}

// Peek skips white space and returns the next byte, or 0 at the end of the data.
func (s *Scanner) Peek() byte {
	if s.Space() < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// Consume skips white space and, when the next byte is c, consumes it and reports
// true.
func (s *Scanner) Consume(c byte) bool {
	if s.Space() < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// Literal skips white space and, when lit (true, false or null) comes next,
// consumes it and reports true. A literal run on into other bytes ("nullx") is
// consumed: what follows is for the next primitive to refuse.
func (s *Scanner) Literal(lit string) bool {
	s.Space()
	if len(s.data)-s.pos >= len(lit) && string(s.data[s.pos:s.pos+len(lit)]) == lit {
		s.pos += len(lit)
		return true
	}
	return false
}

// End skips white space and reports whether the data is all read.
func (s *Scanner) End() bool { return s.Space() == len(s.data) }

// plainASCII marks the bytes that stand for themselves in a JSON string and need no
// UTF-8 check: printable ASCII but the quote and the backslash.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// PlainString skips white space and reads a string whose value is its bytes: no
// escape, no control character, valid UTF-8. It returns the bytes between the
// quotes (aliasing the data) and reports false for any other string or value.
func (s *Scanner) PlainString() ([]byte, bool) {
	if s.Peek() != '"' {
		return nil, false
	}
	b := s.data
	start, ascii := s.pos+1, true
	for j := start; j < len(b); j++ {
		c := b[j]
		if plainASCII[c] {
			continue
		}
		switch {
		case c == '"':
			v := b[start:j]
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			s.pos = j + 1
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		default: // DEL and bytes ≥ 0x80
			ascii = false
		}
	}
	return nil, false
}

// SkipString skips white space and consumes any valid JSON string, escapes
// included. As encoding/json's scanner, it does not check that the bytes are UTF-8.
func (s *Scanner) SkipString() bool {
	if s.Peek() != '"' {
		return false
	}
	b := s.data
	for j := s.pos + 1; j < len(b); {
		for j < len(b) && plainASCII[b[j]] {
			j++
		}
		if j >= len(b) {
			return false
		}
		switch c := b[j]; {
		case c >= 0x7f:
			j++
		case c == '"':
			s.pos = j + 1
			return true
		case c == '\\':
			if j+1 >= len(b) {
				return false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) {
					return false
				}
				for _, h := range b[j+2 : j+6] {
					if !isHex(h) {
						return false
					}
				}
				j += 6
			default:
				return false
			}
		default: // control characters
			return false
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Object skips white space and reads an object, calling member with each key, which
// must be a PlainString (aliasing the data), and the scanner before the member's
// value, which member must consume. It reports false when member does, or at
// anything but an object with such keys.
func (s *Scanner) Object(member func(key []byte) bool) bool {
	return s.members(true, member)
}

// members reads an object as Object does; without plainKeys it takes any string as
// a key and passes member a nil key.
func (s *Scanner) members(plainKeys bool, member func(key []byte) bool) bool {
	if !s.Consume('{') {
		return false
	}
	if s.Consume('}') {
		return true
	}
	for {
		var key []byte
		var ok bool
		if plainKeys {
			key, ok = s.PlainString()
		} else {
			ok = s.SkipString()
		}
		if !ok || !s.Consume(':') || !member(key) {
			return false
		}
		switch s.Peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return true
		default:
			return false
		}
	}
}

// Array skips white space and reads an array, calling elem with the scanner before
// each element, which elem must consume. It reports false when elem does, or at
// anything but an array.
func (s *Scanner) Array(elem func() bool) bool {
	if !s.Consume('[') {
		return false
	}
	if s.Consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch s.Peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return true
		default:
			return false
		}
	}
}

// Skip skips white space and consumes one valid JSON value of any type, nested at
// most maxDepth objects or arrays deep below it (0: no object or array in it).
func (s *Scanner) Skip(maxDepth int) bool {
	if maxDepth < 0 {
		return false
	}
	switch s.Peek() {
	case '{':
		return s.members(false, func([]byte) bool { return s.Skip(maxDepth - 1) })
	case '[':
		return s.Array(func() bool { return s.Skip(maxDepth - 1) })
	case '"':
		return s.SkipString()
	case 't':
		return s.Literal("true")
	case 'f':
		return s.Literal("false")
	case 'n':
		return s.Literal("null")
	}
	_, ok := s.Number()
	return ok
}

// RawValue is Skip returning the value's text (aliasing the data, without the white
// space before it).
func (s *Scanner) RawValue(maxDepth int) ([]byte, bool) {
	start := s.Space()
	if !s.Skip(maxDepth) {
		return nil, false
	}
	return s.data[start:s.pos], true
}
