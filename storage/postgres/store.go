package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/veriland/veriland/storage"
)

// DefaultTable is the table Open uses when Options.Table is empty.
const DefaultTable = "veriland_kv"

// Defaults of the retry options.
const (
	DefaultMaxAttempts = 30
	DefaultMaxBackoff  = 100 * time.Millisecond
)

// commitTimeout bounds a COMMIT (and a ROLLBACK) once it has been sent: they run
// without the caller's cancellation, so that Update never reports a cancelled
// context for a transaction that did commit.
const commitTimeout = 30 * time.Second

// Options configure Open. Only DSN is required.
type Options struct {
	// DSN is the connection string, a URL (postgres://user@host:5432/db?sslmode=...)
	// or key=value pairs, as pgx accepts them, pool_* settings included.
	DSN string
	// MaxConns caps the pool's connections (default: the DSN's pool_max_conns, or
	// pgxpool's default of max(4, number of CPUs)). Concurrent transactions beyond it
	// wait for a connection.
	MaxConns int
	// Schema is the schema of the table; empty means the connection's search_path
	// (usually "public"). Open creates it when missing, unless NoCreate is set.
	Schema string
	// Table is the table's name (default DefaultTable). Stores with different tables
	// (or schemas) on one database share nothing: it is how several deployments or
	// tests share a server. Names are quoted identifiers of at most 63 bytes.
	Table string
	// NoCreate makes Open check that the table exists instead of creating it, for
	// roles without CREATE privilege; run DDL's statements beforehand.
	NoCreate bool
	// MaxAttempts caps how many times Update runs its function when transactions
	// fail with serialization failures or deadlocks (default DefaultMaxAttempts).
	MaxAttempts int
	// MaxBackoff caps the jittered, exponentially growing pause between attempts
	// (default DefaultMaxBackoff).
	MaxBackoff time.Duration

	dial pgconn.DialFunc // for tests: counts the network waits
}

func (o Options) withDefaults() Options {
	if o.Table == "" {
		o.Table = DefaultTable
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	return o
}

// ident returns the quoted, possibly schema-qualified table name.
func (o Options) ident() string {
	if o.Schema != "" {
		return pgx.Identifier{o.Schema, o.Table}.Sanitize()
	}
	return pgx.Identifier{o.Table}.Sanitize()
}

func (o Options) validate() error {
	for _, name := range []string{o.Schema, o.Table} {
		if len(name) > 63 {
			return fmt.Errorf("postgres: identifier %q is longer than 63 bytes", name)
		}
		if strings.ContainsRune(name, 0) {
			return fmt.Errorf("postgres: identifier %q contains a NUL byte", name)
		}
	}
	return nil
}

// DDL returns the SQL statements Open runs to create the schema (when Options.Schema
// is set) and the table, separated by ";\n", for a migration tool or a DBA to run
// when the store's role may not create tables (see Options.NoCreate).
func (o Options) DDL() string {
	return strings.Join(o.withDefaults().ddl(), ";\n") + ";"
}

func (o Options) ddl() []string {
	var stmts []string
	if o.Schema != "" {
		stmts = append(stmts, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{o.Schema}.Sanitize())
	}
	return append(stmts, "CREATE TABLE IF NOT EXISTS "+o.ident()+
		" (bucket TEXT NOT NULL, key BYTEA NOT NULL, value BYTEA NOT NULL, PRIMARY KEY (bucket, key))")
}

// Store is a storage.Store on one PostgreSQL (or CockroachDB) table, through a pgx
// connection pool. It is safe for concurrent use, also by several processes.
type Store struct {
	pool   *pgxpool.Pool
	opts   Options
	q      queries
	closed atomic.Bool
	gate   gate

	commits  atomic.Uint64
	attempts atomic.Uint64
	retries  atomic.Uint64
	reads    atomic.Uint64
	writes   atomic.Uint64

	views     atomic.Uint64
	viewReads atomic.Uint64
	gets      atomic.Uint64
}

var (
	_ storage.Store  = (*Store)(nil)
	_ storage.Getter = (*Store)(nil)
)

// Stats counts the work a Store has done since Open.
type Stats struct {
	Commits  uint64 // Update calls that committed
	Attempts uint64 // Update transactions begun, retries included
	Retries  uint64 // attempts that failed with a serialization failure or deadlock and ran again
	// Reads counts the read round trips of Update attempts (one per Get, one per
	// page of a Scan), Writes the rows their batches wrote or deleted. BEGIN travels
	// with an attempt's first statement and its writes with its COMMIT, so an Update
	// that commits at the first attempt costs Reads + 1 network waits.
	Reads, Writes uint64
	// Views counts the View calls that ran a statement, ViewReads their read round
	// trips (a View's ROLLBACK is not waited for).
	Views, ViewReads uint64
	// Gets counts the single reads outside a transaction (Get, for storage.ViewOne).
	Gets uint64
}

// Stats returns the counters.
func (s *Store) Stats() Stats {
	return Stats{Commits: s.commits.Load(), Attempts: s.attempts.Load(), Retries: s.retries.Load(),
		Reads: s.reads.Load(), Writes: s.writes.Load(), Views: s.views.Load(), ViewReads: s.viewReads.Load(),
		Gets: s.gets.Load()}
}

// Open connects to the database of opts.DSN, checks the connection and creates the
// table when it is missing (see Options.NoCreate). ctx bounds only the connecting and
// the creation.
func Open(ctx context.Context, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(opts.DSN)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if opts.dial != nil {
		cfg.ConnConfig.DialFunc = opts.dial
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = int32(min(opts.MaxConns, 1<<30))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{pool: pool, opts: opts, q: newQueries(opts.ident())}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// migrate creates the schema and table, or checks that the table exists.
func (s *Store) migrate(ctx context.Context) error {
	if s.opts.NoCreate {
		var n int
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+s.q.table+" WHERE false").Scan(&n); err != nil {
			return s.openError(ctx, fmt.Errorf("check table %s: %w", s.q.table, err))
		}
		return nil
	}
	for _, stmt := range s.opts.ddl() {
		var err error
		for range 3 {
			// Concurrent CREATE ... IF NOT EXISTS of one name (replicas starting
			// together) can fail in PostgreSQL with a unique violation on the
			// catalog, or "already exists" (of the table, its row type or the
			// schema): the other one won, try again.
			_, err = s.pool.Exec(ctx, stmt)
			if !hasCode(err, "23505", "42P07", "42P06", "42710") {
				break
			}
		}
		if err != nil {
			return s.openError(ctx, fmt.Errorf("%s: %w", stmt, err))
		}
	}
	return nil
}

func (s *Store) openError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("postgres: %w: %w", ctx.Err(), err)
	}
	if unavailable(err) {
		return fmt.Errorf("%w: postgres: %w", storage.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: %w", err)
}

// Close closes the pool, waiting for the connections in use to be released; callers
// must stop issuing transactions first. Committed writes are already durable. Later
// calls of View and Update return storage.ErrClosed. A second Close is a no-op.
func (s *Store) Close() error {
	s.closed.Store(true)
	s.pool.Close()
	return nil
}

// View runs fn in a READ ONLY transaction at REPEATABLE READ: every read sees the
// snapshot taken at its first statement. fn runs once; View returns its error. The
// transaction begins with fn's first read and ends after View returned (see the
// package documentation on round trips).
func (s *Store) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	if err := s.usable(ctx); err != nil {
		return err
	}
	t := &tx{ctx: ctx, s: s, begin: beginView, q: &s.q}
	defer func() {
		t.done = true
		if t.begun {
			s.views.Add(1)
			s.viewReads.Add(t.reads)
		}
		t.release(false)
	}()
	return fn(t)
}

// Get reads one key in one statement outside any transaction (storage.Getter, which
// storage.ViewOne uses): one network wait, and no BEGIN or ROLLBACK for PostgreSQL to
// run. A statement sees one snapshot, so the value is the one a View would read.
// Errors are those of a View's Get.
func (s *Store) Get(ctx context.Context, bucket string, key []byte) ([]byte, error) {
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	s.gets.Add(1)
	var v []byte
	err := s.pool.QueryRow(ctx, s.q.get, bucket, key).Scan(&v)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, storage.ErrNotFound
	case err != nil:
		return nil, readError(ctx, err)
	case v == nil:
		v = []byte{}
	}
	return v, nil
}

// Update runs fn in a SERIALIZABLE transaction and commits when fn returns nil.
//
// When the transaction fails with a serialization failure (SQLSTATE 40001) or a
// deadlock (40P01), in any statement or at commit, it is rolled back and fn runs
// again in a new transaction, after a jittered pause that grows exponentially up to
// Options.MaxBackoff, at most Options.MaxAttempts times in all; the last failure is
// then returned wrapped in storage.ErrUnavailable. A retry first waits for this
// Store's other Updates in flight (for at most ten times MaxBackoff) and holds new
// ones back while it runs, so that transactions that conflict inside one process
// make progress in turn rather than starve.
//
// A panic in fn rolls the transaction back and reaches the caller. When ctx is done
// before the commit, nothing is committed and Update returns ctx's error, even if fn
// swallowed the error its Tx returned; once COMMIT is sent it runs to its end. A
// statement error that fn swallowed also prevents the commit and is returned. A
// COMMIT that fails otherwise (the connection broke: the outcome is unknown) returns
// an error wrapping storage.ErrUnavailable.
func (s *Store) Update(ctx context.Context, fn func(tx storage.Tx) error) error {
	var last error
	for attempt := 1; ; attempt++ {
		if err := s.usable(ctx); err != nil {
			return err
		}
		retry, err := s.attempt(ctx, fn, attempt > 1)
		if !retry {
			return err
		}
		last = err
		if attempt >= s.opts.MaxAttempts {
			return fmt.Errorf("%w: postgres: transaction gave up after %d attempts: %w", storage.ErrUnavailable, attempt, last)
		}
		s.retries.Add(1)
		if err := sleep(ctx, backoff(attempt, s.opts.MaxBackoff)); err != nil {
			return err
		}
	}
}

// attempt runs fn in one transaction. It reports whether the transaction failed in
// a way that running it again may cure.
func (s *Store) attempt(ctx context.Context, fn func(tx storage.Tx) error, retrying bool) (retry bool, err error) {
	release, err := s.gate.enter(ctx, retrying, s.opts.MaxBackoff*10)
	if err != nil {
		return false, err
	}
	defer release()
	s.attempts.Add(1)
	t := &tx{ctx: ctx, s: s, begin: beginUpdate, q: &s.q, writable: true}
	defer func() {
		s.reads.Add(t.reads)
		t.done = true
		t.release(true)
	}()
	fnErr := fn(t)
	t.done = true
	switch {
	case t.retry != nil || Retryable(fnErr):
		if cerr := ctx.Err(); cerr != nil {
			return false, cerr
		}
		if t.retry != nil {
			return true, t.retry
		}
		return true, fnErr
	case fnErr != nil:
		return false, fnErr
	case ctx.Err() != nil:
		return false, ctx.Err()
	case t.err != nil:
		return false, fmt.Errorf("postgres: transaction not committed: a statement failed: %w", t.err)
	case !t.begun && t.pending.n == 0:
		s.commits.Add(1) // nothing read, nothing written: nothing to send
		return false, nil
	}
	s.writes.Add(uint64(t.pending.n))
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	if retry, err := t.commit(cctx); err != nil {
		return retry, err
	}
	s.commits.Add(1)
	return false, nil
}

// usable returns ctx's error, or ErrClosed once the store is closed: what every
// entry point checks before it takes a connection.
func (s *Store) usable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return storage.ErrClosed
	}
	return nil
}

// beginError maps an error of BEGIN (and of acquiring a connection).
func (s *Store) beginError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if s.closed.Load() {
		return storage.ErrClosed
	}
	return fmt.Errorf("%w: postgres: begin: %w", storage.ErrUnavailable, err)
}

// Retryable reports whether err (or an error it wraps) is a PostgreSQL or
// CockroachDB error after which running the whole transaction again may succeed: a
// serialization failure (SQLSTATE 40001, which CockroachDB reports for every
// "restart transaction" error) or a detected deadlock (40P01). Update retries these
// itself; Retryable is for callers that see them elsewhere, such as a View on
// CockroachDB.
func Retryable(err error) bool {
	return hasCode(err, "40001", "40P01")
}

// isPgError reports whether err (or an error it wraps) is an error PostgreSQL sent.
func isPgError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr)
}

func hasCode(err error, codes ...string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	for _, c := range codes {
		if pgErr.Code == c {
			return true
		}
	}
	return false
}

// unavailable reports whether err is a failure of the server or of the connection
// rather than of the statement: the request may be retried later.
func unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true // no answer from the server: connection or protocol failure
	}
	switch pgErr.Code[:2] {
	case "08", // connection exception
		"53", // insufficient resources (too many connections, disk full)
		"57", // operator intervention (shutdown, statement timeout)
		"58": // system error (I/O)
		return true
	}
	return pgErr.Code == "40003" // statement completion unknown
}

// backoff returns the pause before attempt+1: uniformly random in
// [0, min(maxBackoff, 1ms·2^(attempt-1))).
func backoff(attempt int, maxBackoff time.Duration) time.Duration {
	ceiling := maxBackoff
	if attempt-1 < 30 {
		ceiling = min(maxBackoff, time.Millisecond<<(attempt-1))
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
