package attestation

import (
	"bytes"
	"time"
)

// statusFields are the members of a stored record that a status read needs.
type statusFields struct {
	id, status string
	revokedAt  *time.Time
	claims     []byte // the raw value, nil when absent
	hasAtt     bool   // "attestation" is an object (not null, not absent)
}

// scanStatus reads statusFields from a stored record in one pass, validating the
// whole document's JSON syntax on the way, as json.Unmarshal into statusRecord would.
// It only answers for the plain shape saveRecord writes: ok is false whenever anything
// could make encoding/json read the record differently (escapes or non-ASCII bytes in
// a key or in id or status, a key that matches a member only case-insensitively, a
// member given twice, a value of an unexpected type, deep nesting, a syntax error),
// and the caller then decodes with encoding/json, which has the last word.
func scanStatus(b []byte) (f statusFields, ok bool) {
	p := statusScanner{b: b}
	p.ws()
	if !p.next('{') {
		return f, false
	}
	seenAtt := false
	ok = p.members(func(key []byte) bool {
		switch {
		case string(key) == "attestation":
			if seenAtt {
				return false
			}
			seenAtt = true
			if p.literal("null") {
				return true
			}
			f.hasAtt = true
			return p.attestation(&f)
		case bytes.EqualFold(key, []byte("attestation")):
			return false
		}
		return p.value(0)
	})
	if !ok {
		return statusFields{}, false
	}
	p.ws()
	return f, p.i == len(p.b)
}

// attestation reads the attestation object's members into f.
func (p *statusScanner) attestation(f *statusFields) bool {
	p.ws()
	if !p.next('{') {
		return false
	}
	var seen [4]bool
	names := [4]string{"id", "status", "revokedAt", "claims"}
	return p.members(func(key []byte) bool {
		k := -1
		for i, n := range names {
			if string(key) == n {
				k = i
				break
			}
			if bytes.EqualFold(key, []byte(n)) {
				return false
			}
		}
		if k < 0 {
			return p.value(0)
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		p.ws()
		start := p.i
		switch k {
		case 0, 1:
			if p.literal("null") {
				return true
			}
			s, plain, ok := p.str()
			if !ok || !plain {
				return false
			}
			if k == 0 {
				f.id = string(s)
			} else {
				f.status = string(s)
			}
			return true
		case 2:
			if p.literal("null") {
				return true
			}
			if _, _, ok := p.str(); !ok {
				return false
			}
			var t time.Time
			if t.UnmarshalJSON(p.b[start:p.i]) != nil {
				return false
			}
			f.revokedAt = &t
			return true
		default:
			if !p.value(0) {
				return false
			}
			f.claims = bytes.Clone(p.b[start:p.i])
			return true
		}
	})
}

// statusScanner is a strict JSON scanner over b from i: it accepts a subset of what
// encoding/json accepts, never more.
type statusScanner struct {
	b []byte
	i int
}

// maxStatusDepth bounds the nesting the scanner follows; deeper records are left to
// encoding/json.
const maxStatusDepth = 64

func (p *statusScanner) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next consumes c.
func (p *statusScanner) next(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// literal consumes lit (after white space) when it is next.
func (p *statusScanner) literal(lit string) bool {
	p.ws()
	if bytes.HasPrefix(p.b[p.i:], []byte(lit)) {
		p.i += len(lit)
		return true
	}
	return false
}

// members reads the members of an object whose '{' is consumed, calling member with
// each key, positioned before the member's value, which member must consume.
func (p *statusScanner) members(member func(key []byte) bool) bool {
	p.ws()
	if p.next('}') {
		return true
	}
	for {
		p.ws()
		key, plain, ok := p.str()
		if !ok || !plain {
			return false
		}
		p.ws()
		if !p.next(':') || !member(key) {
			return false
		}
		p.ws()
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// value consumes one JSON value of any type.
func (p *statusScanner) value(depth int) bool {
	p.ws()
	if p.i >= len(p.b) || depth > maxStatusDepth {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		return p.members(func([]byte) bool { return p.value(depth + 1) })
	case c == '[':
		p.i++
		p.ws()
		if p.next(']') {
			return true
		}
		for {
			if !p.value(depth + 1) {
				return false
			}
			p.ws()
			if p.next(']') {
				return true
			}
			if !p.next(',') {
				return false
			}
		}
	case c == '"':
		_, _, ok := p.str()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return p.literal("true") || p.literal("false") || p.literal("null")
}

// plainByte marks the bytes a string holds as themselves: printable ASCII but the
// quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str consumes a string and returns its contents between the quotes; plain reports
// that they hold no escape and no byte outside printable ASCII, so that they are the
// string's value as encoding/json decodes it.
func (p *statusScanner) str() (s []byte, plain, ok bool) {
	if !p.next('"') {
		return nil, false, false
	}
	b, i := p.b, p.i
	start, plain := i, true
	for {
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return nil, false, false
		}
		switch c := b[i]; {
		case c == '"':
			p.i = i + 1
			return b[start:i], plain, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			plain = false
			if i+1 >= len(b) {
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return nil, false, false
				}
				for _, h := range b[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return nil, false, false
					}
				}
				i += 6
			default:
				return nil, false, false
			}
		default: // DEL and bytes ≥ 0x80, which encoding/json keeps or replaces
			plain = false
			i++
		}
	}
}

// number consumes a number of the JSON grammar.
func (p *statusScanner) number() bool {
	p.next('-')
	switch {
	case p.next('0'):
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		p.digits()
	default:
		return false
	}
	if p.next('.') && !p.digits() {
		return false
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if !p.next('+') {
			p.next('-')
		}
		if !p.digits() {
			return false
		}
	}
	return true
}

// digits consumes one or more digits.
func (p *statusScanner) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}
