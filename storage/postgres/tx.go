package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/veriland/veriland/storage"
)

// Scan reads its range in pages of keyset queries (key > the last key seen), so
// that a scan holds no open cursor while its function runs: the function may use the
// transaction meanwhile, and an early ErrStop wastes at most one page. The first
// page is small, for scans that stop early; later ones grow up to maxPage rows.
const (
	firstPage = 64
	maxPage   = 1024
)

// queries are the SQL statements of one table.
type queries struct {
	table  string // quoted, possibly schema-qualified
	get    string
	put    string
	delete string
	// putMany and deleteMany write several rows, over arrays of buckets, keys
	// (and values): $1 TEXT[], $2 BYTEA[] (, $3 BYTEA[]).
	putMany    string
	deleteMany string
}

func newQueries(table string) queries {
	return queries{
		table:  table,
		get:    "SELECT value FROM " + table + " WHERE bucket = $1 AND key = $2",
		put:    "INSERT INTO " + table + " (bucket, key, value) VALUES ($1, $2, $3) ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value",
		delete: "DELETE FROM " + table + " WHERE bucket = $1 AND key = $2",
		putMany: "INSERT INTO " + table + " (bucket, key, value) SELECT * FROM unnest($1::text[], $2::bytea[], $3::bytea[])" +
			" ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value",
		deleteMany: "DELETE FROM " + table + " t USING unnest($1::text[], $2::bytea[]) AS d(bucket, key)" +
			" WHERE t.bucket = d.bucket AND t.key = d.key",
	}
}

// scanQuery returns the SQL and arguments of one page of a scan of bucket over keys
// in [lower, upper) (a nil bound is open), in key order or in reverse. after, when
// not nil, is the last key of the previous page: the page starts strictly after it,
// in the scan's direction. BYTEA compares bytewise, shorter first on a common
// prefix, which is bbolt's order.
func scanQuery(table, bucket string, lower, upper, after []byte, reverse bool, limit int) (string, []any) {
	var sb strings.Builder
	args := []any{bucket}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	sb.WriteString("SELECT key, value FROM ")
	sb.WriteString(table)
	sb.WriteString(" WHERE bucket = $1")
	switch {
	case after != nil && !reverse:
		sb.WriteString(" AND key > " + arg(after))
	case lower != nil:
		sb.WriteString(" AND key >= " + arg(lower))
	}
	switch {
	case after != nil && reverse:
		sb.WriteString(" AND key < " + arg(after))
	case upper != nil:
		sb.WriteString(" AND key < " + arg(upper))
	}
	if reverse {
		sb.WriteString(" ORDER BY key DESC")
	} else {
		sb.WriteString(" ORDER BY key")
	}
	sb.WriteString(" LIMIT " + arg(limit))
	return sb.String(), args
}

// errTxDone is returned by a Tx used after its function returned.
var errTxDone = errors.New("postgres: transaction used after its function returned")

// tx adapts a pgx transaction to storage.Tx. pgx copies arguments when it encodes
// them and scans BYTEA into fresh slices, so no slice is retained or shared.
type tx struct {
	ctx      context.Context
	s        *Store
	begin    string        // the BEGIN statement, sent with the first statement
	pc       *pgxpool.Conn // taken from the pool at the first statement
	begun    bool          // BEGIN was sent
	q        *queries
	writable bool
	done     bool
	pending  writes // an Update's puts and deletes, sent at commit
	reads    uint64 // round trips of Get and of Scan pages

	err   error // the first statement error: PostgreSQL aborts the transaction on it
	retry error // the first serialization failure or deadlock
}

// check returns the error that prevents any statement.
func (t *tx) check() error {
	if t.done {
		return errTxDone
	}
	return t.ctx.Err()
}

// fail records and maps the error of a statement.
func (t *tx) fail(err error) error {
	if cerr := t.ctx.Err(); cerr != nil {
		return cerr
	}
	if t.err == nil {
		t.err = err
	}
	if Retryable(err) && t.writable {
		if t.retry == nil {
			t.retry = err // Update runs the function again
		}
		return fmt.Errorf("postgres: %w", err)
	}
	return readError(t.ctx, err)
}

// readError maps the error of a read that runs once (a View's statement, or
// Store.Get): the context's error when it is done; a serialization failure or a
// failure of the server or connection wraps storage.ErrUnavailable, since the
// caller may try again (CockroachDB can fail reads with "restart transaction").
func readError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if Retryable(err) || unavailable(err) {
		return fmt.Errorf("%w: postgres: %w", storage.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: %w", err)
}

func (t *tx) Get(bucket string, key []byte) ([]byte, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if wr, ok := t.pending.get(bucket, key); ok {
		if wr.deleted {
			return nil, storage.ErrNotFound
		}
		return bytes.Clone(wr.value), nil
	}
	var v []byte
	found := false
	if err := t.read(t.q.get, []any{bucket, key}, []any{&v}, func() error { found = true; return nil }); err != nil {
		return nil, err
	}
	if !found {
		return nil, storage.ErrNotFound
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

func (t *tx) Put(bucket string, key, value []byte) error {
	if err := t.check(); err != nil {
		return err
	}
	if !t.writable {
		return storage.ErrReadOnly
	}
	if len(key) == 0 {
		return errors.New("postgres: empty key")
	}
	if err := t.checkBucket(bucket); err != nil {
		return err
	}
	t.pending.set(bucket, bytes.Clone(key), write{value: append([]byte{}, value...)}) // never NULL
	return nil
}

func (t *tx) Delete(bucket string, key []byte) error {
	if err := t.check(); err != nil {
		return err
	}
	if !t.writable {
		return storage.ErrReadOnly
	}
	if len(key) == 0 {
		return nil // no row has an empty key
	}
	if err := t.checkBucket(bucket); err != nil {
		return err
	}
	t.pending.set(bucket, bytes.Clone(key), write{deleted: true})
	return nil
}

// checkBucket refuses, at once, a bucket name that the TEXT column cannot hold
// (invalid UTF-8, or a NUL), which PostgreSQL would refuse only when the write is
// sent at commit. As a failed statement would, it keeps the transaction from
// committing even when the function ignores the error.
func (t *tx) checkBucket(bucket string) error {
	if utf8.ValidString(bucket) && !strings.ContainsRune(bucket, 0) {
		return nil
	}
	err := fmt.Errorf("postgres: bucket name %q is not UTF-8 text without NUL", bucket)
	if t.err == nil {
		t.err = err
	}
	return err
}

func (t *tx) Scan(bucket string, r storage.Range, fn func(key, value []byte) error) error {
	if err := t.check(); err != nil {
		return err
	}
	lower, upper := r.Lower(), r.Upper()
	if lower != nil && upper != nil && bytes.Compare(lower, upper) >= 0 {
		return nil // an empty range
	}
	type pair struct{ k, v []byte }
	var page []pair
	var after []byte // the last row of the table read, for the next page
	var last []byte  // the last key given to fn (or skipped as deleted)
	// emit gives fn the pending writes between last and k (exclusive; all the rest
	// when k is nil), then the table's row k unless a pending write replaces it.
	before := func(a, b []byte) bool {
		if r.Reverse {
			return bytes.Compare(a, b) > 0
		}
		return bytes.Compare(a, b) < 0
	}
	emit := func(k, v []byte) error {
		for {
			pk, wr, ok := t.pending.next(bucket, lower, upper, last, r.Reverse)
			if !ok || (k != nil && !before(pk, k)) {
				break
			}
			last = bytes.Clone(pk)
			if !wr.deleted {
				if err := fn(bytes.Clone(pk), bytes.Clone(wr.value)); err != nil {
					return err
				}
				if err := t.check(); err != nil {
					return err
				}
			}
		}
		if k == nil {
			return nil
		}
		last = bytes.Clone(k)
		if wr, ok := t.pending.get(bucket, k); ok {
			if wr.deleted {
				return nil
			}
			v = bytes.Clone(wr.value)
		}
		if err := fn(k, v); err != nil {
			return err
		}
		return t.check()
	}
	for limit := firstPage; ; limit = min(limit*4, maxPage) {
		sql, args := scanQuery(t.q.table, bucket, lower, upper, after, r.Reverse, limit)
		page = page[:0]
		var k, v []byte
		err := t.read(sql, args, []any{&k, &v}, func() error {
			if v == nil {
				v = []byte{}
			}
			page = append(page, pair{k, v})
			return nil
		})
		if err != nil {
			return err
		}
		if len(page) > 0 {
			after = bytes.Clone(page[len(page)-1].k) // fn may change the key it is given
		}
		for _, p := range page {
			if err := emit(p.k, p.v); err != nil {
				if errors.Is(err, storage.ErrStop) {
					return nil
				}
				return err
			}
		}
		if len(page) < limit {
			if err := emit(nil, nil); err != nil && !errors.Is(err, storage.ErrStop) {
				return err
			}
			return nil
		}
	}
}
