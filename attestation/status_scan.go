package attestation

import (
	"bytes"
	"time"

	"github.com/veriland/veriland/internal/jsonscan"
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
// a key, escapes or invalid UTF-8 in id or status, a key that matches a member only
// case-insensitively, a member given twice, a value of an unexpected type, deep
// nesting, a syntax error), and the caller then decodes with encoding/json, which has
// the last word.
func scanStatus(b []byte) (f statusFields, ok bool) {
	p := statusScanner{jsonscan.New(b)}
	seenAtt := false
	ok = p.Object(func(key []byte) bool {
		switch {
		case !asciiKey(key):
			return false
		case string(key) == "attestation":
			if seenAtt {
				return false
			}
			seenAtt = true
			if p.Literal("null") {
				return true
			}
			f.hasAtt = true
			return p.attestation(&f)
		case bytes.EqualFold(key, []byte("attestation")):
			return false
		}
		return p.Skip(maxStatusDepth)
	})
	if !ok || !p.End() {
		return statusFields{}, false
	}
	return f, true
}

// attestation reads the attestation object's members into f.
func (p *statusScanner) attestation(f *statusFields) bool {
	var seen [4]bool
	names := [4]string{"id", "status", "revokedAt", "claims"}
	return p.Object(func(key []byte) bool {
		if !asciiKey(key) {
			return false
		}
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
			return p.Skip(maxStatusDepth)
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		switch k {
		case 0, 1:
			if p.Literal("null") {
				return true
			}
			s, ok := p.PlainString()
			if !ok {
				return false
			}
			if k == 0 {
				f.id = string(s)
			} else {
				f.status = string(s)
			}
			return true
		case 2:
			if p.Literal("null") {
				return true
			}
			start := p.Space()
			if !p.SkipString() {
				return false
			}
			var t time.Time
			if t.UnmarshalJSON(p.Since(start)) != nil {
				return false
			}
			f.revokedAt = &t
			return true
		default:
			raw, ok := p.RawValue(maxStatusDepth)
			if !ok {
				return false
			}
			f.claims = bytes.Clone(raw)
			return true
		}
	})
}

// statusScanner is the strict JSON scanner scanStatus reads a record with.
type statusScanner struct{ jsonscan.Scanner }

// maxStatusDepth bounds the nesting the scanner follows below a member it skips;
// deeper records are left to encoding/json.
const maxStatusDepth = 64

// asciiKey reports whether a plain key (no escape, no control character) is
// printable ASCII. A key with other bytes might match a member name
// case-insensitively under encoding/json's Unicode folding (the Kelvin sign folds
// to k, the long s to s), which the callers' EqualFold checks could not see.
func asciiKey(key []byte) bool {
	for _, c := range key {
		if c >= 0x7f {
			return false
		}
	}
	return true
}
