package audit

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// DefaultSealInterval is RunSealing's interval when it is given 0.
const DefaultSealInterval = 200 * time.Millisecond

// SealBatch is the most pending entries Seal moves into the chain in one transaction.
const SealBatch = 512

// sealShutdownTimeout bounds FinalSeal.
const sealShutdownTimeout = 10 * time.Second

// Seal moves env's pending entries into its chain, oldest pending key first (the
// order of their times; within a millisecond, the order in which one process
// appended them), in transactions of at most SealBatch entries: each reads the chain
// head once, gives every entry the next seq and the previous hash, stores it sealed
// exactly as the chain defines (see the package documentation), deletes its pending
// record and writes the head once. It returns how many entries it sealed.
//
// Seal seals the entries pending when it is called (up to the last pending key it
// then finds, and any entry that commits meanwhile with a smaller key), so it
// returns even while appenders outpace it, and every entry committed before Seal was
// called is sealed when it returns nil, by this call or by another sealer. Several
// processes may seal one store at once: their transactions conflict on the head, the
// store serializes them, and a sealer that finds the head moved since it read the
// journal reads it again, so each entry is sealed exactly once. When nothing is
// pending, Seal costs one read transaction.
//
// Errors: validation_failed *veriland.Error for a bad env; ErrCorrupt when the head
// record is behind the stored entries (Seal never writes over an entry) or a pending
// record is not a pending entry of env; otherwise the storage error, wrapped. Entries
// sealed by earlier transactions of the call stay sealed.
func Seal(ctx context.Context, store storage.Store, env veriland.Environment) (int, error) {
	if !env.Valid() {
		return 0, veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	var last []byte // the last key pending at the call
	total := 0
	for {
		b, err := readBatch(ctx, store, env, last)
		if err != nil || len(b.records) == 0 {
			return total, err
		}
		if last == nil {
			last = b.last
		}
		var sealed, moved bool
		err = store.Update(ctx, func(tx storage.Tx) error {
			var err error
			sealed, moved = false, false
			h, err := readHead(tx, env)
			if err != nil {
				return err
			}
			if h != b.head {
				moved = true // another sealer committed since: read the journal again
				return nil
			}
			if err := sealRecords(tx, env, h, b.records); err != nil {
				return err
			}
			sealed = true
			return nil
		})
		if err != nil {
			return total, err
		}
		if sealed {
			total += len(b.records)
			if len(b.records) < SealBatch {
				return total, nil
			}
		} else if !moved {
			return total, nil
		}
	}
}

// batch is what a sealer read from the journal in one snapshot: the chain head and
// up to SealBatch pending records.
type batch struct {
	head    head
	records []record
	last    []byte // the last pending key of the snapshot
}

// record is one pending record.
type record struct{ key, value []byte }

// readBatch reads env's head and its first SealBatch pending records with keys up to
// last (all when last is nil), in a read transaction. Reading the journal outside the
// sealing transaction keeps the journal's pages out of that transaction's read set on
// PostgreSQL, so that appenders inserting pending records do not make the sealer
// retry; the head, which every sealer writes, stands for the records: while it has
// not moved, no sealer has taken any of them.
func readBatch(ctx context.Context, store storage.Store, env veriland.Environment, last []byte) (batch, error) {
	var b batch
	err := store.View(ctx, func(tx storage.Tx) error {
		b = batch{}
		pending := storage.Bucket(env, pendingBucket)
		upTo := last
		if upTo == nil {
			err := tx.Scan(pending, storage.Range{Reverse: true}, func(key, _ []byte) error {
				b.last = key
				return storage.ErrStop
			})
			if err != nil || b.last == nil {
				return err
			}
			upTo = b.last
		}
		err := tx.Scan(pending, storage.Range{End: append(bytes.Clone(upTo), 0)}, func(key, value []byte) error {
			b.records = append(b.records, record{key, value})
			if len(b.records) == SealBatch {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil || len(b.records) == 0 {
			return err
		}
		b.head, err = readHead(tx, env)
		return err
	})
	if err != nil && !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("audit: reading pending entries: %w", err)
	}
	return b, err
}

// hasPending reports whether env has a pending entry, in a read transaction.
func hasPending(ctx context.Context, store storage.Store, env veriland.Environment) (bool, error) {
	_, found, err := oldestPending(ctx, store, env)
	return found, err
}

// oldestPending returns the time of env's first pending key (the oldest pending
// entry, give or take a commit's latency), in a read transaction; found is false when
// nothing is pending.
func oldestPending(ctx context.Context, store storage.Store, env veriland.Environment) (oldest time.Time, found bool, err error) {
	err = store.View(ctx, func(tx storage.Tx) error {
		found = false
		return tx.Scan(storage.Bucket(env, pendingBucket), storage.Range{}, func(key, _ []byte) error {
			found = true
			if len(key) >= 8 {
				oldest = time.Unix(0, int64(binary.BigEndian.Uint64(key)))
			}
			return storage.ErrStop
		})
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("audit: reading pending entries: %w", err)
	}
	return oldest, found, nil
}

// sealRecords chains records after head h inside tx: it stores each sealed, deletes
// its pending record and writes the new head once.
func sealRecords(tx storage.Tx, env veriland.Environment, h head, records []record) error {
	// Never overwrite: an entry stored past the head means the head record is behind
	// the entries, and sealing would destroy history.
	entries := storage.Bucket(env, entriesBucket)
	err := tx.Scan(entries, storage.Range{Start: seqKey(h.Seq + 1)}, func(key, _ []byte) error {
		return fmt.Errorf("%w: entry %x is stored past the head (seq %d)", ErrCorrupt, key, h.Seq)
	})
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return err
		}
		return fmt.Errorf("audit: reading entries: %w", err)
	}

	pending := storage.Bucket(env, pendingBucket)
	for _, r := range records {
		e, err := decodePending(env, r.key, r.value)
		if err != nil {
			return err
		}
		e.Seq, e.PrevHash = h.Seq+1, h.Hash
		raw, err := seal(&e)
		if err != nil {
			return err
		}
		if err := tx.Put(entries, seqKey(e.Seq), raw); err != nil {
			return fmt.Errorf("audit: writing entry: %w", err)
		}
		if err := tx.Delete(pending, r.key); err != nil {
			return fmt.Errorf("audit: deleting pending entry: %w", err)
		}
		h = head{Seq: e.Seq, Hash: e.Hash}
	}
	if err := writeHead(tx, env, h); err != nil {
		return fmt.Errorf("audit: writing chain head: %w", err)
	}
	return nil
}

// decodePending reads a pending record of env's journal: an entry of env with an id
// and a time, and no seq, prevHash or hash yet, stored under its pendingKey.
func decodePending(env veriland.Environment, key, raw []byte) (Entry, error) {
	// UnmarshalJSON directly: json.Unmarshal would validate the record once, and
	// then UnmarshalJSON decode it with a validation of its own.
	var e Entry
	if err := e.UnmarshalJSON(raw); err != nil {
		return Entry{}, fmt.Errorf("%w: pending record %x is undecodable: %v", ErrCorrupt, key, err)
	}
	switch {
	case e.Env != env:
		return Entry{}, fmt.Errorf("%w: pending record %x belongs to environment %q", ErrCorrupt, key, e.Env)
	case e.Seq != 0 || e.PrevHash != "" || e.Hash != "":
		return Entry{}, fmt.Errorf("%w: pending record %x is already sealed", ErrCorrupt, key)
	case !ids.Valid(e.ID, IDPrefix) || len(key) < pendingKeyPrefix ||
		string(pendingKey(e.Time, binary.BigEndian.Uint64(key[8:]), e.ID)) != string(key):
		return Entry{}, fmt.Errorf("%w: pending record %x is not stored under its time and id", ErrCorrupt, key)
	}
	return e, nil
}

// RunSealing seals both environments' pending entries (Seal) until ctx is done, then
// seals once more with a context detached from ctx's cancellation (bounded by 10 s)
// and returns that seal's error.
//
// It seals at once, and then looks at the journal at random pauses of half to one and a
// half intervals (every; DefaultSealInterval when 0), and seals an environment when
// its oldest pending entry is at least one interval old (by the Log's clock). So
// entries wait about one to two intervals. RunSealing on every replica of one
// database is correct, and while appends are sparse it seals about once per
// interval in all: the first replica to find old entries seals them, and the others
// then find only young ones. Under steady load, though, every replica finds old
// entries at every look, and sealers that overlap conflict on the chain head and
// retry (on PostgreSQL), which costs work but never correctness; the reference
// server therefore runs it on the holder of a lease (storage/lease), and the
// others call FinalSeal when they stop. Failed seals are logged (once for as long as
// the same failure repeats) and retried at the next look. After a seal of a full
// batch or more (a backlog) it looks again at once rather than after a pause.
//
// Run it on every replica, or on one under a lease: an entry left pending by a
// replica that died is sealed by whichever sealer runs.
func (l *Log) RunSealing(ctx context.Context, store storage.Store, every time.Duration) error {
	if every < 0 {
		return errors.New("audit: RunSealing needs a positive interval (or 0 for the default)")
	}
	if every == 0 {
		every = DefaultSealInterval
	}
	envs := []veriland.Environment{veriland.Sandbox, veriland.Production}
	lastErr := map[veriland.Environment]string{}
	timer := time.NewTimer(0) // at once, whatever their age: entries may be pending since the last run
	age := time.Duration(0)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			behind := false
			for _, env := range envs {
				n, err := l.sealIfDue(ctx, store, env, age)
				if n >= SealBatch {
					behind = true
				}
				if ctx.Err() != nil {
					break
				}
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if msg != "" && msg != lastErr[env] {
					l.logger().ErrorContext(ctx, "audit: sealing entries", "env", env, "err", err)
				}
				lastErr[env] = msg
			}
			age = every
			if behind {
				timer.Reset(0) // a backlog: keep sealing while entries are old
			} else {
				timer.Reset(every/2 + rand.N(every))
			}
		case <-ctx.Done():
			return FinalSeal(ctx, store)
		}
	}
}

// FinalSeal seals both environments' pending entries once (Seal), with a context
// detached from ctx's cancellation and bounded by 10 s, and returns their errors
// joined, each prefixed with its environment. It is the seal a sealer makes on its
// way out (RunSealing's last one), and the one a replica that does not run
// RunSealing makes when it stops, so that what it journaled is sealed by then.
func FinalSeal(ctx context.Context, store storage.Store) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sealShutdownTimeout)
	defer cancel()
	var errs []error
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		if _, err := Seal(sctx, store, env); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", env, err))
		}
	}
	return errors.Join(errs...)
}

// sealIfDue seals env when its oldest pending entry is at least age old and returns
// how many entries it sealed.
func (l *Log) sealIfDue(ctx context.Context, store storage.Store, env veriland.Environment, age time.Duration) (int, error) {
	oldest, found, err := oldestPending(ctx, store, env)
	if err != nil || !found || l.now().Sub(oldest) < age {
		return 0, err
	}
	return Seal(ctx, store, env)
}
