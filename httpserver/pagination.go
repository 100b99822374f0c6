package httpserver

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/veriland/veriland"
)

// page is a parsed ?limit=&cursor= pair. Cursors are opaque to clients: the
// base64url of the sort key of the last item of the previous page.
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

// newestFirstKey is the sort key of a record created at created with the given id:
// ascending keys list records newest first (creation time descending, then id
// ascending between records of the same instant).
func newestFirstKey(created time.Time, id string) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(id)), ^uint64(created.UnixNano()))
	return append(k, id...)
}

// keyedResource is one resource of a list that is sorted in memory, with its sort key.
type keyedResource struct {
	key []byte
	res resource
}

// sorted returns the page of all that follows the cursor, in ascending key order, and
// the cursor of the next page ("" at the end). It is for lists that are small by
// nature (an account's API keys) and whose storage order is not the listing order.
func (p page) sorted(all []keyedResource) ([]resource, string) {
	slices.SortFunc(all, func(a, b keyedResource) int { return bytes.Compare(a.key, b.key) })
	start := 0
	if p.after != nil {
		start, _ = slices.BinarySearchFunc(all, p.after, func(e keyedResource, k []byte) int { return bytes.Compare(e.key, k) })
		if start < len(all) && bytes.Equal(all[start].key, p.after) {
			start++
		}
	}
	end := min(start+p.limit, len(all))
	if start >= len(all) {
		return nil, ""
	}
	out := make([]resource, 0, max(end-start, 0))
	for _, e := range all[start:end] {
		out = append(out, e.res)
	}
	if end == len(all) {
		return out, ""
	}
	return out, base64.RawURLEncoding.EncodeToString(all[end-1].key)
}
