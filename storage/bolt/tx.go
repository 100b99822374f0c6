package bolt

import (
	"bytes"
	"context"
	"errors"

	bbolt "go.etcd.io/bbolt"

	"github.com/veriland/veriland/storage"
)

// tx adapts a bbolt transaction to storage.Tx, copying every slice in and out.
type tx struct {
	ctx context.Context
	btx *bbolt.Tx
}

func (t *tx) Get(bucket string, key []byte) ([]byte, error) {
	if err := t.ctx.Err(); err != nil {
		return nil, err
	}
	b := t.btx.Bucket([]byte(bucket))
	if b == nil {
		return nil, storage.ErrNotFound
	}
	v := b.Get(key)
	if v == nil {
		return nil, storage.ErrNotFound
	}
	return bytes.Clone(v), nil
}

func (t *tx) Put(bucket string, key, value []byte) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if !t.btx.Writable() {
		return storage.ErrReadOnly
	}
	if len(key) == 0 {
		return errors.New("bolt: empty key")
	}
	b, err := t.btx.CreateBucketIfNotExists([]byte(bucket))
	if err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	return b.Put(bytes.Clone(key), bytes.Clone(value))
}

func (t *tx) Delete(bucket string, key []byte) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if !t.btx.Writable() {
		return storage.ErrReadOnly
	}
	b := t.btx.Bucket([]byte(bucket))
	if b == nil {
		return nil
	}
	return b.Delete(key)
}

func (t *tx) Scan(bucket string, r storage.Range, fn func(key, value []byte) error) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	b := t.btx.Bucket([]byte(bucket))
	if b == nil {
		return nil
	}
	lower, upper := r.Lower(), r.Upper()
	c := b.Cursor()
	var k, v []byte
	if r.Reverse {
		if upper == nil {
			k, v = c.Last()
		} else {
			k, v = c.Seek(upper)
			if k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		}
	} else if lower == nil {
		k, v = c.First()
	} else {
		k, v = c.Seek(lower)
	}
	for ; k != nil; k, v = step(c, r.Reverse) {
		if !r.Reverse && upper != nil && bytes.Compare(k, upper) >= 0 {
			break
		}
		if r.Reverse && lower != nil && bytes.Compare(k, lower) < 0 {
			break
		}
		if v == nil || !r.Contains(k) { // v == nil: a nested bucket, not a value
			continue
		}
		if err := fn(bytes.Clone(k), bytes.Clone(v)); err != nil {
			if errors.Is(err, storage.ErrStop) {
				return nil
			}
			return err
		}
		if err := t.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func step(c *bbolt.Cursor, reverse bool) ([]byte, []byte) {
	if reverse {
		return c.Prev()
	}
	return c.Next()
}
