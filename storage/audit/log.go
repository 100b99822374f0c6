package audit

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// IDPrefix is the type prefix of entry ids ("aud_…").
const IDPrefix = "aud"

// Log appends entries to the per-environment audit chains and seals them
// (RunSealing). The zero value is ready to use with the system clock and
// crypto/rand; a Log holds no state of its own, so one Log may serve any number of
// stores and goroutines.
type Log struct {
	// Now is the clock that stamps entries (time.Now when nil).
	Now func() time.Time
	// Rand is the randomness of entry ids (crypto/rand.Reader when nil).
	Rand io.Reader
	// Logger receives RunSealing's failures (slog.Default() when nil).
	Logger *slog.Logger
}

func (l *Log) now() time.Time {
	if l != nil && l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Log) logger() *slog.Logger {
	if l != nil && l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

func (l *Log) rand() io.Reader {
	if l != nil && l.Rand != nil {
		return l.Rand
	}
	return rand.Reader
}

// Append records e for e.Env's chain inside tx, the caller's read-write transaction,
// so that the entry commits or rolls back together with the state change it records.
// It returns the entry as stored: pending until sealed.
//
// The caller sets Env, Action and Outcome (and Severity, ResourceType, ResourceID,
// Detail as they apply); Severity defaults to INFO. Append sets ID and Time, and fills
// an empty Actor and Role from veriland.PrincipalFrom(ctx) and an empty RequestID from
// veriland.RequestIDFrom(ctx); a SANDBOX entry of a principal with an account gets
// Detail[DetailAccount] (see DetailAccount).
//
// The entry is written complete, in canonical form, to the environment's journal of
// pending entries; it joins the chain when Seal (or RunSealing, List or Verify) seals
// it. So the returned Entry has Seq 0 and empty PrevHash and Hash: its position and
// hash are assigned by the sealer. Append neither reads nor writes the chain head, so
// concurrent appenders do not conflict with one another (see the package
// documentation).
//
// Append keeps nothing outside tx, so it is correct when the store runs the
// transaction function more than once; assign the returned Entry inside the function,
// so that the last (committed) run wins.
//
// Errors: validation_failed *veriland.Error (or veriland.Errors) for a bad entry,
// including a Detail refused by CheckDetail; otherwise the storage error, wrapped.
func (l *Log) Append(ctx context.Context, tx storage.Tx, e Entry) (Entry, error) {
	p, err := l.Prepare(ctx, e)
	if err != nil {
		return Entry{}, err
	}
	if err := p.Append(tx); err != nil {
		return Entry{}, err
	}
	return p.Entry, nil
}

// Prepared is an entry built, stamped and canonicalised by Prepare, ready to be
// written by its Append.
type Prepared struct {
	// Entry is the entry as Append stores it (pending: Seq 0, no hashes).
	Entry Entry
	key   []byte
	raw   []byte
}

// Prepare does all of Append's work that needs no transaction — defaults from ctx,
// validation, id, time stamp, canonical encoding — so that a caller can do it before
// taking the write lock and keep the lock for the Put. The entry's Time is the time
// of the call to Prepare. Errors: Append's validation errors.
func (l *Log) Prepare(ctx context.Context, e Entry) (*Prepared, error) {
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
		return nil, err
	}

	e.Time = l.now().UTC().Truncate(time.Millisecond)
	var err error
	if e.ID, err = ids.New(l.rand(), IDPrefix); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	raw, err := canonicalWire(e.wire()) // Seq 0, PrevHash "" and no "hash": pending
	if err != nil {
		return nil, err
	}
	return &Prepared{Entry: e, key: pendingKey(e.Time, appendOrder.Add(1), e.ID), raw: raw}, nil
}

// Append writes the prepared entry to its environment's journal of pending entries
// inside tx, as Log.Append does. It writes the same key and bytes however many times
// it runs, so it is safe in a transaction function the store runs more than once.
// Errors: the storage error, wrapped.
func (p *Prepared) Append(tx storage.Tx) error {
	// No read: a Get of a key that does not exist yet would make every appender on
	// PostgreSQL conflict with every other (predicate locks), which is what the
	// journal is for. The key holds the entry's random id, so it is new.
	if err := tx.Put(storage.Bucket(p.Entry.Env, pendingBucket), p.key, p.raw); err != nil {
		return fmt.Errorf("audit: writing pending entry: %w", err)
	}
	return nil
}

// Write appends e in a transaction of its own, for events that change no other state
// (a refused signature, a failed webhook delivery). Everything else should call
// Append inside the transaction of the change it records. The returned entry is
// pending until sealed, as Append's. Errors are Append's.
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
