package httpserver

import (
	"encoding/base64"
	"net/http"
	"strconv"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// page is a parsed ?limit=&cursor= pair. Cursors are opaque to clients: the
// base64url of the last key of the previous page.
type page struct {
	limit int
	after []byte
}

func parsePage(r *http.Request) (page, error) {
	p := page{limit: 20}
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return p, veriland.Invalid("/limit", "limit must be an integer from 1 to 100").WithMeta("parameter", "limit")
		}
		p.limit = n
	}
	if v := q.Get("cursor"); v != "" {
		after, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil || len(after) == 0 || len(after) > 512 {
			return p, veriland.Invalid("/cursor", "cursor is not one this server issued").WithMeta("parameter", "cursor")
		}
		p.after = after
	}
	return p, nil
}

// scan walks bucket keys with prefix after the cursor and calls fn for up to limit
// records; it returns the cursor of the next page, or "" at the end.
func (p page) scan(tx storage.Tx, bucket string, prefix []byte, fn func(key, value []byte) (bool, error)) (string, error) {
	rng := storage.Range{Prefix: prefix}
	if p.after != nil {
		rng.Start = append(append([]byte{}, p.after...), 0)
	}
	var last []byte
	n, more := 0, false
	err := tx.Scan(bucket, rng, func(k, v []byte) error {
		if n == p.limit {
			more = true
			return storage.ErrStop
		}
		keep, err := fn(k, v)
		if err != nil {
			return err
		}
		if keep {
			n++
		}
		last = k
		return nil
	})
	if err != nil || !more {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(last), nil
}
