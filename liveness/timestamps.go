package liveness

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// Timestamps are frame capture times in unix milliseconds; fractions of a
// millisecond are valid (the source document types them "number"). They decode from
// a JSON array of numbers exactly as []float64 would, except that a null element is
// refused (it is no timestamp), but with a scanner of their own: encoding/json
// decodes a 10,000-element array through reflection one element at a time, which was
// three quarters of the server's CPU for a /liveness/verify request.
type Timestamps []float64

// UnmarshalJSON implements json.Unmarshaler. encoding/json has already checked that
// data is one valid JSON value. null leaves ts nil (as for any slice; validation then
// asks for the member). Anything but an array of numbers that fit in a float64 is
// refused with a *json.UnmarshalTypeError whose Field is the offending element's
// index ("3"), or "" when data is not an array, so that encoding/json reports the
// member path frameTimestamps.3 (pointer /frameTimestamps/3) or frameTimestamps.
func (ts *Timestamps) UnmarshalJSON(data []byte) error {
	i := skipBlank(data, 0)
	if i < len(data) && data[i] == 'n' { // null: like []float64, leave it nil
		*ts = nil
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return timestampTypeError(valueKind(data, i), "")
	}
	out, _, err := scanTimestampArray(data, i)
	if err != nil {
		return err
	}
	*ts = out
	return nil
}

// ParseTimestamps reads the JSON array of numbers that begins at data[i] (its '[',
// no space before it) exactly as Timestamps.UnmarshalJSON decodes it, and returns
// the timestamps and the index after the closing ']'. ok is false when data[i:] does
// not begin with such an array: a null or non-number element, malformed JSON, a
// number out of float64's range. It lets a decoder that scans a whole body in one
// pass read the timestamps without finding the array's end first.
func ParseTimestamps(data []byte, i int) (ts Timestamps, end int, ok bool) {
	if i >= len(data) || data[i] != '[' {
		return nil, i, false
	}
	ts, end, err := scanTimestampArray(data, i)
	return ts, end, err == nil
}

// scanTimestampArray reads the array of numbers whose '[' is data[i] and returns it
// with the index after its ']'; its error is the *json.UnmarshalTypeError
// UnmarshalJSON returns.
func scanTimestampArray(data []byte, i int) (Timestamps, int, error) {
	// Size the slice once: a valid array holds one number more than the commas
	// before its ']' (found by bytes' vectorised search, a few µs for 10,000
	// timestamps). Past MaxFrameTimestamps+1, which no verification accepts, it grows
	// as it is read, so that a body of commas does not cost eight times its size.
	n := MaxFrameTimestamps + 1
	if end := bytes.IndexByte(data[i:], ']'); end >= 0 {
		n = min(n, bytes.Count(data[i:i+end], []byte{','})+1)
	}
	out := make(Timestamps, 0, n)
	i = skipBlank(data, i+1)
	if i < len(data) && data[i] == ']' {
		return out, i + 1, nil
	}
	for {
		v, next, ok := parseNumber(data, i)
		if !ok {
			return nil, i, timestampTypeError(valueKind(data, i), strconv.Itoa(len(out)))
		}
		out = append(out, v)
		i = skipBlank(data, next)
		if i >= len(data) {
			return nil, i, timestampTypeError("array", "")
		}
		switch data[i] {
		case ',':
			i = skipBlank(data, i+1)
		case ']':
			return out, i + 1, nil
		default:
			return nil, i, timestampTypeError("array", "")
		}
	}
}

// timestampTypeError reports a value of kind what where a number (or an array of
// them) belongs; field is the element's index, or "" for the member itself.
func timestampTypeError(what, field string) error {
	return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeFor[float64](), Field: field}
}

// valueKind names the JSON value starting at data[i], for error messages.
func valueKind(data []byte, i int) string {
	if i >= len(data) {
		return "value"
	}
	switch c := data[i]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return "value"
}

func skipBlank(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber reads the JSON number at data[i:] (-? int frac? exp?) and returns its
// float64 value, rounded as strconv.ParseFloat (and so encoding/json) rounds it,
// with the index after it. It refuses anything else, and numbers out of float64's
// range.
//
// The common timestamp (all its digits, the fraction's included, making an integer
// m ≤ 2^53, at most 22 of them after the point, no exponent) takes Clinger's fast
// path: m and 10^k are both exact float64s, so m / 10^k is one correctly rounded
// division, the value ParseFloat returns. Anything else goes through
// strconv.ParseFloat.
func parseNumber(data []byte, i int) (float64, int, bool) {
	start := i
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	var m uint64 // every digit read, the fraction's included
	nd := 0      // how many: at most 19 cannot overflow m
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for ; i < len(data); i++ {
			c := data[i] - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
			nd++
		}
	default:
		return 0, i, false
	}
	frac := 0
	if i < len(data) && data[i] == '.' {
		i++
		fs := i
		for ; i < len(data); i++ {
			c := data[i] - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
			nd++
		}
		if i == fs {
			return 0, i, false
		}
		frac = i - fs
	}
	exact := nd <= 19 && m <= 1<<53 && frac < len(pow10)
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		exact = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		es := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == es {
			return 0, i, false
		}
	}
	if exact {
		f := float64(m)
		if frac > 0 {
			f /= pow10[frac]
		}
		if neg {
			f = -f
		}
		return f, i, true
	}
	f, err := strconv.ParseFloat(string(data[start:i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, i, false
	}
	return f, i, true
}
