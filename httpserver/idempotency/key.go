package idempotency

import (
	"strings"

	"github.com/veriland/veriland"
)

// HeaderKey is the request header that carries the key.
const HeaderKey = "Idempotency-Key"

// MaxKeyLen is the longest key accepted, in bytes (SPEC S2.4).
const MaxKeyLen = 255

// ParseKey parses the value of an Idempotency-Key header: 1..255 printable ASCII
// characters (0x20..0x7E), sent bare or as a structured-field string
// (draft-ietf-httpapi-idempotency-key-header), in which '"' and '\' are escaped with '\'.
// Leading and trailing spaces and tabs around the value are ignored. A bare value that
// starts with '"' is read as a string, so `"abc"` and abc are the same key.
//
// The length limit applies to the key itself, after unquoting. Any other input returns
// an invalid_idempotency_key *veriland.Error.
func ParseKey(header string) (string, error) {
	v := strings.Trim(header, " \t")
	key := v
	if strings.HasPrefix(v, `"`) {
		var ok bool
		if key, ok = unquote(v); !ok {
			return "", invalidKey("Idempotency-Key is not a well-formed quoted string")
		}
	}
	if err := validKey(key); err != nil {
		return "", err
	}
	return key, nil
}

// validKey checks an already unquoted key.
func validKey(key string) error {
	if len(key) == 0 {
		return invalidKey("Idempotency-Key must not be empty")
	}
	if len(key) > MaxKeyLen {
		return invalidKey("Idempotency-Key must be at most 255 characters")
	}
	for i := 0; i < len(key); i++ {
		if !printable(key[i]) {
			return invalidKey("Idempotency-Key must be printable ASCII")
		}
	}
	return nil
}

// unquote decodes an RFC 8941 sf-string that spans all of s.
func unquote(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	inner := s[1 : len(s)-1]
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case c == '\\':
			i++
			if i == len(inner) || inner[i] != '"' && inner[i] != '\\' {
				return "", false
			}
			b.WriteByte(inner[i])
		case c == '"' || !printable(c):
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func printable(c byte) bool { return c >= 0x20 && c <= 0x7e }

func invalidKey(msg string) *veriland.Error {
	return &veriland.Error{Code: veriland.CodeInvalidIdempotencyKey, Message: msg}
}
