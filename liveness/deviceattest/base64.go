package deviceattest

import (
	"encoding/base64"
	"errors"
	"strings"
)

// decodeBase64 accepts standard or URL-safe base64, padded or not, since clients on
// both platforms produce either.
func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if strings.ContainsAny(s, "-_") {
		if strings.ContainsAny(s, "+/") {
			return nil, errors.New("mixed base64 alphabets")
		}
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}
