package httpserver

import (
	"encoding/json"
	"testing"
)

// TestHealthJSONIsEncodingJSON checks the hand-written health encoding against
// json.Marshal on the bodies the route writes and on strings that need escapes.
func TestHealthJSONIsEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		body healthBody
	}{
		{"ok", healthBody{Status: "ok", Version: "dev", Checks: map[string]string{"storage": "ok", "anchor": "disabled", "webhooks": "ok"}}},
		{"down", healthBody{Status: "down", Version: "v1.2.3", Checks: map[string]string{"storage": "down"}}},
		{"no checks", healthBody{Status: "ok", Version: "dev", Checks: map[string]string{}}},
		{"nil checks", healthBody{Status: "ok"}},
		{"escapes", healthBody{Status: "ok", Version: "v<1>&\"\\\n\t\u2028é\xff\x7f", Checks: map[string]string{"b<": "\x00", "a": "", "é": "ok"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkHealthJSON(t, tc.body)
		})
	}
}

// FuzzHealthJSON checks appendHealthJSON against json.Marshal on any strings.
func FuzzHealthJSON(f *testing.F) {
	f.Add("ok", "dev", "storage", "ok", "anchor", "disabled")
	f.Add("down", "v<1>", "b&", "\u2028", "\xff", "\\")
	f.Fuzz(func(t *testing.T, status, version, k1, v1, k2, v2 string) {
		checkHealthJSON(t, healthBody{Status: status, Version: version, Checks: map[string]string{k1: v1, k2: v2}})
	})
}

func checkHealthJSON(t *testing.T, body healthBody) {
	t.Helper()
	want, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendHealthJSON(nil, body); string(got) != string(want)+"\n" {
		t.Fatalf("appendHealthJSON = %q, json.Marshal = %q", got, want)
	}
}
