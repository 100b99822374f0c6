package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

func TestCheckDetail(t *testing.T) {
	tests := []struct {
		name    string
		detail  map[string]any
		pointer string // "" when accepted
	}{
		{"nil", nil, ""},
		{"identifiers and counts", map[string]any{
			"status": "APPROVED", "count": 3, "attestationUid": "0x" + strings.Repeat("ab", 32),
			"fromStatus": "PENDING", "jti": "tok_abc", "code": "invalid_signature",
		}, ""},
		{"password", map[string]any{"password": "hunter2"}, "/detail/password"},
		{"api key in snake case", map[string]any{"api_key": "k"}, "/detail/api_key"},
		{"private key, any case", map[string]any{"PrivateKey": "k"}, "/detail/PrivateKey"},
		{"email nested", map[string]any{"holder": map[string]any{"email": "a@b.c"}}, "/detail/holder/email"},
		{"date of birth", map[string]any{"date-of-birth": "1990-01-01"}, "/detail/date-of-birth"},
		{"client ip", map[string]any{"clientIp": "203.0.113.7"}, "/detail/clientIp"},
		{"jwt under an innocent key", map[string]any{"note": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"}, "/detail/note"},
		{"pem in an array", map[string]any{"certs": []any{"ok", "-----BEGIN PRIVATE KEY-----\nMII"}}, "/detail/certs/1"},
		{"pointer escaping", map[string]any{"a/b": map[string]any{"token": "x"}}, "/detail/a~1b/token"},
		{"too large", map[string]any{"blob": strings.Repeat("x", MaxDetailBytes)}, "/detail"},
		{"not JSON", map[string]any{"f": func() {}}, "/detail"},
		// Values that are not their own decoded form are walked decoded.
		{"token in a typed map", map[string]any{"m": map[string]string{"token": "x"}}, "/detail/m/token"},
		{"jwt in a string list", map[string]any{"l": []string{"a", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"}}, "/detail/l/1"},
		{"email in a struct", map[string]any{"s": struct {
			Email string `json:"email"`
		}{"a@b.c"}}, "/detail/s/email"},
		{"invalid UTF-8 key", map[string]any{"pass\xffword": "x"}, ""},
		{"invalid UTF-8 around a jwt", map[string]any{"v": "\xffeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"}, ""},
		{"numbers of every kind", map[string]any{"i": int8(1), "u": uint64(2), "f": float32(0.5), "n": nil, "b": true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDetail(tt.detail)
			// The walk of plain values answers as the walk of the decoded form.
			if raw, merr := json.Marshal(tt.detail); merr == nil && len(raw) <= MaxDetailBytes {
				var v any
				require.NoError(t, json.Unmarshal(raw, &v))
				plain, decodedErr := checkPlain("/detail", v)
				require.True(t, plain, "a decoded detail is plain")
				require.Equal(t, pointerOf(decodedErr), pointerOf(err))
			}
			if tt.pointer == "" {
				require.NoError(t, err)
				return
			}
			require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
			require.Equal(t, tt.pointer, err.(*veriland.Error).Pointer)
		})
	}
}

// pointerOf is the pointer of a validation error, "" for nil.
func pointerOf(err error) string {
	if err == nil {
		return ""
	}
	return err.(*veriland.Error).Pointer
}
