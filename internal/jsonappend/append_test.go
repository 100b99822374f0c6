package jsonappend

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stringCases are strings on both paths of String: written as they are, and handed
// to encoding/json for the bytes it escapes.
var stringCases = []string{"", "plain text 123", "did:veriland:x", `"`, `\`, "<", ">", "&", "a\tb\nc\u0001",
	"\u007f", "été", "\u2028\u2029", "bad\xffutf8", "\xe2\x80", "😀"}

// TestString holds String to json.Marshal.
func TestString(t *testing.T) {
	for _, s := range stringCases {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, "x"+string(want), string(String([]byte("x"), s)), "%q", s)
		require.Equal(t, string(want)+":", string(Key(nil, s)))
	}
}

// TestRaw holds Raw to json.Marshal of a json.RawMessage, errors included.
func TestRaw(t *testing.T) {
	for _, raw := range [][]byte{nil, []byte(`{}`), []byte(`{"a":[1,2.5e3,true,null]}`), []byte(" { \"a\" : 1 } "),
		[]byte(`"<&>"`), []byte(`"é\u2028"`), []byte(`{"a":`), []byte(``), []byte(`1 2`), []byte(`"\u003c"`)} {
		want, werr := json.Marshal(json.RawMessage(raw))
		got, gerr := Raw([]byte("x"), raw)
		if werr != nil {
			require.Error(t, gerr, "%q", raw)
			continue
		}
		require.NoError(t, gerr, "%q", raw)
		require.Equal(t, "x"+string(want), string(got), "%q", raw)
	}
}

// TestTime holds Time to json.Marshal, errors included.
func TestTime(t *testing.T) {
	for _, tm := range []time.Time{{}, time.Date(2026, 11, 28, 5, 6, 7, 890, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", -(3*3600+30*60))),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 30))} {
		want, werr := json.Marshal(tm)
		got, gerr := Time(nil, tm)
		if werr != nil {
			require.Error(t, gerr, "%v", tm)
			continue
		}
		require.NoError(t, gerr)
		require.Equal(t, string(want), string(got))
	}
}

// TestHexAndUint checks the two appenders without a fallback.
func TestHexAndUint(t *testing.T) {
	require.Equal(t, `"0x"`, string(Hex(nil, nil)))
	require.Equal(t, `"0x00ff"`, string(Hex(nil, []byte{0, 255})))
	require.Equal(t, "18446744073709551615", string(Uint(nil, 1<<64-1)))
}

// FuzzString holds String to json.Marshal on any string.
func FuzzString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, json.Marshal %s", s, got, want)
		}
	})
}

// FuzzRaw holds Raw to json.Marshal of a json.RawMessage on any bytes.
func FuzzRaw(f *testing.F) {
	f.Add([]byte(`{"a":[1,"<"]}`))
	f.Add([]byte(" [ ] "))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, werr := json.Marshal(json.RawMessage(raw))
		got, gerr := Raw(nil, raw)
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Fatalf("Raw(%q) = %s, %v; json.Marshal %s, %v", raw, got, gerr, want, werr)
		}
	})
}
