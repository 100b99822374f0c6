package audit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// fuzzEntry builds a wireEntry from fuzzed parts: strings in every member and a
// detail of the value kinds canonicalEntry writes (and some it leaves to canonical).
func fuzzEntry(s1, s2, key string, n int64, kind uint8, seq uint64, hash bool) wireEntry {
	detail := map[string]any{"status": s1, key: s2}
	switch kind % 8 {
	case 1:
		detail["n"] = n
	case 2:
		detail["b"] = n%2 == 0
	case 3:
		detail["z"] = nil
	case 4:
		detail["f"] = float64(n) / 7 // left to canonical
	case 5:
		detail["u"] = uint64(n)
	case 6:
		detail["nested"] = map[string]any{"a": s1} // left to canonical
	case 7:
		detail["i"] = int(n)
	}
	w := wireEntry{Seq: seq, ID: "aud_" + s1, Time: s2, Env: veriland.Sandbox, Actor: s1, Role: veriland.Role(s2),
		Action: s1, ResourceType: s2, ResourceID: s1 + s2, Severity: Severity(s1), Outcome: Outcome(s2),
		RequestID: s2, Detail: detail, PrevHash: s1}
	if hash {
		w.Hash = s2
	}
	return w
}

// FuzzCanonicalEntry: canonicalEntry writes exactly what canonical (encoding/json,
// then gowebpki/jcs) writes, whenever it accepts the entry.
func FuzzCanonicalEntry(f *testing.F) {
	f.Add("ok", "verifier-acme", "verifier", int64(3), uint8(1), uint64(7), true)
	f.Add("\"\\\b\f\n\r\t\x00\x1f\x7f", "<>&\u2028\u2029", "k\x01", int64(-1), uint8(2), uint64(0), false)
	f.Add("\xff\xfe invalid", "العربية 𝄞 emoji 😀", "zz", int64(1<<53-1), uint8(5), uint64(math.MaxUint64), true)
	f.Add("a", "b", "é", int64(1<<60), uint8(7), uint64(1), false)
	f.Add("", "", "", int64(0), uint8(3), uint64(0), false)
	f.Add("x", "y", "n", int64(-(1 << 53)), uint8(4), uint64(2), true)
	f.Add("x", "y", "q", int64(5), uint8(6), uint64(2), true)
	f.Fuzz(func(t *testing.T, s1, s2, key string, n int64, kind uint8, seq uint64, hash bool) {
		w := fuzzEntry(s1, s2, key, n, kind, seq, hash)
		want, err := canonical(w)
		require.NoError(t, err)
		got, ok := canonicalEntry(w)
		if !ok {
			return
		}
		require.Equal(t, string(want), string(got))
	})
}

// TestCanonicalEntryTakesTheCommonEntries: the entries the server writes take the
// direct path (a detail of strings and integers under ASCII keys).
func TestCanonicalEntryTakesTheCommonEntries(t *testing.T) {
	tests := []struct {
		name   string
		detail map[string]any
		ok     bool
	}{
		{"nil detail", nil, true},
		{"strings", map[string]any{"status": "APPROVED", "verifier": "v"}, true},
		{"integers", map[string]any{"count": 3, "max": int64(1<<53 - 1)}, true},
		{"too large", map[string]any{"big": int64(1 << 53)}, false},
		{"float", map[string]any{"f": 1.5}, false},
		{"non-ASCII key", map[string]any{"é": "x"}, false},
		{"object", map[string]any{"o": map[string]any{}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Entry{ID: "aud_x", Env: veriland.Sandbox, Detail: tt.detail}.wire()
			got, ok := canonicalEntry(w)
			require.Equal(t, tt.ok, ok)
			if ok {
				want, err := canonical(w)
				require.NoError(t, err)
				require.Equal(t, string(want), string(got))
			}
		})
	}
}
