package storagetest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// pageKeys is the number of keys of testScanPages under its prefix: more than a
// backend that reads in pages (PostgreSQL: a first page of 64 rows, growing up to
// 1,024) reads in its first five pages together, so that every scan below crosses
// several page boundaries, including one at the largest page size.
const pageKeys = 2100

// pageKey is the i-th key of testScanPages under prefix.
func pageKey(prefix string, i int) string { return fmt.Sprintf("%s%05d", prefix, i) }

// testScanPages checks scans that cross many pages of a paging backend: a scan that
// stops after its first page, loses or repeats a key at a page boundary, or pages the
// wrong way in reverse fails it.
func testScanPages(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "pages"
	var keys []string
	pairs := make([]kv, 0, pageKeys+80)
	for i := range 40 { // neighbours before and after the prefix
		pairs = append(pairs, kv{pageKey("o/", i), "v:" + pageKey("o/", i)})
		pairs = append(pairs, kv{pageKey("q/", i), "v:" + pageKey("q/", i)})
	}
	for i := pageKeys - 1; i >= 0; i-- { // insertion order must not matter
		k := pageKey("p/", i)
		pairs = append(pairs, kv{k, "v:" + k})
	}
	for i := range pageKeys {
		keys = append(keys, pageKey("p/", i))
	}
	put(t, s, b, pairs...)
	put(t, s, "pages-neighbour", kv{pageKey("p/", 0), "v:x"})

	all := make([]string, 0, len(pairs))
	for i := range 40 {
		all = append(all, pageKey("o/", i))
	}
	all = append(all, keys...)
	for i := range 40 {
		all = append(all, pageKey("q/", i))
	}
	bs := func(s string) []byte { return []byte(s) }
	tests := []struct {
		name string
		r    storage.Range
		want []string
	}{
		{"all", storage.Range{}, all},
		{"prefix", storage.Range{Prefix: bs("p/")}, keys},
		{"start", storage.Range{Start: bs(pageKey("p/", 300))}, all[40+300:]},
		{"end", storage.Range{End: bs(pageKey("p/", 1900))}, all[:40+1900]},
		{"start and end", storage.Range{Start: bs(pageKey("p/", 7)), End: bs(pageKey("p/", 1993))}, keys[7:1993]},
		{"prefix and start", storage.Range{Prefix: bs("p/"), Start: bs(pageKey("p/", 65))}, keys[65:]},
		{"prefix and end", storage.Range{Prefix: bs("p/"), End: bs(pageKey("p/", 2035))}, keys[:2035]},
		{"prefix, start and end", storage.Range{Prefix: bs("p/"), Start: bs(pageKey("p/", 64)), End: bs(pageKey("p/", 2036))}, keys[64:2036]},
		{"prefix p/00", storage.Range{Prefix: bs("p/00")}, keys[:1000]},
		{"prefix p/0", storage.Range{Prefix: bs("p/0")}, keys},
		{"prefix p/01", storage.Range{Prefix: bs("p/01")}, keys[1000:2000]},
	}
	for _, in := range []string{"View", "Update"} {
		run := s.View
		if in == "Update" {
			run = s.Update
		}
		require.NoError(t, run(t.Context(), func(tx storage.Tx) error {
			for _, tc := range tests {
				t.Run(in+"/"+tc.name, func(t *testing.T) { requireScan(t, tx, b, tc.r, tc.want) })
			}
			return nil
		}))
	}

	// Early stops deep into the scan: the keys visited are exactly the first n of the
	// range, in its direction.
	stops := []struct {
		name string
		r    storage.Range
		n    int
		want []string
	}{
		{"forward past the first page", storage.Range{Prefix: bs("p/")}, 300, keys[:300]},
		{"forward past several pages", storage.Range{Prefix: bs("p/"), Start: bs(pageKey("p/", 5))}, 1500, keys[5:1505]},
		{"reverse past the first page", storage.Range{Prefix: bs("p/"), Reverse: true}, 300, reversed(keys[pageKeys-300:])},
		{"reverse past several pages", storage.Range{End: bs(pageKey("p/", 2000)), Reverse: true}, 1500, reversed(keys[500:2000])},
		{"at the last key", storage.Range{Start: bs(pageKey("p/", 1700)), End: bs("q/")}, 400, keys[1700:]},
	}
	for _, tc := range stops {
		t.Run("stop/"+tc.name, func(t *testing.T) {
			var visited []string
			require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
				return tx.Scan(b, tc.r, func(k, v []byte) error {
					visited = append(visited, string(k))
					if string(v) != "v:"+string(k) {
						return fmt.Errorf("value of %q is %q", k, v)
					}
					if len(visited) == tc.n {
						return storage.ErrStop
					}
					return nil
				})
			}))
			require.Equal(t, tc.want, visited)
		})
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
