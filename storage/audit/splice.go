package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
)

// errNoSplice means a pending record does not have the shape sealPending edits; the
// caller then encodes the entry again (seal).
var errNoSplice = errors.New("audit: pending record cannot be sealed in place")

// sealPending returns what seal returns for a pending record, without encoding the
// entry again: raw is the canonical JSON Prepare stored (seq 0, prevHash "" and no
// hash), and sealing only changes those members, whose places in the canonical order
// are fixed. The hash input is raw with "seq" and "prevHash" set; the stored entry is
// that with "hash" inserted before "id". Top-level members are the last occurrences
// of their patterns: only "detail", which sorts before all three, can hold objects,
// and a string value cannot hold an unescaped quote. It returns errNoSplice when raw
// does not have that shape.
func sealPending(raw []byte, seq uint64, prevHash string) ([]byte, string, error) {
	const (
		seqZero   = `,"seq":0`
		prevEmpty = `,"prevHash":""`
		idMember  = `,"id":"`
	)
	prev, err := hex.DecodeString(prevHash)
	if err != nil || len(prev) != sha256.Size || seq > maxExactInteger {
		return nil, "", errNoSplice
	}
	s := bytes.LastIndex(raw, []byte(seqZero))
	p := bytes.LastIndex(raw, []byte(prevEmpty))
	i := bytes.LastIndex(raw, []byte(idMember))
	// Canonical order: ... "detail" ... "id" < "prevHash" < "seq".
	d := bytes.Index(raw, []byte(`"detail":`))
	if d < 0 || i < d || p < i || s < p+len(prevEmpty) || !memberEnd(raw, p+len(prevEmpty)) || !memberEnd(raw, s+len(seqZero)) {
		return nil, "", errNoSplice
	}
	seqText := strconv.AppendUint(nil, seq, 10)
	body := make([]byte, 0, len(raw)+len(prevHash)+len(seqText))
	body = append(body, raw[:p]...)
	body = append(body, `,"prevHash":"`...)
	body = append(body, prevHash...)
	body = append(body, '"')
	body = append(body, raw[p+len(prevEmpty):s]...)
	body = append(body, `,"seq":`...)
	body = append(body, seqText...)
	body = append(body, raw[s+len(seqZero):]...)

	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	hash := hex.EncodeToString(h.Sum(nil))

	full := make([]byte, 0, len(body)+len(`"hash":"",`)+len(hash))
	full = append(full, body[:i+1]...) // up to and with the comma before "id"
	full = append(full, `"hash":"`...)
	full = append(full, hash...)
	full = append(full, `",`...)
	full = append(full, body[i+1:]...)
	return full, hash, nil
}

// memberEnd reports whether a member's value ends at raw[i]: the next member or the
// object's end follows.
func memberEnd(raw []byte, i int) bool {
	return i < len(raw) && (raw[i] == ',' || raw[i] == '}')
}
