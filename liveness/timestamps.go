package liveness

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/veriland/veriland/internal/jsonscan"
)

// Timestamps are frame capture times in unix milliseconds; fractions of a
// millisecond are valid (the source document types them "number"). They decode from
// a JSON array of numbers exactly as []float64 would, except that a null element is
// refused (it is no timestamp), but read straight off the bytes with
// internal/jsonscan, whose Float is encoding/json's float64: encoding/json decodes
// a 10,000-element array through reflection one element at a time, which was three
// quarters of the server's CPU for a /liveness/verify request.
type Timestamps []float64

// UnmarshalJSON implements json.Unmarshaler. encoding/json has already checked that
// data is one valid JSON value. null leaves ts nil (as for any slice; validation then
// asks for the member). Anything but an array of numbers that fit in a float64 is
// refused with a *json.UnmarshalTypeError whose Field is the offending element's
// index ("3"), or "" when data is not an array, so that encoding/json reports the
// member path frameTimestamps.3 (pointer /frameTimestamps/3) or frameTimestamps.
func (ts *Timestamps) UnmarshalJSON(data []byte) error {
	sc := jsonscan.New(data)
	i := sc.Space()
	if i < len(data) && data[i] == 'n' { // null: like []float64, leave it nil
		*ts = nil
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return timestampTypeError(valueKind(data, i), "")
	}
	out, _, err := scanTimestampArray(nil, data, i)
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
	return AppendTimestamps(nil, data, i)
}

// AppendTimestamps is ParseTimestamps appending the timestamps to dst, as
// strconv.AppendFloat appends to its buffer, and returning the extended slice; ts is
// nil when ok is false. With dst[:0] of a slice that held an earlier request's
// timestamps, a server reads the next ones without allocating: 10,000 of them are
// 80 kB, half of what a verification allocates.
func AppendTimestamps(dst Timestamps, data []byte, i int) (ts Timestamps, end int, ok bool) {
	if i >= len(data) || data[i] != '[' {
		return nil, i, false
	}
	ts, end, err := scanTimestampArray(dst, data, i)
	return ts, end, err == nil
}

// scanTimestampArray reads the array of numbers whose '[' is data[i], appends it to
// dst and returns the result with the index after its ']'; its error is the
// *json.UnmarshalTypeError UnmarshalJSON returns.
func scanTimestampArray(dst Timestamps, data []byte, i int) (Timestamps, int, error) {
	// Size the slice once: a valid array holds one number more than the commas
	// before its ']' (found by bytes' vectorised search, a few µs for 10,000
	// timestamps). Past MaxFrameTimestamps+1, which no verification accepts, it grows
	// as it is read, so that a body of commas does not cost eight times its size.
	n := MaxFrameTimestamps + 1
	if end := bytes.IndexByte(data[i:], ']'); end >= 0 {
		n = min(n, bytes.Count(data[i:i+end], []byte{','})+1)
	}
	out := dst
	if cap(out)-len(out) < n {
		// Never nil, so that [] decodes to an empty slice as for []float64.
		out = append(make(Timestamps, 0, len(dst)+n), dst...)
	}
	s := jsonscan.New(data)
	s.Seek(i + 1)
	if s.Consume(']') {
		return out, s.Pos(), nil
	}
	for {
		start := s.Space()
		v, ok := s.Float()
		if !ok {
			return nil, start, timestampTypeError(valueKind(data, start), strconv.Itoa(len(out)-len(dst)))
		}
		out = append(out, v)
		switch s.Peek() {
		case ',':
			s.Seek(s.Pos() + 1)
		case ']':
			return out, s.Pos() + 1, nil
		default: // the end of the data included
			return nil, s.Pos(), timestampTypeError("array", "")
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
