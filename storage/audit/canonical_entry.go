package audit

import (
	"strconv"
	"unicode/utf8"
)

// canonicalEntry returns canonical(w) — the RFC 8785 form of w's JSON encoding —
// without encoding w by reflection and parsing it again: the members are written in
// their canonical order. It reports false, and the caller uses canonical, when the
// detail holds what it does not write itself (a value other than a string, a bool,
// null or an integer of at most 2^53 - 1, or a key outside ASCII, whose order JCS
// takes from UTF-16), or seq is past 2^53 - 1 (JCS writes such numbers as doubles).
// FuzzCanonicalEntry checks it against canonical byte for byte.
func canonicalEntry(w wireEntry) ([]byte, bool) {
	keys, ok := detailKeys(w.Detail)
	if !ok || w.Seq > maxExactInteger {
		return nil, false
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"action":`...)
	b = appendJCSString(b, w.Action)
	b = append(b, `,"actor":`...)
	b = appendJCSString(b, w.Actor)
	b = append(b, `,"detail":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJCSString(b, k)
		b = append(b, ':')
		b = appendDetailValue(b, w.Detail[k])
	}
	b = append(b, `},"env":`...)
	b = appendJCSString(b, string(w.Env))
	if w.Hash != "" {
		b = append(b, `,"hash":`...)
		b = appendJCSString(b, w.Hash)
	}
	b = append(b, `,"id":`...)
	b = appendJCSString(b, w.ID)
	b = append(b, `,"outcome":`...)
	b = appendJCSString(b, string(w.Outcome))
	b = append(b, `,"prevHash":`...)
	b = appendJCSString(b, w.PrevHash)
	b = append(b, `,"requestId":`...)
	b = appendJCSString(b, w.RequestID)
	b = append(b, `,"resourceId":`...)
	b = appendJCSString(b, w.ResourceID)
	b = append(b, `,"resourceType":`...)
	b = appendJCSString(b, w.ResourceType)
	b = append(b, `,"role":`...)
	b = appendJCSString(b, string(w.Role))
	b = append(b, `,"seq":`...)
	b = strconv.AppendUint(b, w.Seq, 10)
	b = append(b, `,"severity":`...)
	b = appendJCSString(b, string(w.Severity))
	b = append(b, `,"time":`...)
	b = appendJCSString(b, w.Time)
	return append(b, '}'), true
}

// detailKeys returns the detail's keys in canonical order, or false when a key or a
// value is not one canonicalEntry writes.
func detailKeys(detail map[string]any) ([]string, bool) {
	keys := make([]string, 0, len(detail))
	for k, v := range detail {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return nil, false
			}
		}
		switch v := v.(type) {
		case string, bool, nil:
		case int:
			if v < -maxExactInteger || v > maxExactInteger {
				return nil, false
			}
		case int64:
			if v < -maxExactInteger || v > maxExactInteger {
				return nil, false
			}
		case uint64:
			if v > maxExactInteger {
				return nil, false
			}
		default:
			return nil, false
		}
		// Insertion sort: details have a handful of members.
		i := len(keys)
		keys = append(keys, k)
		for i > 0 && keys[i-1] > k {
			keys[i] = keys[i-1]
			i--
		}
		keys[i] = k
	}
	return keys, true
}

// maxExactInteger is the largest integer an IEEE double (JCS's numbers) holds exactly.
const maxExactInteger = 1<<53 - 1

func appendDetailValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case string:
		return appendJCSString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case nil:
		return append(b, "null"...)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case uint64:
		return strconv.AppendUint(b, v, 10)
	}
	return b
}

// appendJCSString appends s as a JSON string in RFC 8785's form: '"' and '\'
// escaped, control characters as \b, \t, \n, \f, \r or \u00xx, everything else
// as its UTF-8 (U+2028 and U+2029 too), and bytes that are not UTF-8 as U+FFFD, as
// encoding/json replaces them before canonicalisation.
func appendJCSString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}
