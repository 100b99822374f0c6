package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/veriland/veriland/storage"
)

// A transaction costs no network wait of its own. Its connection is taken from the
// pool at its first statement, and BEGIN travels with that statement in one pipeline
// (a pgx batch); an Update's buffered writes travel with its COMMIT (and with its
// BEGIN too when it read nothing); a View's ROLLBACK is sent after View returned,
// and the connection goes back to the pool when PostgreSQL answers. So a View of one
// read is one wait, and an Update of R reads is R + 1 waits, where BEGIN, each
// statement and COMMIT were one each. A function that runs no statement costs none.
//
// PostgreSQL takes a transaction's snapshot at its first statement, not at BEGIN, so
// sending them together changes nothing a transaction sees.
const (
	beginView   = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
	beginUpdate = "BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE"
)

// read runs one query of the transaction, scanning each row into dest and calling
// each after every row. The transaction's first query takes a connection and is
// pipelined behind BEGIN.
func (t *tx) read(sql string, args []any, dest []any, each func() error) error {
	t.reads++
	if err := t.acquire(); err != nil {
		return err
	}
	if t.begun {
		rows, err := t.pc.Query(t.ctx, sql, args...)
		if err == nil {
			_, err = pgx.ForEachRow(rows, dest, each)
		}
		if err != nil {
			return t.fail(err)
		}
		return nil
	}
	b := &pgx.Batch{}
	b.Queue(t.begin)
	b.Queue(sql, args...)
	t.begun = true
	br := t.pc.SendBatch(t.ctx, b)
	_, err := br.Exec()
	if err == nil {
		var rows pgx.Rows
		if rows, err = br.Query(); err == nil {
			_, err = pgx.ForEachRow(rows, dest, each)
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return t.fail(err)
	}
	return nil
}

// acquire takes the transaction's connection from the pool, with the caller's
// context, unless it has one. Its error also keeps the transaction from committing.
func (t *tx) acquire() error {
	if t.pc != nil {
		return nil
	}
	pc, err := t.s.pool.Acquire(t.ctx)
	if err != nil {
		err = t.s.beginError(t.ctx, err)
		if t.err == nil {
			t.err = err
		}
		return err
	}
	t.pc = pc
	return nil
}

// errCommitRolledBack is returned when PostgreSQL answered COMMIT with ROLLBACK: the
// transaction had failed, so nothing was written.
var errCommitRolledBack = errors.New("postgres: COMMIT was answered ROLLBACK: nothing was written")

// commit sends the Update's buffered writes and COMMIT in one round trip, preceded by
// BEGIN when the transaction has not begun (it read nothing). ctx is not the caller's:
// once sent, the commit runs to its end. It reports whether the transaction may be
// run again (a serialization failure or deadlock, in a write or at COMMIT).
func (t *tx) commit(ctx context.Context) (retry bool, err error) {
	if err := t.acquire(); err != nil { // the caller's context: nothing is sent yet
		return false, err
	}
	b := &pgx.Batch{}
	if !t.begun {
		b.Queue(t.begin)
		t.begun = true
	}
	t.pending.queue(b, t.q)
	b.Queue("COMMIT")
	br := t.pc.SendBatch(ctx, b)
	for range b.Len() - 1 {
		if _, err = br.Exec(); err != nil {
			break
		}
	}
	if err == nil {
		tag, cerr := br.Exec()
		switch {
		case cerr != nil:
			err = cerr
		case tag.String() != "COMMIT":
			err = errCommitRolledBack
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	switch {
	case err == nil:
		return false, nil
	case Retryable(err):
		return true, err
	case errors.Is(err, errCommitRolledBack):
		return false, fmt.Errorf("%w: %w", storage.ErrUnavailable, err)
	case isPgError(err) && !unavailable(err):
		// A write refused (a value too large, say): the transaction failed before
		// COMMIT ran.
		return false, fmt.Errorf("postgres: transaction not committed: %w", err)
	}
	// The connection broke or the server gave up: whether COMMIT ran is unknown.
	return false, fmt.Errorf("%w: postgres: commit: %w", storage.ErrUnavailable, err)
}

// release ends what is left of the transaction and gives its connection back: at
// once when the connection is idle (committed, or never begun), else after a
// ROLLBACK, waited for when wait is set and sent in the background otherwise (a
// View's result does not depend on it). The pool closes a connection it gets back
// broken or still in a transaction.
func (t *tx) release(wait bool) {
	pc := t.pc
	t.pc = nil
	if pc == nil {
		return
	}
	if pc.Conn().IsClosed() || pc.Conn().PgConn().TxStatus() == 'I' {
		pc.Release()
		return
	}
	end := func() {
		ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
		defer cancel()
		_, _ = pc.Exec(ctx, "ROLLBACK") // on failure pgx closes the connection
		pc.Release()
	}
	if wait {
		end()
		return
	}
	go end()
}
