package audit

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// IDPrefix is the type prefix of entry ids ("aud_…").
const IDPrefix = "aud"

// Log appends entries to the per-environment audit chains. The zero value is ready to
// use with the system clock and crypto/rand; a Log holds no state of its own, so one
// Log may serve any number of stores and goroutines.
type Log struct {
	// Now is the clock that stamps entries (time.Now when nil).
	Now func() time.Time
	// Rand is the randomness of entry ids (crypto/rand.Reader when nil).
	Rand io.Reader
}

func (l *Log) now() time.Time {
	if l != nil && l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Log) rand() io.Reader {
	if l != nil && l.Rand != nil {
		return l.Rand
	}
	return rand.Reader
}

// Append adds e to the end of e.Env's chain inside tx, the caller's read-write
// transaction, so that the entry commits or rolls back together with the state
// change it records. It returns the entry as stored.
//
// The caller sets Env, Action and Outcome (and Severity, ResourceType, ResourceID,
// Detail as they apply); Severity defaults to INFO. Append sets Seq, ID, Time,
// PrevHash and Hash, and fills an empty Actor and Role from veriland.PrincipalFrom(ctx)
// and an empty RequestID from veriland.RequestIDFrom(ctx); a SANDBOX entry of a
// principal with an account gets Detail[DetailAccount] (see DetailAccount).
//
// Append reads the chain head from tx and keeps nothing outside it, so it is correct
// when the store runs the transaction function more than once; assign the returned
// Entry inside the function, so that the last (committed) run wins.
//
// Errors: validation_failed *veriland.Error (or veriland.Errors) for a bad entry,
// including a Detail refused by CheckDetail; ErrCorrupt when the head record does not
// match the stored entries; otherwise the storage error, wrapped.
func (l *Log) Append(ctx context.Context, tx storage.Tx, e Entry) (Entry, error) {
	if e.Severity == "" {
		e.Severity = SeverityInfo
	}
	if p, ok := veriland.PrincipalFrom(ctx); ok {
		if e.Actor == "" {
			e.Actor = p.Subject
		}
		if e.Role == "" {
			e.Role = p.Role
		}
	}
	if e.RequestID == "" {
		e.RequestID = veriland.RequestIDFrom(ctx)
	}
	if p, ok := veriland.PrincipalFrom(ctx); ok && p.Account != "" && e.Env == veriland.Sandbox {
		if _, set := e.Detail[DetailAccount]; !set {
			detail := make(map[string]any, len(e.Detail)+1)
			maps.Copy(detail, e.Detail)
			detail[DetailAccount] = p.Account
			e.Detail = detail
		}
	}
	if err := e.validate(); err != nil {
		return Entry{}, err
	}

	h, err := readHead(tx, e.Env)
	if err != nil {
		return Entry{}, err
	}
	e.Seq = h.Seq + 1
	e.PrevHash = h.Hash
	e.Time = l.now().UTC().Truncate(time.Millisecond)
	if e.ID, err = ids.New(l.rand(), IDPrefix); err != nil {
		return Entry{}, fmt.Errorf("audit: %w", err)
	}
	raw, err := seal(&e)
	if err != nil {
		return Entry{}, err
	}

	// Never overwrite: an entry already at the next position means the head record is
	// behind the entries, and writing would destroy history.
	bucket := storage.Bucket(e.Env, entriesBucket)
	key := seqKey(e.Seq)
	if _, err := tx.Get(bucket, key); err == nil {
		return Entry{}, fmt.Errorf("%w: entry %d already exists", ErrCorrupt, e.Seq)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return Entry{}, fmt.Errorf("audit: %w", err)
	}
	if err := tx.Put(bucket, key, raw); err != nil {
		return Entry{}, fmt.Errorf("audit: writing entry: %w", err)
	}
	if err := writeHead(tx, e.Env, head{Seq: e.Seq, Hash: e.Hash}); err != nil {
		return Entry{}, fmt.Errorf("audit: writing chain head: %w", err)
	}
	return e, nil
}

// Write appends e in a transaction of its own, for events that change no other state
// (a refused signature, a failed webhook delivery). Everything else should call
// Append inside the transaction of the change it records. Errors are Append's.
func (l *Log) Write(ctx context.Context, store storage.Store, e Entry) (Entry, error) {
	var out Entry
	err := store.Update(ctx, func(tx storage.Tx) error {
		var err error
		out, err = l.Append(ctx, tx, e)
		return err
	})
	if err != nil {
		return Entry{}, err
	}
	return out, nil
}
