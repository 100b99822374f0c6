package audit

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Report is the outcome of Verify, in the shape of GET /v1/audit/verify.
type Report struct {
	// Valid is true when every entry, every link and the head record check out.
	Valid bool `json:"valid"`
	// Entries counts the entry records stored for the environment, broken or not.
	Entries int `json:"entries"`
	// HeadHash is the hash in the head record: the hash the next entry will link to
	// (GenesisHash for an empty chain). Record it outside the system to detect a
	// rewrite of the whole tail later.
	HeadHash string `json:"headHash"`
	// FirstBrokenSeq is the lowest sequence number at which the chain fails to
	// verify, or 0 when it is valid (sequence numbers start at 1, so 0 is never an
	// entry).
	FirstBrokenSeq uint64 `json:"firstBrokenSeq"`
	// Reason says, for people, why FirstBrokenSeq is broken; empty when valid.
	Reason string `json:"reason,omitempty"`
}

// Verify seals env's pending entries (Seal), then recomputes env's chain from its
// first entry, in one read transaction, and reports the first sequence number that
// fails. Entry n is broken when:
//   - no entry is stored under n, or the record under n is not entry n (a deleted or
//     reordered entry), or it cannot be decoded, or it belongs to another environment;
//   - its prevHash is not the hash of entry n-1 (GenesisHash for n = 1);
//   - its hash is not hex(SHA-256(prevHash bytes || JCS(entry without hash))), which
//     catches any edit of any member, including added or removed members.
//
// After the last entry, the head record must name that entry's seq and hash; if it
// does not, FirstBrokenSeq is the first entry the head and the entries disagree on
// (an entry deleted from the end, an entry written past the head, a missing or
// edited head).
//
// When the chain verifies but a pending entry cannot be sealed (its record is not a
// pending entry, or the head is behind the entries: Seal's ErrCorrupt),
// FirstBrokenSeq is the seq that entry would take.
//
// An entry rewritten with a recomputed hash verifies on its own and is reported at the
// next entry, whose prevHash no longer links to it. Rewriting the whole tail and the
// head is detected only by comparing HeadHash with a copy kept elsewhere.
//
// Verify returns an error only when the store cannot be read; corruption is reported
// in the Report.
func Verify(ctx context.Context, store storage.Store, env veriland.Environment) (Report, error) {
	if !env.Valid() {
		return Report{}, veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	_, sealErr := Seal(ctx, store, env)
	if sealErr != nil && !errors.Is(sealErr, ErrCorrupt) {
		return Report{}, sealErr
	}
	var rep Report
	err := store.View(ctx, func(tx storage.Tx) error {
		rep = Report{}
		c := checker{env: env, prevHash: GenesisHash, rep: &rep}
		if err := tx.Scan(storage.Bucket(env, entriesBucket), storage.Range{}, c.next); err != nil {
			return fmt.Errorf("audit: reading entries: %w", err)
		}
		return c.finish(tx)
	})
	if err != nil {
		return Report{}, err
	}
	if sealErr != nil && rep.FirstBrokenSeq == 0 {
		// The stored chain checks out, so the break is at the next seq to be sealed.
		rep.FirstBrokenSeq = uint64(rep.Entries) + 1
		rep.Reason = fmt.Sprintf("entry %d cannot be sealed: %v", rep.FirstBrokenSeq, sealErr)
	}
	rep.Valid = rep.FirstBrokenSeq == 0
	return rep, nil
}

// checker walks one chain in key order.
type checker struct {
	env      veriland.Environment
	seq      uint64 // last entry verified
	prevHash string // its hash
	rep      *Report
}

func (c *checker) broken(seq uint64, format string, args ...any) {
	if c.rep.FirstBrokenSeq == 0 {
		c.rep.FirstBrokenSeq = seq
		c.rep.Reason = fmt.Sprintf(format, args...)
	}
}

func (c *checker) next(key, value []byte) error {
	c.rep.Entries++
	if c.rep.FirstBrokenSeq != 0 {
		return nil // only counting from here on
	}
	want := c.seq + 1
	if len(key) != 8 {
		c.broken(want, "stray key %x in the entries bucket", key)
		return nil
	}
	if got := binary.BigEndian.Uint64(key); got != want {
		c.broken(want, "entry %d is missing (next stored key is %d)", want, got)
		return nil
	}
	hash, err := checkEntry(c.env, want, c.prevHash, value)
	if err != nil {
		c.broken(want, "entry %d: %v", want, err)
		return nil
	}
	c.seq, c.prevHash = want, hash
	return nil
}

func (c *checker) finish(tx storage.Tx) error {
	h, err := readHead(tx, c.env)
	if errors.Is(err, ErrCorrupt) {
		c.broken(max(c.seq, 1), "%v", err) // the entry the head should anchor
		return nil
	}
	if err != nil {
		return err
	}
	c.rep.HeadHash = h.Hash
	if c.rep.FirstBrokenSeq != 0 {
		return nil
	}
	switch {
	case h.Seq < c.seq:
		c.broken(h.Seq+1, "entry %d is past the head record (head seq %d)", h.Seq+1, h.Seq)
	case h.Seq > c.seq:
		c.broken(c.seq+1, "entry %d is missing (head seq %d)", c.seq+1, h.Seq)
	case h.Hash != c.prevHash:
		c.broken(h.Seq, "head record hash does not match entry %d", h.Seq)
	}
	return nil
}

// checkEntry verifies the stored bytes of entry seq against the previous hash and
// returns the entry's hash.
func checkEntry(env veriland.Environment, seq uint64, prevHash string, raw []byte) (string, error) {
	var e struct {
		Seq      uint64               `json:"seq"`
		Env      veriland.Environment `json:"env"`
		PrevHash string               `json:"prevHash"`
		Hash     string               `json:"hash"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return "", fmt.Errorf("undecodable: %v", err)
	}
	switch {
	case e.Seq != seq:
		return "", fmt.Errorf("stored under seq %d but names seq %d", seq, e.Seq)
	case e.Env != env:
		return "", fmt.Errorf("belongs to environment %q", e.Env)
	case e.PrevHash != prevHash:
		return "", fmt.Errorf("prevHash does not link to entry %d", seq-1)
	case !validHash(e.Hash):
		return "", fmt.Errorf("hash is not 64 lower-case hex digits")
	}
	// Entries are stored in canonical form; anything else (duplicate members,
	// reformatting) was written by something other than Append.
	if c, err := jcs.Transform(raw); err != nil || !bytes.Equal(c, raw) {
		return "", fmt.Errorf("not stored in canonical form")
	}
	body, err := bodyWithoutHash(raw)
	if err != nil {
		return "", err
	}
	sum, err := chainHash(prevHash, body)
	if err != nil {
		return "", err
	}
	if sum != e.Hash {
		return "", fmt.Errorf("hash does not match its contents")
	}
	return e.Hash, nil
}

// bodyWithoutHash returns JCS of the stored object with its "hash" member removed.
// It works on the raw members rather than on a decoded Entry so that every stored
// byte, including members this version does not know, is covered by the check.
func bodyWithoutHash(raw []byte) ([]byte, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, fmt.Errorf("undecodable: %v", err)
	}
	delete(members, "hash")
	return canonical(members)
}
