package webhook

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/veriland/veriland"
)

// SecretPrefix starts the text form of every Standard Webhooks secret.
const SecretPrefix = "whsec_"

// Key sizes accepted by ParseSecret. Standard Webhooks recommends 24 to 64 bytes; 16 is
// accepted for providers that issue 128-bit keys, anything shorter is refused.
const (
	minSecretLen = 16
	maxSecretLen = 64
	newSecretLen = 32
)

// ErrInvalidSecret is the cause of every error ParseSecret returns.
var ErrInvalidSecret = errors.New("webhook: invalid secret")

// Secret is an HMAC-SHA256 key for signing and verifying webhooks. Its text form is
// "whsec_" followed by the standard base64 encoding of the key.
//
// The zero Secret holds no key: Sign skips it and Verify never accepts a signature made
// with it, so a missing configuration fails closed.
type Secret struct {
	key []byte
}

// NewSecret returns a 32-byte secret read from rand (crypto/rand.Reader in production).
func NewSecret(rand io.Reader) (Secret, error) {
	key := make([]byte, newSecretLen)
	if _, err := io.ReadFull(rand, key); err != nil {
		return Secret{}, fmt.Errorf("webhook: reading secret: %w", err)
	}
	return Secret{key: key}, nil
}

// ParseSecret parses the "whsec_<base64>" form. It refuses a missing prefix, bad base64
// and keys shorter than 16 or longer than 64 bytes, with a validation_failed
// *veriland.Error whose cause is ErrInvalidSecret. The message never repeats the input.
func ParseSecret(s string) (Secret, error) {
	rest, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok {
		return Secret{}, invalidSecret("secret must start with %q", SecretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		// Some providers drop the padding.
		key, err = base64.RawStdEncoding.DecodeString(rest)
	}
	if err != nil {
		return Secret{}, invalidSecret("secret is not valid base64 after %q", SecretPrefix)
	}
	if len(key) < minSecretLen || len(key) > maxSecretLen {
		return Secret{}, invalidSecret("secret key must be %d to %d bytes, got %d", minSecretLen, maxSecretLen, len(key))
	}
	return Secret{key: key}, nil
}

func invalidSecret(format string, args ...any) error {
	return veriland.Errorf(veriland.CodeValidationFailed, format, args...).WithCause(ErrInvalidSecret)
}

// IsZero reports whether s holds no key.
func (s Secret) IsZero() bool { return len(s.key) == 0 }

// String returns the "whsec_<base64>" form. It is secret material: hand it only to the
// party that verifies the webhooks, never to a log (LogValue redacts it for slog).
func (s Secret) String() string {
	if s.IsZero() {
		return ""
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(s.key)
}

// LogValue implements slog.LogValuer so that logging a Secret never prints the key.
func (s Secret) LogValue() slog.Value {
	if s.IsZero() {
		return slog.StringValue("")
	}
	return slog.StringValue(SecretPrefix + "REDACTED")
}
