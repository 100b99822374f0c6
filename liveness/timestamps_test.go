package liveness

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/jsonscan"
)

// checkTimestampsLikeFloat64Slice decodes s as Timestamps and as []*float64 (the
// oracle: encoding/json's own number decoding, which tells a null element apart) and
// requires the same outcome: the same values bit for bit, and an error exactly when
// encoding/json refuses s as []float64 or s holds a null element.
func checkTimestampsLikeFloat64Slice(t testing.TB, s string) {
	t.Helper()
	var want []*float64
	wantErr := json.Unmarshal([]byte(s), &want)
	nullAt := -1
	for i, p := range want {
		if p == nil {
			nullAt = i
			break
		}
	}
	var got Timestamps
	gotErr := json.Unmarshal([]byte(s), &got)
	switch {
	case wantErr == nil && nullAt < 0:
		if gotErr != nil {
			t.Fatalf("%q: []float64 decodes, Timestamps refuses: %v", s, gotErr)
		}
		if (want == nil) != (got == nil) || len(want) != len(got) {
			t.Fatalf("%q: []float64 %v, Timestamps %v", s, want, got)
		}
		for i := range want {
			if math.Float64bits(*want[i]) != math.Float64bits(got[i]) {
				t.Fatalf("%q: element %d: []float64 %v, Timestamps %v", s, i, *want[i], got[i])
			}
		}
	case wantErr == nil: // a null element
		var te *json.UnmarshalTypeError
		if !errors.As(gotErr, &te) || te.Field != strconv.Itoa(nullAt) {
			t.Fatalf("%q: null element %d: got %v", s, nullAt, gotErr)
		}
	default:
		if gotErr == nil {
			t.Fatalf("%q: []float64 refuses (%v), Timestamps decodes %v", s, wantErr, got)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(gotErr, &te) && !strings.Contains(wantErr.Error(), "invalid character") &&
			!strings.Contains(wantErr.Error(), "unexpected end") {
			t.Fatalf("%q: only syntax errors may differ in type: want %v, got %v", s, wantErr, gotErr)
		}
	}
	checkParseTimestamps(t, s, want, wantErr == nil && nullAt < 0 && want != nil)
}

// checkParseTimestamps requires ParseTimestamps to read s (after its leading space)
// as the array want exactly when accepted (encoding/json decodes s as an array
// without a null element), ending where the array ends, and never to accept an
// array that encoding/json refuses.
func checkParseTimestamps(t testing.TB, s string, want []*float64, accepted bool) {
	t.Helper()
	data := []byte(s)
	sc := jsonscan.New(data)
	start := sc.Space()
	got, end, ok := ParseTimestamps(data, start)
	sc.Seek(end)
	whole := ok && sc.End()
	if !accepted {
		if whole {
			t.Fatalf("%q: encoding/json refuses it, ParseTimestamps reads %v", s, got)
		}
		return
	}
	if !whole || len(got) != len(want) || got == nil {
		t.Fatalf("%q: ParseTimestamps %v (ok %v, end %d of %d), want %d timestamps", s, got, ok, end, len(data), len(want))
	}
	for i := range want {
		if math.Float64bits(*want[i]) != math.Float64bits(got[i]) {
			t.Fatalf("%q: element %d: []float64 %v, ParseTimestamps %v", s, i, *want[i], got[i])
		}
	}
	// AppendTimestamps reads the same after what dst holds, into dst's storage when
	// it has room: a slice that held other timestamps (stale ones past its length
	// are overwritten) or too small a one.
	for _, dst := range []Timestamps{{}, {-1, -2}, append(make(Timestamps, 0, len(want)+3), -1, -2, -3)[:1]} {
		kept := append(Timestamps{}, dst...)
		app, appEnd, appOK := AppendTimestamps(dst, data, start)
		if !appOK || appEnd != end || len(app) != len(kept)+len(want) {
			t.Fatalf("%q: AppendTimestamps(%v) %v (ok %v, end %d), want %v then %d timestamps", s, kept, app, appOK, appEnd, kept, len(want))
		}
		for i, v := range kept {
			if math.Float64bits(v) != math.Float64bits(app[i]) {
				t.Fatalf("%q: AppendTimestamps(%v) changed element %d: %v", s, kept, i, app)
			}
		}
		for i := range want {
			if math.Float64bits(*want[i]) != math.Float64bits(app[len(kept)+i]) {
				t.Fatalf("%q: AppendTimestamps(%v) element %d: []float64 %v, got %v", s, kept, i, *want[i], app[len(kept)+i])
			}
		}
		if cap(dst)-len(dst) >= len(want)+1 && &app[:cap(app)][0] != &dst[:cap(dst)][0] {
			t.Fatalf("%q: AppendTimestamps allocated although dst had room", s)
		}
	}
}

var timestampCases = []string{
	`[]`, `[1]`, `[ 1 , 2 ,3 ]`, `null`, `[0,-1,9223372036854775807,-9223372036854775808]`,
	"[\n1,\t2\r\n]", `[9223372036854775808]`, `[-9223372036854775809]`, `[1.5]`, `[1e3]`, `["1"]`,
	`[1,null]`, `[null]`, `{}`, `"x"`, `true`, `[[1]]`, `[18446744073709551616]`, `[-0]`, `[01]`,
	`[1795305600000.25, 1795305600033.125, 1795305600066.0625]`, `[0.1, 0.2, 0.3]`, `[1e400]`, `[-1e400]`,
	`[1e-400]`, `[1E+2, 2e-2, 3.5E2]`, `[9007199254740993]`, `[9007199254740992.5]`, `[0.0000000000000000000000001]`,
	`[123456789012345678901234567890]`, `[1.7976931348623157e308]`, `[4.9e-324]`, `[1.]`, `[.5]`, `[-]`, `[1,]`,
	`[1 2]`, `[1e]`, `[1e+]`, `[-01]`, `[2.2250738585072011e-308]`, `[1795305600000.1234567890123]`,
	`[0.30000000000000004]`, `[12345678901234567.5]`, `[` + strings.Repeat("0.1,", 100) + `1]`,
	`[12345678]`, `[1234567890123456]`, `[12345678.87654321]`, `[12345678:]`, `[1234567/9]`, "[1234567\xff9]",
	"[123456789\xfa\xfa\xfa\xfa\xfa\xfa]", `[1234567890123456789012345678901234567890.5]`, `[0.1234567812345678]`,
	`[99999999999999999999]`, `[18446744073709551615.5]`, `[9007199254740992.1]`, `[900719925474099.25]`,
	`[1] `, `[1] x`, `[1]]`, `[1`, `[1,`, `[`, ` [2, 3]`, `[1,2] [3]`, `[1x]`, `[-0.0e-0]`,
}

func TestTimestampsDecodeLikeFloat64Slice(t *testing.T) {
	for _, c := range timestampCases {
		t.Run(c, func(t *testing.T) { checkTimestampsLikeFloat64Slice(t, c) })
	}
}

// TestTimestampsErrorPointer: the element at fault is named by its index alone, so
// that encoding/json's member path is frameTimestamps.3, not
// frameTimestamps.frameTimestamps.
func TestTimestampsErrorPointer(t *testing.T) {
	for body, field := range map[string]string{
		`{"frameTimestamps": [1, 2, 3, "4"]}`:   "frameTimestamps.3",
		`{"frameTimestamps": [1, null]}`:        "frameTimestamps.1",
		`{"frameTimestamps": [1e999]}`:          "frameTimestamps.0",
		`{"frameTimestamps": "1,2"}`:            "frameTimestamps",
		`{"frameTimestamps": {"0": 1}}`:         "frameTimestamps",
		`{"frameTimestamps": [1, [2], 3]}`:      "frameTimestamps.1",
		`{"frameTimestamps": [1, {"a": 2}]}`:    "frameTimestamps.1",
		`{"frameTimestamps": [0.5, 1.5, true]}`: "frameTimestamps.2",
	} {
		var req VerifyRequest
		err := json.Unmarshal([]byte(body), &req)
		var te *json.UnmarshalTypeError
		require.True(t, errors.As(err, &te), "%s: %v", body, err)
		require.Equal(t, field, te.Field, body)
	}
	// And DecodeVerifyRequest turns it into the pointer.
	_, err := DecodeVerifyRequest([]byte(`{"frameTimestamps": [1, 2, 3, "4"]}`))
	var e *veriland.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, veriland.CodeValidationFailed, e.Code)
	require.Equal(t, "/frameTimestamps/3", e.Pointer)
}

func FuzzTimestamps(f *testing.F) {
	for _, s := range timestampCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkTimestampsLikeFloat64Slice(t, s) })
}

// BenchmarkTimestamps decodes 10,000 timestamps, whole milliseconds and with a
// fraction, with the scanner (through encoding/json, and alone) and with
// encoding/json's []float64.
func BenchmarkTimestamps(b *testing.B) {
	for _, c := range []struct {
		name string
		elem func(i int) string
	}{
		{"whole", func(i int) string { return strconv.FormatInt(1795305600000+int64(i)*33, 10) }},
		{"fraction", func(i int) string {
			return strconv.FormatFloat(1795305600000+float64(i)*33.366, 'f', 3, 64)
		}},
	} {
		parts := make([]string, 10000)
		for i := range parts {
			parts[i] = c.elem(i)
		}
		data := []byte("[" + strings.Join(parts, ",") + "]")
		b.Run(c.name+"/Timestamps", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var ts Timestamps
				if err := json.Unmarshal(data, &ts); err != nil || len(ts) != 10000 {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/ParseTimestamps", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if ts, _, ok := ParseTimestamps(data, 0); !ok || len(ts) != 10000 {
					b.Fatal(ok)
				}
			}
		})
		b.Run(c.name+"/[]float64", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var ts []float64
				if err := json.Unmarshal(data, &ts); err != nil || len(ts) != 10000 {
					b.Fatal(err)
				}
			}
		})
	}
}
