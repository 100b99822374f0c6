package auth

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// TestVerifyNumericDateTypes checks that exp, iat and nbf are accepted only as JSON
// numbers (RFC 7519 NumericDate), even in a token signed with the real secret.
func TestVerifyNumericDateTypes(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tk := newTokens(now)
	exp := now.Add(time.Hour).Unix()
	base := func() jwt.MapClaims {
		return jwt.MapClaims{"iss": "veriland", "sub": "admin", "role": "admin", "env": "SANDBOX",
			"jti": "jti_x", "iat": now.Unix(), "exp": exp}
	}
	with := func(k string, v any) jwt.MapClaims { c := base(); c[k] = v; return c }
	cases := []struct {
		name   string
		claims jwt.MapClaims
		ok     bool
		cause  error // ErrMalformed when the JWT library cannot decode the value at all
	}{
		{"exp number", base(), true, nil},
		{"exp float", with("exp", float64(exp)+0.5), true, nil},
		{"nbf number", with("nbf", now.Unix()), true, nil},
		{"exp string", with("exp", "1999999999"), false, nil},
		{"exp string of now+1h", with("exp", "1795262400"), false, nil},
		{"exp null", with("exp", nil), false, nil},
		{"exp true", with("exp", true), false, ErrMalformed},
		{"exp object", with("exp", map[string]any{"n": exp}), false, ErrMalformed},
		{"exp array", with("exp", []any{exp}), false, ErrMalformed},
		{"iat string", with("iat", "1700000000"), false, nil},
		{"iat null", with("iat", nil), false, nil},
		{"iat bool", with("iat", false), false, ErrMalformed},
		{"nbf string", with("nbf", "1700000000"), false, nil},
		{"nbf null", with("nbf", nil), false, nil},
		{"nbf bool", with("nbf", true), false, ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw := signRaw(t, jwt.SigningMethodHS256, sandboxSecret, "sandbox", tc.claims)
			p, err := tk.Verify(raw)
			if tc.ok {
				require.NoError(t, err)
				require.Equal(t, "admin", p.Subject)
				return
			}
			require.Error(t, err)
			var ve *veriland.Error
			require.ErrorAs(t, err, &ve)
			require.Equal(t, veriland.CodeUnauthenticated, ve.Code)
			want := tc.cause
			if want == nil {
				want = ErrClaims
			}
			require.ErrorIs(t, err, want)
		})
	}
}

// numericDatePayloads are JWT payloads for the two paths of checkNumericDates, with
// whether each passes: the one-pass scan and, for what it does not read, encoding/json.
var numericDatePayloads = []struct {
	payload string
	numeric bool
}{
	{`{"exp":1795262400,"iat":1795258800}`, true},
	{`{"sub":"a"}`, true},
	{`{"exp":-1.5e3}`, true},
	{` { "exp" : 1 , "nested" : {"exp":"x","a":[{"iat":null}]} } `, true},
	{`{"exp":"1795262400"}`, false},
	{`{"iat":null}`, false},
	{`{"nbf":true}`, false},
	{`{"exp":[1]}`, false},
	{`{"exp":"1","exp":2}`, true}, // the last member wins, as in encoding/json
	{`{"exp":2,"exp":"1"}`, false},
	{`{"\u0065xp":"1"}`, false}, // an escaped name: encoding/json decides
	{`{"\u0065xp":1,"exp":"1"}`, false},
	{`{"exp":"1","\u0065xp":1}`, true},
	{`{"exp":1}x`, false},
	{`[1]`, false},
	{``, false},
	{`{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `,"exp":"1"}`, false}, // deeper than the scan reads
}

// TestNumericDatePayloads checks both paths of checkNumericDates on
// numericDatePayloads, and that the scan, where it decides, agrees with encoding/json.
func TestNumericDatePayloads(t *testing.T) {
	for _, tc := range numericDatePayloads {
		t.Run(tc.payload, func(t *testing.T) {
			numeric, scanned := scanNumericDates([]byte(tc.payload))
			if !scanned {
				numeric = decodeNumericDates([]byte(tc.payload))
			}
			require.Equal(t, tc.numeric, numeric)
			require.Equal(t, decodeNumericDates([]byte(tc.payload)), numeric)
			raw := "e30." + base64.RawURLEncoding.EncodeToString([]byte(tc.payload)) + ".c2ln"
			err := checkNumericDates(jwt.NewParser(), raw)
			require.Equal(t, tc.numeric, err == nil, "%v", err)
		})
	}
	require.Error(t, checkNumericDates(jwt.NewParser(), "e30.e30"))
	require.Error(t, checkNumericDates(jwt.NewParser(), "e30.e30.c2ln.x"))
}

// FuzzNumericDates holds the one-pass scan to encoding/json's answer on every payload
// it decides.
func FuzzNumericDates(f *testing.F) {
	for _, tc := range numericDatePayloads {
		f.Add([]byte(tc.payload))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		numeric, scanned := scanNumericDates(payload)
		if scanned && numeric != decodeNumericDates(payload) {
			t.Fatalf("scan says %v, encoding/json %v, for %q", numeric, !numeric, payload)
		}
	})
}
