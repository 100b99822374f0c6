package webhook

import (
	"bytes"
	"encoding/json"
	"testing"
)

// eventPayload is the body of every attempt (SPEC S8), the struct encodePayload
// writes as json.Marshal would.
type eventPayload struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// TestEncodePayload: encodePayload writes exactly json.Marshal's bytes for the
// payload, for data json.Marshal wrote, including the characters json.Marshal
// escapes (HTML, U+2028/U+2029, controls, invalid UTF-8).
func TestEncodePayload(t *testing.T) {
	values := []any{
		map[string]any{},
		map[string]any{"requestId": "vrq_x", "status": "APPROVED", "n": 1.5, "ok": true, "none": nil},
		map[string]any{"html": "<script>&</script>", "ls": "a\u2028b\u2029c", "ctl": "\x00\x1f\"\\", "bad": "\xff\xfe", "emoji": "ünï 😀"},
		map[string]any{"nested": []any{map[string]any{"a": []int{1, 2, 3}}, "x"}},
		struct {
			A string `json:"a"`
			B []byte `json:"b"`
		}{"<&>", []byte{0, 1, 2}},
	}
	types := []string{"verification.approved", "", "a\"b", "<x>&", "\u2028", "\xff", "ünï"}
	for _, v := range values {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, typ := range types {
			want, err := json.Marshal(eventPayload{Type: typ, Timestamp: "2026-11-24T07:00:00.000Z", Data: data})
			if err != nil {
				t.Fatal(err)
			}
			if got := encodePayload(typ, "2026-11-24T07:00:00.000Z", data); !bytes.Equal(got, want) {
				t.Errorf("type %q, data %s:\n got %s\nwant %s", typ, data, got, want)
			}
		}
	}
}

// FuzzEncodePayload checks encodePayload against json.Marshal for any event type
// and timestamp, and any data json.Marshal writes (from a decoded JSON document).
func FuzzEncodePayload(f *testing.F) {
	f.Add("verification.approved", "2026-11-24T07:00:00.000Z", []byte(`{"a":"<b>","c":[1,2,{"d":null}]}`))
	f.Add("<&>", "\u2028", []byte(`{"x":"\u2029\u00e9"}`))
	f.Add("", "", []byte(`{}`))
	f.Fuzz(func(t *testing.T, typ, timestamp string, doc []byte) {
		var v map[string]any
		if json.Unmarshal(doc, &v) != nil {
			return
		}
		data, err := json.Marshal(v)
		if err != nil {
			return
		}
		want, err := json.Marshal(eventPayload{Type: typ, Timestamp: timestamp, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		if got := encodePayload(typ, timestamp, data); !bytes.Equal(got, want) {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	})
}
