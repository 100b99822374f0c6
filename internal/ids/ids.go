package ids

import (
	"encoding/base32"
	"fmt"
	"io"
	"strings"

	"github.com/mr-tron/base58"
)

var encoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Length is the number of random characters after the prefix.
const Length = 26

// New returns prefix + "_" + 26 random base32 characters read from rand.
func New(rand io.Reader, prefix string) (string, error) {
	var b [20]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", fmt.Errorf("ids: reading randomness: %w", err)
	}
	return prefix + "_" + encoding.EncodeToString(b[:])[:Length], nil
}

// Valid reports whether id has the given prefix followed by 26 base32 characters.
func Valid(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix+"_")
	if !ok || len(rest) != Length {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// NewDID returns "did:veriland:" + 22 base58 characters of 128 random bits.
func NewDID(rand io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", fmt.Errorf("ids: reading randomness: %w", err)
	}
	s := base58.Encode(b[:])
	// base58 of 16 bytes is 21 or 22 characters (fewer with leading zero bytes, which
	// encode as '1'); left-pad with '1', base58's zero digit, to a fixed width.
	if len(s) < 22 {
		s = strings.Repeat("1", 22-len(s)) + s
	}
	return "did:veriland:" + s, nil
}
