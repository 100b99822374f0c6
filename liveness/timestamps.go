package liveness

import (
	"encoding/json"
	"math"
	"reflect"
)

// Timestamps are frame capture times in unix milliseconds. They decode from a JSON
// array of integers exactly as []int64 would, but with a scanner of their own:
// encoding/json decodes a 10,000-element array through reflection one element at a
// time, which was three quarters of the server's CPU for a /liveness/verify request.
type Timestamps []int64

// UnmarshalJSON implements json.Unmarshaler. encoding/json has already checked that
// data is one valid JSON value; anything but null or an array of integers that fit
// in an int64 (or null, decoded as 0, as encoding/json does) is refused with a
// *json.UnmarshalTypeError for the frameTimestamps member.
func (ts *Timestamps) UnmarshalJSON(data []byte) error {
	i := skipBlank(data, 0)
	if i < len(data) && data[i] == 'n' { // null: like []int64, leave it nil
		*ts = nil
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return timestampTypeError("value")
	}
	out := make(Timestamps, 0, len(data)/14+1)
	i = skipBlank(data, i+1)
	if i < len(data) && data[i] == ']' {
		*ts = out
		return nil
	}
	for {
		var v int64
		next, ok := i+4, i+4 <= len(data) && string(data[i:i+4]) == "null" // like []int64: a null element is 0
		if !ok {
			v, next, ok = parseInt64(data, i)
		}
		if !ok {
			return timestampTypeError("number")
		}
		out = append(out, v)
		i = skipBlank(data, next)
		if i >= len(data) {
			return timestampTypeError("array")
		}
		switch data[i] {
		case ',':
			i = skipBlank(data, i+1)
		case ']':
			*ts = out
			return nil
		default:
			return timestampTypeError("array")
		}
	}
}

func timestampTypeError(what string) error {
	return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeFor[int64](), Field: "frameTimestamps"}
}

func skipBlank(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// parseInt64 reads a JSON integer at data[i:] (no fraction, no exponent) that fits
// in an int64, and returns it with the index after it. An int64 has at most 19
// digits, and any 19-digit number fits in a uint64, so no per-digit overflow check
// is needed.
func parseInt64(data []byte, i int) (int64, int, bool) {
	neg := false
	if i < len(data) && data[i] == '-' {
		neg = true
		i++
	}
	start := i
	var u uint64
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		u = u*10 + uint64(data[i]-'0')
		i++
	}
	if n := i - start; n == 0 || n > 19 || (i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E')) {
		return 0, i, false
	}
	switch {
	case !neg && u <= math.MaxInt64:
		return int64(u), i, true
	case neg && u <= math.MaxInt64+1:
		return int64(-u), i, true
	}
	return 0, i, false
}
