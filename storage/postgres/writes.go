package postgres

import (
	"bytes"
	"maps"
	"slices"
	"sort"

	"github.com/jackc/pgx/v5"
)

// writes are an Update's puts and deletes, kept in memory until the transaction
// commits and then sent in one round trip (a pgx batch), instead of one round trip
// each while the transaction holds its snapshot: an approval's dozen writes cost one
// network wait, not twelve, and the window in which a concurrent transaction can
// make this one fail serialization shrinks with them. Reads see them: Get looks
// here first, and Scan merges them with the table's rows in key order.
//
// The batch is sent in (bucket, key) order, so two transactions that write the same
// rows lock them in the same order and cannot deadlock on them.
type writes struct {
	buckets map[string]*bucketWrites
	n       int
}

// bucketWrites are one bucket's pending writes: its keys sorted bytewise, and each
// key's last write.
type bucketWrites struct {
	keys [][]byte
	last map[string]write
}

// write is a pending Put (value) or Delete (deleted).
type write struct {
	value   []byte
	deleted bool
}

// set records a write of key in bucket; key and value are the caller's copies.
func (w *writes) set(bucket string, key []byte, wr write) {
	if w.buckets == nil {
		w.buckets = map[string]*bucketWrites{}
	}
	b := w.buckets[bucket]
	if b == nil {
		b = &bucketWrites{last: map[string]write{}}
		w.buckets[bucket] = b
	}
	if _, ok := b.last[string(key)]; !ok {
		i, _ := slices.BinarySearchFunc(b.keys, key, bytes.Compare)
		b.keys = slices.Insert(b.keys, i, key)
		w.n++
	}
	b.last[string(key)] = wr
}

// get returns the pending write of key in bucket, if any.
func (w *writes) get(bucket string, key []byte) (write, bool) {
	b := w.buckets[bucket]
	if b == nil {
		return write{}, false
	}
	wr, ok := b.last[string(key)]
	return wr, ok
}

// next returns the first pending key of bucket strictly after after (before it, in
// reverse) and inside [lower, upper) (a nil bound is open; a nil after starts at the
// range's end), with its write.
func (w *writes) next(bucket string, lower, upper, after []byte, reverse bool) ([]byte, write, bool) {
	b := w.buckets[bucket]
	if b == nil {
		return nil, write{}, false
	}
	var i int
	if !reverse {
		switch {
		case after != nil:
			i = sort.Search(len(b.keys), func(i int) bool { return bytes.Compare(b.keys[i], after) > 0 })
		case lower != nil:
			i = sort.Search(len(b.keys), func(i int) bool { return bytes.Compare(b.keys[i], lower) >= 0 })
		}
		if i >= len(b.keys) || (upper != nil && bytes.Compare(b.keys[i], upper) >= 0) {
			return nil, write{}, false
		}
	} else {
		switch {
		case after != nil:
			i = sort.Search(len(b.keys), func(i int) bool { return bytes.Compare(b.keys[i], after) >= 0 }) - 1
		case upper != nil:
			i = sort.Search(len(b.keys), func(i int) bool { return bytes.Compare(b.keys[i], upper) >= 0 }) - 1
		default:
			i = len(b.keys) - 1
		}
		if i < 0 || (lower != nil && bytes.Compare(b.keys[i], lower) < 0) {
			return nil, write{}, false
		}
	}
	k := b.keys[i]
	return k, b.last[string(k)], true
}

// queue adds to out the statements that apply the writes: one INSERT ... ON
// CONFLICT for all the puts and one DELETE for all the deletes, each over arrays in
// (bucket, key) order (a single write is sent as its own plain statement). One
// statement instead of one per row spares PostgreSQL a parse, bind and execute per
// row; rows are taken in array order, so two transactions writing the same rows
// mostly lock them in the same order (a deadlock, when they do not, is retried like a
// serialization failure).
func (w *writes) queue(out *pgx.Batch, q *queries) {
	var putBuckets, delBuckets []string
	var putKeys, putValues, delKeys [][]byte
	for _, bucket := range slices.Sorted(maps.Keys(w.buckets)) {
		b := w.buckets[bucket]
		for _, k := range b.keys {
			if wr := b.last[string(k)]; wr.deleted {
				delBuckets, delKeys = append(delBuckets, bucket), append(delKeys, k)
			} else {
				putBuckets, putKeys, putValues = append(putBuckets, bucket), append(putKeys, k), append(putValues, wr.value)
			}
		}
	}
	switch len(putKeys) {
	case 0:
	case 1:
		out.Queue(q.put, putBuckets[0], putKeys[0], putValues[0])
	default:
		out.Queue(q.putMany, putBuckets, putKeys, putValues)
	}
	switch len(delKeys) {
	case 0:
	case 1:
		out.Queue(q.delete, delBuckets[0], delKeys[0])
	default:
		out.Queue(q.deleteMany, delBuckets, delKeys)
	}
}
