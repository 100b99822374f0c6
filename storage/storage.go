package storage

import (
	"context"
	"errors"
)

// Store is a transactional, ordered key-value store. Keys are ordered bytewise inside
// a bucket. A Store is safe for concurrent use.
type Store interface {
	// View runs fn in a read-only transaction that sees one consistent snapshot.
	View(ctx context.Context, fn func(tx Tx) error) error
	// Update runs fn in a read-write transaction and commits (durably, with fsync)
	// when fn returns nil; any error rolls every write back.
	//
	// Backends may batch concurrent Updates into one commit and, when one of a batch
	// fails, run fn again on its own: fn must be safe to run more than once and must
	// have no effect outside tx.
	Update(ctx context.Context, fn func(tx Tx) error) error
	// Close releases the store. Committed writes survive Close and reopen.
	Close() error
}

// Tx is one transaction. It must not be used after the function it was given to
// returns. Byte slices passed to and returned from a Tx are never retained or shared:
// the backend copies them.
type Tx interface {
	// Get returns the value of key in bucket, or ErrNotFound.
	Get(bucket string, key []byte) ([]byte, error)
	// Put sets key to value in bucket, creating the bucket when needed.
	// It returns ErrReadOnly in a View transaction.
	Put(bucket string, key, value []byte) error
	// Delete removes key from bucket; deleting a missing key is not an error.
	Delete(bucket string, key []byte) error
	// Scan calls fn for each key of bucket in r, in key order (or reverse order with
	// r.Reverse), until fn returns an error. Returning ErrStop ends the scan early and
	// Scan then returns nil. A missing bucket scans as empty.
	Scan(bucket string, r Range, fn func(key, value []byte) error) error
}

// Range selects keys for Scan. Prefix, when set, keeps only keys that start with it;
// Start (inclusive) and End (exclusive), when set, bound the keys further.
type Range struct {
	Prefix  []byte
	Start   []byte
	End     []byte
	Reverse bool
}

// Errors returned by every backend.
var (
	ErrNotFound = errors.New("storage: key not found")
	ErrReadOnly = errors.New("storage: write in a read-only transaction")
	ErrStop     = errors.New("storage: stop scan")
	ErrClosed   = errors.New("storage: store is closed")
	// ErrUnavailable wraps failures of the medium itself (a commit that could not be
	// written or synced): the request may be retried, and servers answer 503.
	ErrUnavailable = errors.New("storage: unavailable")
)
