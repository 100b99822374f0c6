package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// GenesisHash is the prevHash of the first entry of every chain: 64 zeros, whose raw
// form is 32 zero bytes.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// Bucket names, inside an environment's namespace (storage.Bucket).
const (
	entriesBucket = "audit"         // big-endian uint64 seq → canonical JSON of the entry
	headBucket    = "audit_head"    // headKey → canonical JSON of the chain head
	pendingBucket = "audit_pending" // pendingKey → canonical JSON of an entry not sealed yet
)

var headKey = []byte("head")

// ErrCorrupt reports a chain whose head record disagrees with its entries, or a
// pending record that is not a pending entry, found while sealing. Seal refuses to
// write past it; run Verify to locate the break.
var ErrCorrupt = errors.New("audit: chain head does not match the stored entries")

// head is the chain head of one environment: the last sealed entry's seq and hash,
// kept in one small record so that sealing reads one key instead of scanning the
// chain.
type head struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// pendingKey orders pending entries by time: the 8-byte big-endian UnixNano of t;
// then the 8-byte big-endian order of the append in this process (appendOrder), so
// that entries one process appends in the same millisecond, such as several entries
// of one transaction, are sealed in the order they were appended; then the entry's
// id, which is random, so that two entries never share a key.
func pendingKey(t time.Time, order uint64, id string) []byte {
	key := make([]byte, 0, pendingKeyPrefix+len(id))
	key = binary.BigEndian.AppendUint64(key, uint64(t.UnixNano()))
	key = binary.BigEndian.AppendUint64(key, order)
	return append(key, id...)
}

// pendingKeyPrefix is the length of a pending key before the id.
const pendingKeyPrefix = 16

// appendOrder numbers the appends of this process, for pendingKey.
var appendOrder atomic.Uint64

func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), seq)
}

// readHead returns env's chain head, {0, GenesisHash} when the chain is empty.
func readHead(tx storage.Tx, env veriland.Environment) (head, error) {
	raw, err := tx.Get(storage.Bucket(env, headBucket), headKey)
	if errors.Is(err, storage.ErrNotFound) {
		return head{Seq: 0, Hash: GenesisHash}, nil
	}
	if err != nil {
		return head{}, fmt.Errorf("audit: reading chain head: %w", err)
	}
	var h head
	if err := json.Unmarshal(raw, &h); err != nil || !validHash(h.Hash) {
		return head{}, fmt.Errorf("%w: unreadable head record", ErrCorrupt)
	}
	return h, nil
}

func writeHead(tx storage.Tx, env veriland.Environment, h head) error {
	raw, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return tx.Put(storage.Bucket(env, headBucket), headKey, raw)
}

// chainHash returns hex(SHA-256(prev || body)) where prev is the 32 raw bytes of the
// hex prevHash and body is the RFC 8785 canonical JSON of the entry without "hash".
func chainHash(prevHash string, body []byte) (string, error) {
	prev, err := hex.DecodeString(prevHash)
	if err != nil || len(prev) != sha256.Size {
		return "", fmt.Errorf("audit: prevHash %q is not 64 hex digits", prevHash)
	}
	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// seal computes e.Hash from the other members and returns the canonical JSON of the
// whole entry, which is what is stored.
//
// It canonicalises once: the entry is encoded with a placeholder hash, the hash input
// ("the entry without hash") is that encoding minus the top-level "hash" member, and
// the real hash then takes the placeholder's place (same length). The top-level member
// is the last occurrence of the placeholder member: only "detail", which sorts before
// "hash", can hold objects, and every member after it is a string or a number.
func seal(e *Entry) ([]byte, error) {
	e.Hash = hashPlaceholder
	full, err := canonicalWire(e.wire())
	if err != nil {
		return nil, err
	}
	member := []byte(`"hash":"` + hashPlaceholder + `",`) // "id" always follows "hash"
	i := bytes.LastIndex(full, member)
	if i < 0 {
		return nil, fmt.Errorf("audit: canonical entry has no top-level hash member")
	}
	body := make([]byte, 0, len(full)-len(member))
	body = append(append(body, full[:i]...), full[i+len(member):]...)
	if e.Hash, err = chainHash(e.PrevHash, body); err != nil {
		return nil, err
	}
	copy(full[i+len(`"hash":"`):], e.Hash)
	return full, nil
}

// hashPlaceholder stands in for the hash while an entry is encoded; it has a hash's
// length so that the real one can be written over it.
var hashPlaceholder = strings.Repeat("0", 2*sha256.Size)

// canonicalWire is canonical(w), written directly when canonicalEntry can.
func canonicalWire(w wireEntry) ([]byte, error) {
	if b, ok := canonicalEntry(w); ok {
		return b, nil
	}
	return canonical(w)
}

// canonical returns the RFC 8785 form of v's JSON encoding.
func canonical(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("audit: encoding entry: %w", err)
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("audit: canonicalising entry: %w", err)
	}
	return out, nil
}

// validHash reports whether s is 64 lower-case hex digits.
func validHash(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
