package storage

import (
	"context"
	"errors"
)

// Getter is implemented by stores for which one read outside a transaction is
// cheaper than a View of one Get: storage/postgres runs it as one statement, with no
// BEGIN and no ROLLBACK around it. A single statement sees one consistent snapshot,
// so the result is the one a View would have returned.
type Getter interface {
	// Get returns the value of key in bucket, or ErrNotFound, as a View whose
	// function calls Tx.Get once.
	Get(ctx context.Context, bucket string, key []byte) ([]byte, error)
}

// ErrOneRead is returned by the Tx of ViewOne for a second read or a Scan.
var ErrOneRead = errors.New("storage: ViewOne's function may read one key only (use View)")

// ViewOne runs fn, which reads at most one key with one Tx.Get, as cheaply as s
// allows: through Getter when s implements it, else in a View. The Tx refuses a
// second Get and any Scan with ErrOneRead, and writes with ErrReadOnly, on every
// store alike, so that a function that outgrows one read fails in every test rather
// than on one backend. It is for the hot single-key reads of a request path (a record
// by its id); fn runs once and ViewOne returns its error.
func ViewOne(ctx context.Context, s Store, fn func(tx Tx) error) error {
	g, ok := s.(Getter)
	if !ok {
		return s.View(ctx, func(tx Tx) error {
			o := &oneRead{ctx: ctx, tx: tx}
			defer func() { o.used = true }()
			return fn(o)
		})
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	o := &oneRead{ctx: ctx, g: g}
	defer func() { o.used = true }() // a Tx used after fn returned reads nothing
	return fn(o)
}

// oneRead is the Tx of ViewOne: one Get, through g or tx.
type oneRead struct {
	ctx  context.Context
	g    Getter
	tx   Tx
	used bool
}

func (o *oneRead) Get(bucket string, key []byte) ([]byte, error) {
	if o.used {
		return nil, ErrOneRead
	}
	o.used = true
	if o.g != nil {
		return o.g.Get(o.ctx, bucket, key)
	}
	return o.tx.Get(bucket, key)
}

func (o *oneRead) Put(string, []byte, []byte) error { return ErrReadOnly }

func (o *oneRead) Delete(string, []byte) error { return ErrReadOnly }

func (o *oneRead) Scan(string, Range, func(key, value []byte) error) error { return ErrOneRead }
