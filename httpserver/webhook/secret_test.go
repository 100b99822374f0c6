package webhook

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/veriland/veriland"
)

func TestNewSecretRoundTrip(t *testing.T) {
	s, err := NewSecret(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.key); got != newSecretLen {
		t.Fatalf("key length %d, want %d", got, newSecretLen)
	}
	text := s.String()
	if !strings.HasPrefix(text, SecretPrefix) {
		t.Fatalf("String() = %q, want prefix %q", text, SecretPrefix)
	}
	back, err := ParseSecret(text)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.key, s.key) {
		t.Fatal("ParseSecret(String()) changed the key")
	}
}

func TestNewSecretShortRead(t *testing.T) {
	if _, err := NewSecret(iotest.ErrReader(errors.New("no entropy"))); err == nil {
		t.Fatal("NewSecret with a failing reader: want an error")
	}
	if _, err := NewSecret(bytes.NewReader(make([]byte, 5))); err == nil {
		t.Fatal("NewSecret with a short reader: want an error")
	}
}

func TestParseSecret(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"official vector", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", true},
		{"unpadded base64", "whsec_" + strings.TrimRight(Secret{key: make([]byte, 32)}.String()[6:], "="), true},
		{"64 bytes", Secret{key: make([]byte, 64)}.String(), true},
		{"no prefix", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", false},
		{"wrong prefix", "whsk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", false},
		{"empty", "", false},
		{"prefix only", "whsec_", false},
		{"bad base64", "whsec_not*base64!", false},
		{"too short", Secret{key: make([]byte, 15)}.String(), false},
		{"too long", Secret{key: make([]byte, 65)}.String(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSecret(tt.in)
			if tt.ok {
				if err != nil || s.IsZero() {
					t.Fatalf("ParseSecret: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidSecret) || !veriland.IsCode(err, veriland.CodeValidationFailed) {
				t.Fatalf("ParseSecret error = %v, want validation_failed wrapping ErrInvalidSecret", err)
			}
			if tt.in != "" && len(tt.in) > 8 && strings.Contains(err.Error(), tt.in[6:]) {
				t.Fatalf("error %q repeats the secret", err)
			}
		})
	}
}

func TestSecretLogValueRedacts(t *testing.T) {
	s, err := ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("configured", "secret", s)
	if strings.Contains(buf.String(), "MfKQ9r8") {
		t.Fatalf("log line leaks the secret: %s", buf.String())
	}
}
