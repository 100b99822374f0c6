package bolt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/veriland/veriland/storage"
)

// Options configure Open. The zero value is the production setting.
type Options struct {
	// LockTimeout bounds the wait for the file lock held by another process
	// (default 5 s).
	LockTimeout time.Duration
	// MaxBatch caps how many concurrent Updates share one commit (default 256).
	MaxBatch int
	// NoSync skips fsync on commit. Only for throwaway data: a crash may lose or
	// corrupt committed transactions.
	NoSync bool
	// InitialMmapSize is the address space mapped at open (default 1 GiB; it is
	// not memory). While the file fits in it, a growing file never has to be
	// remapped, and a remap waits for every open read transaction: under many
	// concurrent readers that stalls every commit.
	InitialMmapSize int
}

// Store is a storage.Store on one bbolt file.
type Store struct {
	db       *bbolt.DB
	maxBatch int

	mu      sync.Mutex
	queue   []*call
	leading bool
	closed  bool

	commits atomic.Uint64
	txs     atomic.Uint64
	fnTime  atomic.Int64 // nanoseconds
	lockNs  atomic.Int64 // nanoseconds
}

var _ storage.Store = (*Store)(nil)

// Stats counts the work a Store has done since Open.
type Stats struct {
	Commits      uint64 // durable commits: one fsync of data and one of meta each
	Transactions uint64 // Update calls that committed
	// WriterTime is how long the write lock was held by batches: the serialised time
	// every Update waits behind. FunctionTime is the part of it spent in the
	// transaction functions (including runs rolled back and retried); the rest is
	// bbolt's begin and commit (page writes and fsync).
	WriterTime   time.Duration
	FunctionTime time.Duration
	// PagesWritten is bbolt's count of page writes by commits: one per dirty branch
	// or leaf page (an overflowing one counts once) and one for the meta page. It is
	// what keys spread over a bucket drive up. PageWriteTime is the time of those
	// writes with the commits' two fdatasyncs.
	PagesWritten  uint64
	PageWriteTime time.Duration
}

// Open opens (creating with mode 0600 when missing) the bbolt file at path.
func Open(path string, opts Options) (*Store, error) {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 5 * time.Second
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
	}
	if opts.InitialMmapSize <= 0 {
		opts.InitialMmapSize = 1 << 30
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:      opts.LockTimeout,
		NoSync:       opts.NoSync,
		FreelistType: bbolt.FreelistMapType,
		// The freelist is rebuilt from the pages at open instead of being written by
		// every commit: fewer pages per commit, a slower open of very large files.
		NoFreelistSync:  true,
		InitialMmapSize: opts.InitialMmapSize,
	})
	if err != nil {
		return nil, fmt.Errorf("bolt: open %s: %w", path, err)
	}
	return &Store{db: db, maxBatch: opts.MaxBatch}, nil
}

// Stats returns the commit counters.
func (s *Store) Stats() Stats {
	bs := s.db.Stats()
	return Stats{Commits: s.commits.Load(), Transactions: s.txs.Load(),
		WriterTime: time.Duration(s.lockNs.Load()), FunctionTime: time.Duration(s.fnTime.Load()),
		PagesWritten: uint64(bs.TxStats.GetWrite()), PageWriteTime: bs.TxStats.GetWriteTime()}
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.isClosed() {
		return storage.ErrClosed
	}
	err := s.db.View(func(btx *bbolt.Tx) error {
		return fn(&tx{ctx: ctx, btx: btx})
	})
	if errors.Is(err, bbolt.ErrDatabaseNotOpen) {
		return storage.ErrClosed
	}
	return err
}

// Close waits for nothing: callers must stop issuing transactions first. Committed
// writes are already durable.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.db.Close()
}

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
