package audit

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Page sizes of List (SPEC S2.1).
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// maxScan bounds the entries one List call examines, so that a selective filter over
// a long chain costs a bounded read per page.
const maxScan = 10_000

// Filter selects entries for List. Zero members select everything. Since filters on
// the entries' clock times; it does not move the start of the scan, because times of
// successive entries need not be monotonic (clock steps, several replicas).
type Filter struct {
	Severity Severity  // exact match
	Action   string    // exact match
	Since    time.Time // entries whose time is at or after Since
	Cursor   string    // from a previous List call; "" for the first page
	Limit    int       // 1..MaxLimit; 0 means DefaultLimit
	// Account, when set, leaves out the entries of other accounts: entries whose
	// Detail[DetailAccount] names another account. Entries of no account (records
	// that belong to the whole environment) are kept.
	Account string
}

// List returns env's entries that match f, oldest first (ascending seq), and the
// cursor of the next page, "" when the chain holds nothing after this page.
//
// List seals env's pending entries first (Seal), so that it shows every entry
// committed before the call. When sealing finds the chain corrupt (ErrCorrupt), List
// still lists the sealed entries; Verify reports the break.
//
// A page holds at most f.Limit entries. It may hold fewer, even none, while the
// returned cursor is not empty: List examines at most 10,000 entries per call so that
// a filter matching little of a long chain stays cheap. Keep following the cursor
// until it is "". Cursors are opaque; they stay valid forever because entries are
// never removed, and entries appended later appear on later pages.
//
// Errors: validation_failed *veriland.Error for a bad env, limit, severity or cursor
// (Meta "parameter" names the query parameter); otherwise the storage error, wrapped.
func List(ctx context.Context, store storage.Store, env veriland.Environment, f Filter) ([]Entry, string, error) {
	return list(ctx, store, env, f, maxScan)
}

func list(ctx context.Context, store storage.Store, env veriland.Environment, f Filter, maxScan int) ([]Entry, string, error) {
	if !env.Valid() {
		return nil, "", veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	limit := f.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return nil, "", paramError("limit", "limit must be between 1 and %d", MaxLimit)
	}
	if f.Severity != "" && !f.Severity.Valid() {
		return nil, "", paramError("severity", "severity must be INFO, NOTICE, WARNING or CRITICAL")
	}
	after, err := decodeCursor(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	if _, err := Seal(ctx, store, env); err != nil && !errors.Is(err, ErrCorrupt) {
		return nil, "", err
	}

	var (
		entries []Entry
		next    string
	)
	err = store.View(ctx, func(tx storage.Tx) error {
		entries, next = nil, ""
		if after == ^uint64(0) {
			return nil // nothing can follow the largest seq
		}
		var (
			last    uint64 // last seq examined
			scanned int
			full    bool
		)
		r := storage.Range{Start: seqKey(after + 1)}
		err := tx.Scan(storage.Bucket(env, entriesBucket), r, func(key, value []byte) error {
			if full || scanned == maxScan {
				// There is at least one more entry: the page needs a next cursor.
				next = encodeCursor(last)
				return storage.ErrStop
			}
			scanned++
			if len(key) == 8 {
				last = binary.BigEndian.Uint64(key)
			}
			var e Entry
			if err := json.Unmarshal(value, &e); err != nil {
				return fmt.Errorf("audit: entry %x is unreadable (run Verify): %w", key, err)
			}
			if f.matches(e) {
				entries = append(entries, e)
				full = len(entries) == limit
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("audit: listing entries: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return entries, next, nil
}

func (f Filter) matches(e Entry) bool {
	if f.Account != "" {
		if acct, ok := e.Detail[DetailAccount].(string); ok && acct != f.Account {
			return false
		}
	}
	return (f.Severity == "" || e.Severity == f.Severity) &&
		(f.Action == "" || e.Action == f.Action) &&
		(f.Since.IsZero() || !e.Time.Before(f.Since))
}

func paramError(param, format string, args ...any) *veriland.Error {
	return veriland.Errorf(veriland.CodeValidationFailed, format, args...).WithMeta("parameter", param)
}

// A cursor is the unpadded base64url form of the big-endian seq of the last entry the
// previous page examined.
func encodeCursor(seq uint64) string {
	return base64.RawURLEncoding.EncodeToString(seqKey(seq))
}

func decodeCursor(s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 8 {
		return 0, paramError("cursor", "cursor is not one List returned")
	}
	return binary.BigEndian.Uint64(b), nil
}
