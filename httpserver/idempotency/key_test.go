package idempotency

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

func TestParseKey(t *testing.T) {
	cases := []struct {
		name   string
		header string
		want   string // "" means invalid
	}{
		{"bare", "8e03978e-40d5-43e8-bc93-6894a57f9324", "8e03978e-40d5-43e8-bc93-6894a57f9324"},
		{"quoted", `"8e03978e-40d5-43e8-bc93-6894a57f9324"`, "8e03978e-40d5-43e8-bc93-6894a57f9324"},
		{"one char", "a", "a"},
		{"255 chars", strings.Repeat("k", 255), strings.Repeat("k", 255)},
		{"255 chars quoted", `"` + strings.Repeat("k", 255) + `"`, strings.Repeat("k", 255)},
		{"inner space", "a b", "a b"},
		{"surrounding space", " \tabc\t ", "abc"},
		{"every printable", printableASCII(), printableASCII()},
		{"quoted escapes", `"a\"b\\c"`, `a"b\c`},
		{"bare with inner quote", `a"b`, `a"b`},
		{"bare with backslash", `a\b`, `a\b`},

		{"empty", "", ""},
		{"only spaces", "   ", ""},
		{"empty quoted", `""`, ""},
		{"256 chars", strings.Repeat("k", 256), ""},
		{"256 chars quoted", `"` + strings.Repeat("k", 256) + `"`, ""},
		{"NUL", "a\x00b", ""},
		{"newline", "a\nb", ""},
		{"tab inside", "a\tb", ""},
		{"DEL", "a\x7fb", ""},
		{"escape char", "\x1b[31m", ""},
		{"non-ASCII", "clé", ""},
		{"non-ASCII quoted", `"clé"`, ""},
		{"unterminated quote", `"abc`, ""},
		{"lone quote", `"`, ""},
		{"unescaped inner quote", `"a"b"`, ""},
		{"bad escape", `"a\nb"`, ""},
		{"trailing backslash", `"abc\"`, ""},
		{"control char quoted", "\"a\x01b\"", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseKey(c.header)
			if c.want == "" {
				require.True(t, veriland.IsCode(err, veriland.CodeInvalidIdempotencyKey), "%q: %v", c.header, err)
				require.Empty(t, got)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func printableASCII() string {
	var b strings.Builder
	for c := byte('!'); c <= '~'; c++ { // '!' not ' ': surrounding spaces are trimmed
		b.WriteByte(c)
	}
	return b.String()
}

// quote returns key as a structured-field string.
func quote(key string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(key) + `"`
}

func FuzzParseKey(f *testing.F) {
	for _, seed := range []string{"", "a", `"a"`, `"a\"b"`, `"`, `"\`, "a\x00", strings.Repeat("x", 256), "clé", " a "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		key, err := ParseKey(header)
		if err != nil {
			if !veriland.IsCode(err, veriland.CodeInvalidIdempotencyKey) {
				t.Fatalf("ParseKey(%q): error %v has the wrong code", header, err)
			}
			return
		}
		if len(key) < 1 || len(key) > MaxKeyLen {
			t.Fatalf("ParseKey(%q) = %q: length %d out of range", header, key, len(key))
		}
		for i := 0; i < len(key); i++ {
			if !printable(key[i]) {
				t.Fatalf("ParseKey(%q) = %q: byte %#x not printable", header, key, key[i])
			}
		}
		// Every accepted key survives being sent again in quoted form.
		again, err := ParseKey(quote(key))
		if err != nil || again != key {
			t.Fatalf("ParseKey(quote(%q)) = %q, %v", key, again, err)
		}
	})
}
