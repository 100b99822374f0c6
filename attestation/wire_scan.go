package attestation

import "github.com/veriland/veriland/internal/jsonscan"

// wireScanner reads the typedData of an attestation for the fast decoding path of
// TypedData.UnmarshalJSON (typeddata_scan.go). It accepts a strict subset of what encoding/json accepts and
// reports ok=false for anything outside it — string escapes, invalid UTF-8, null where
// a value is expected, unknown or repeated members, numbers out of float64 range —
// so that the caller falls back to encoding/json, which then decides (and words any
// error) exactly as before. Whatever the scanner accepts, encoding/json decodes to
// the same value: FuzzTypedDataJSON checks it.
//
// b is the input; typedData starts the jsonscan.Scanner over it.
type wireScanner struct {
	b []byte
	jsonscan.Scanner
}

// maxWireDepth bounds the nesting the fast path follows; deeper input falls back.
const maxWireDepth = 256

// str is PlainString as a Go string.
func (s *wireScanner) str() (string, bool) {
	v, ok := s.PlainString()
	return string(v), ok
}

// any consumes a value the way encoding/json decodes into an interface{}: objects as
// map[string]any, arrays as []any, numbers as float64.
func (s *wireScanner) any(depth int) (any, bool) {
	if depth > maxWireDepth {
		return nil, false
	}
	switch s.Peek() {
	case '{':
		m := map[string]any{}
		ok := s.Object(func(key []byte) bool {
			v, ok := s.any(depth + 1)
			m[string(key)] = v
			return ok
		})
		return m, ok
	case '[':
		l := make([]any, 0)
		ok := s.Array(func() bool {
			v, ok := s.any(depth + 1)
			l = append(l, v)
			return ok
		})
		return l, ok
	case '"':
		return s.word()
	case 't':
		return true, s.Literal("true")
	case 'f':
		return false, s.Literal("false")
	case 'n':
		return nil, s.Literal("null")
	default:
		return s.Float()
	}
}

// end reports whether only whitespace is left.
func (s *wireScanner) end() bool { return s.End() }

// word is str for the strings of the attestation format's fixed vocabulary — member
// and type names, the domain and the kinds — which it returns without
// allocating; any other string is copied as str copies it.
func (s *wireScanner) word() (string, bool) {
	v, ok := s.PlainString()
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
