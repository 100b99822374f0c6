package jsonappend

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// plain marks the bytes encoding/json writes as they are inside a string: printable
// ASCII but for the quote, the backslash and the HTML characters <, > and &.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// String appends s as a JSON string, as json.Marshal(s) writes it.
func String(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// Key appends s as an object member's name followed by the colon.
func Key(dst []byte, s string) []byte {
	return append(String(dst, s), ':')
}

// Time appends t as json.Marshal(t) writes it (RFC 3339 with nanoseconds, quoted),
// and fails where it fails (a year outside 0–9999, an offset with seconds).
func Time(dst []byte, t time.Time) ([]byte, error) {
	dst = append(dst, '"')
	out, err := t.AppendText(dst)
	if err != nil {
		return nil, err
	}
	return append(out, '"'), nil
}

// Hex appends b as a quoted 0x-prefixed lower-case hex string, the MarshalText of
// go-ethereum's hexutil.Bytes, common.Hash and common.Address.
func Hex(dst []byte, b []byte) []byte {
	dst = append(dst, '"', '0', 'x')
	dst = hex.AppendEncode(dst, b)
	return append(dst, '"')
}

// Uint appends v as a JSON number.
func Uint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 10) }

// Raw appends raw JSON as encoding/json writes a json.RawMessage (or the output of
// a MarshalJSON method): null for nil, otherwise validated, compacted and with <, >,
// &, U+2028 and U+2029 escaped; invalid JSON fails. Text that is already compact,
// ASCII and free of those characters is only validated.
func Raw(dst []byte, raw []byte) ([]byte, error) {
	if raw == nil {
		return append(dst, "null"...), nil
	}
	for _, c := range raw {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			b, err := json.Marshal(json.RawMessage(raw))
			if err != nil {
				return nil, err
			}
			return append(dst, b...), nil
		}
	}
	if !json.Valid(raw) {
		_, err := json.Marshal(json.RawMessage(raw)) // encoding/json's own error
		return nil, err
	}
	return append(dst, raw...), nil
}
