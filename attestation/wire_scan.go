package attestation

import (
	"strconv"
	"unicode/utf8"
)

// wireScanner reads the typedData of an attestation for the fast decoding path of
// TypedData.UnmarshalJSON (typeddata_scan.go). It accepts a strict subset of what encoding/json accepts and
// reports ok=false for anything outside it — string escapes, invalid UTF-8, null where
// a value is expected, unknown or repeated members, numbers out of float64 range —
// so that the caller falls back to encoding/json, which then decides (and words any
// error) exactly as before. Whatever the scanner accepts, encoding/json decodes to
// the same value: FuzzTypedDataJSON checks it.
type wireScanner struct {
	b []byte
	i int
}

// maxWireDepth bounds the nesting the fast path follows; deeper input falls back.
const maxWireDepth = 256

// ws skips JSON whitespace.
func (s *wireScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (s *wireScanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// consume skips whitespace and, when the next byte is c, consumes it.
func (s *wireScanner) consume(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// literal consumes lit (true, false, null) after whitespace.
func (s *wireScanner) literal(lit string) bool {
	s.ws()
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// plainString consumes a string with no escapes and no control characters, in valid
// UTF-8, and returns its contents (aliasing the input).
func (s *wireScanner) plainString() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	ascii := true
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			v := s.b[start:j]
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			s.i = j + 1
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// str is plainString as a Go string.
func (s *wireScanner) str() (string, bool) {
	v, ok := s.plainString()
	return string(v), ok
}

// object walks the members of an object, calling member with each key (aliasing the
// input; keys with escapes are refused) with the scanner before its value.
func (s *wireScanner) object(member func(key []byte) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		key, ok := s.plainString()
		if !ok || !s.consume(':') || !member(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// array walks the elements of an array, calling elem with the scanner before each.
func (s *wireScanner) array(elem func() bool) bool {
	if !s.consume('[') {
		return false
	}
	if s.consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// rawValue consumes any valid JSON value, escapes and all, and returns its bytes
// (aliasing the input).
func (s *wireScanner) rawValue(depth int) ([]byte, bool) {
	s.ws()
	start := s.i
	if !s.skip(depth) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// skip consumes any valid JSON value (RFC 8259 grammar, as encoding/json's scanner
// reads it: string bytes are not checked for UTF-8 validity).
func (s *wireScanner) skip(depth int) bool {
	if depth > maxWireDepth {
		return false
	}
	switch s.peek() {
	case '{':
		return s.object(func([]byte) bool { return s.skip(depth + 1) })
	case '[':
		return s.array(func() bool { return s.skip(depth + 1) })
	case '"':
		return s.skipString()
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		_, ok := s.number()
		return ok
	}
}

// skipString consumes a string, escapes included.
func (s *wireScanner) skipString() bool {
	j := s.i + 1
	for j < len(s.b) {
		c := s.b[j]
		switch {
		case c == '"':
			s.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if j+1 >= len(s.b) {
				return false
			}
			switch s.b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(s.b) {
					return false
				}
				for _, h := range s.b[j+2 : j+6] {
					if !isHex(h) {
						return false
					}
				}
				j += 6
			default:
				return false
			}
		default:
			j++
		}
	}
	return false
}

// number consumes a JSON number and returns its text.
func (s *wireScanner) number() ([]byte, bool) {
	s.ws()
	b, start := s.b, s.i
	j := start
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	default:
		return nil, false
	}
	if j < len(b) && b[j] == '.' {
		j++
		if j >= len(b) || b[j] < '0' || b[j] > '9' {
			return nil, false
		}
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j >= len(b) || b[j] < '0' || b[j] > '9' {
			return nil, false
		}
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	}
	s.i = j
	return b[start:j], true
}

// any consumes a value the way encoding/json decodes into an interface{}: objects as
// map[string]any, arrays as []any, numbers as float64.
func (s *wireScanner) any(depth int) (any, bool) {
	if depth > maxWireDepth {
		return nil, false
	}
	switch s.peek() {
	case '{':
		m := map[string]any{}
		ok := s.object(func(key []byte) bool {
			v, ok := s.any(depth + 1)
			m[string(key)] = v
			return ok
		})
		return m, ok
	case '[':
		l := make([]any, 0)
		ok := s.array(func() bool {
			v, ok := s.any(depth + 1)
			l = append(l, v)
			return ok
		})
		return l, ok
	case '"':
		return s.word()
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	case 'n':
		return nil, s.literal("null")
	default:
		n, ok := s.number()
		if !ok {
			return nil, false
		}
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	}
}

// end reports whether only whitespace is left.
func (s *wireScanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// word is str for the strings of the attestation format's fixed vocabulary — member
// and type names, the domain and the kinds — which it returns without
// allocating; any other string is copied as str copies it.
func (s *wireScanner) word() (string, bool) {
	v, ok := s.plainString()
	if !ok {
		return "", false
	}
	return vocabulary(v), true
}

// vocabulary returns string(b), without allocating when b is a word of the format.
func vocabulary(b []byte) string {
	switch string(b) {
	case "":
		return ""
	case "id":
		return "id"
	case "kind":
		return "kind"
	case "subject":
		return "subject"
	case "verifier":
		return "verifier"
	case "scope":
		return "scope"
	case "claimsHash":
		return "claimsHash"
	case "evidenceHash":
		return "evidenceHash"
	case "issuedAt":
		return "issuedAt"
	case "expiresAt":
		return "expiresAt"
	case "name":
		return "name"
	case "version":
		return "version"
	case "chainId":
		return "chainId"
	case "verifyingContract":
		return "verifyingContract"
	case "salt":
		return "salt"
	case "string":
		return "string"
	case "string[]":
		return "string[]"
	case "bytes32":
		return "bytes32"
	case "uint64":
		return "uint64"
	case "uint256":
		return "uint256"
	case "EIP712Domain":
		return "EIP712Domain"
	case PrimaryType:
		return PrimaryType
	case DomainName:
		return DomainName
	case DomainVersion:
		return DomainVersion
	case string(KindConsent):
		return string(KindConsent)
	case string(KindLiveness):
		return string(KindLiveness)
	case string(KindChipBinding):
		return string(KindChipBinding)
	}
	return string(b)
}
