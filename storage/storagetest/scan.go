package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// scanKeys are the keys of testScan, in byte order: prefixes of each other, 0x00 and
// 0xff bytes at the ends, and keys made only of 0xff (whose prefix has no PrefixEnd).
var scanKeys = []string{
	"a", "a\x00", "ab", "abc", "a\xff", "a\xff\xff",
	"b", "b\x00", "ba", "c",
	"\xff", "\xff\x00", "\xff\xff", "\xff\xff\x01",
}

func testScan(t *testing.T, h *harness) {
	s := h.store(t)
	require.True(t, sortedKeys(scanKeys))
	const b = "scan"
	pairs := make([]kv, 0, len(scanKeys))
	for _, k := range slices.Backward(scanKeys) { // insertion order must not matter
		pairs = append(pairs, kv{k, "v:" + k})
	}
	put(t, s, b, pairs...)
	put(t, s, "scan-neighbour", kv{"a", "v:a"}, kv{"b", "v:b"})

	bs := func(s string) []byte { return []byte(s) }
	as := scanKeys[0:6]
	ffs := scanKeys[10:14]
	tests := []struct {
		name string
		r    storage.Range
		want []string
	}{
		{"all", storage.Range{}, scanKeys},
		{"empty prefix", storage.Range{Prefix: []byte{}}, scanKeys},
		{"empty start", storage.Range{Start: []byte{}}, scanKeys},
		{"prefix a", storage.Range{Prefix: bs("a")}, as},
		{"prefix ab", storage.Range{Prefix: bs("ab")}, []string{"ab", "abc"}},
		{"prefix abc", storage.Range{Prefix: bs("abc")}, []string{"abc"}},
		{"prefix abcd", storage.Range{Prefix: bs("abcd")}, nil},
		{"prefix a 0xff", storage.Range{Prefix: bs("a\xff")}, []string{"a\xff", "a\xff\xff"}},
		{"prefix a 0x00", storage.Range{Prefix: bs("a\x00")}, []string{"a\x00"}},
		{"prefix b", storage.Range{Prefix: bs("b")}, []string{"b", "b\x00", "ba"}},
		{"prefix 0xff", storage.Range{Prefix: bs("\xff")}, ffs},
		{"prefix 0xff 0xff", storage.Range{Prefix: bs("\xff\xff")}, []string{"\xff\xff", "\xff\xff\x01"}},
		{"prefix 0xff 0xff 0xff", storage.Range{Prefix: bs("\xff\xff\xff")}, nil},
		{"prefix 0x00", storage.Range{Prefix: bs("\x00")}, nil},
		{"prefix z", storage.Range{Prefix: bs("z")}, nil},
		{"start b", storage.Range{Start: bs("b")}, scanKeys[6:]},
		{"start between keys", storage.Range{Start: bs("aa")}, scanKeys[2:]},
		{"start 0xff 0xff", storage.Range{Start: bs("\xff\xff")}, []string{"\xff\xff", "\xff\xff\x01"}},
		{"start past the end", storage.Range{Start: bs("\xff\xff\x02")}, nil},
		{"end b", storage.Range{End: bs("b")}, as},
		{"end between keys", storage.Range{End: bs("aa")}, []string{"a", "a\x00"}},
		{"end before the first", storage.Range{End: bs("a")}, nil},
		{"end 0xff", storage.Range{End: bs("\xff")}, scanKeys[:10]},
		{"start and end", storage.Range{Start: bs("ab"), End: bs("b\x00")}, []string{"ab", "abc", "a\xff", "a\xff\xff", "b"}},
		{"start equals end", storage.Range{Start: bs("b"), End: bs("b")}, nil},
		{"start after end", storage.Range{Start: bs("c"), End: bs("b")}, nil},
		{"prefix and start inside", storage.Range{Prefix: bs("a"), Start: bs("ab")}, []string{"ab", "abc", "a\xff", "a\xff\xff"}},
		{"prefix and start before", storage.Range{Prefix: bs("a"), Start: bs("0")}, as},
		{"prefix and start after", storage.Range{Prefix: bs("a"), Start: bs("b")}, nil},
		{"prefix and end inside", storage.Range{Prefix: bs("a"), End: bs("ab")}, []string{"a", "a\x00"}},
		{"prefix and end before", storage.Range{Prefix: bs("a"), End: bs("0")}, nil},
		{"prefix and end after", storage.Range{Prefix: bs("a"), End: bs("c")}, as},
		{"prefix and end at prefix end", storage.Range{Prefix: bs("a"), End: bs("b")}, as},
		{"prefix, start and end", storage.Range{Prefix: bs("a"), Start: bs("a\x00"), End: bs("a\xff")}, []string{"a\x00", "ab", "abc"}},
		{"prefix, start and end outside", storage.Range{Prefix: bs("b"), Start: bs("a"), End: bs("c")}, []string{"b", "b\x00", "ba"}},
		{"prefix 0xff and start", storage.Range{Prefix: bs("\xff"), Start: bs("\xff\x01")}, []string{"\xff\xff", "\xff\xff\x01"}},
		{"prefix 0xff and end", storage.Range{Prefix: bs("\xff"), End: bs("\xff\xff")}, []string{"\xff", "\xff\x00"}},
		{"prefix 0xff 0xff and end", storage.Range{Prefix: bs("\xff\xff"), End: bs("\xff\xff\x01")}, []string{"\xff\xff"}},
		{"prefix a 0xff and end", storage.Range{Prefix: bs("a\xff"), End: bs("a\xff\xff")}, []string{"a\xff"}},
	}
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) { requireScan(t, tx, b, tc.r, tc.want) })
		}
		return nil
	}))
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for _, tc := range tests {
			t.Run("in Update/"+tc.name, func(t *testing.T) { requireScan(t, tx, b, tc.r, tc.want) })
		}
		return nil
	}))
}

// testScanModel compares scans of random ranges with a model, over keys made of the
// bytes where ordering bugs hide.
func testScanModel(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "model"
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{0x00, 0x01, 'a', 0xfe, 0xff}
	randBytes := func(minLen int) []byte {
		out := make([]byte, minLen+rng.IntN(4-minLen))
		for i := range out {
			out[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return out
	}
	set := map[string]bool{}
	for range 80 {
		set[string(randBytes(1))] = true
	}
	keys := make([]string, 0, len(set))
	pairs := make([]kv, 0, len(set))
	for k := range set {
		keys = append(keys, k)
		pairs = append(pairs, kv{k, "v:" + k})
	}
	slices.Sort(keys)
	put(t, s, b, pairs...)

	maybe := func() []byte {
		if rng.IntN(3) == 0 {
			return nil
		}
		return randBytes(0)
	}
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		for range 400 {
			r := storage.Range{Prefix: maybe(), Start: maybe(), End: maybe()}
			var want []string
			for _, k := range keys {
				kb := []byte(k)
				if bytes.HasPrefix(kb, r.Prefix) &&
					(r.Start == nil || bytes.Compare(kb, r.Start) >= 0) &&
					(r.End == nil || bytes.Compare(kb, r.End) < 0) {
					want = append(want, k)
				}
			}
			requireScan(t, tx, b, r, want)
		}
		return nil
	}))
}

func testScanStopAndError(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "stop"
	pairs := make([]kv, 10)
	for i := range pairs {
		pairs[i] = kv{fmt.Sprintf("k%d", i), "v"}
	}
	put(t, s, b, pairs...)
	errMine := errors.New("mine")
	tests := []struct {
		name    string
		r       storage.Range
		stopAt  int   // the callback returns ret at this key (1-based)
		ret     error // what it returns there
		want    error // what Scan returns
		visited []string
	}{
		{"stop first", storage.Range{}, 1, storage.ErrStop, nil, []string{"k0"}},
		{"stop third", storage.Range{}, 3, storage.ErrStop, nil, []string{"k0", "k1", "k2"}},
		{"stop third reverse", storage.Range{Reverse: true}, 3, storage.ErrStop, nil, []string{"k9", "k8", "k7"}},
		{"stop last", storage.Range{Start: []byte("k8")}, 2, storage.ErrStop, nil, []string{"k8", "k9"}},
		{"error first", storage.Range{}, 1, errMine, errMine, []string{"k0"}},
		{"error third reverse", storage.Range{Reverse: true, Prefix: []byte("k")}, 3, errMine, errMine, []string{"k9", "k8", "k7"}},
		{"error wrapped", storage.Range{Start: []byte("k5")}, 2, fmt.Errorf("ctx: %w", errMine), errMine, []string{"k5", "k6"}},
		{"storage error", storage.Range{}, 2, storage.ErrNotFound, storage.ErrNotFound, []string{"k0", "k1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var visited []string
			err := s.View(t.Context(), func(tx storage.Tx) error {
				return tx.Scan(b, tc.r, func(k, v []byte) error {
					visited = append(visited, string(k))
					if len(visited) == tc.stopAt {
						return tc.ret
					}
					return nil
				})
			})
			if tc.want == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tc.want)
			}
			require.Equal(t, tc.visited, visited)
		})
	}
}

// testScanOwnWrites checks that a Scan in Update sees the transaction's own puts and
// deletes, and that they vanish when it rolls back.
func testScanOwnWrites(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "own"
	put(t, s, b, kv{"a", "v:a"}, kv{"c", "v:c"}, kv{"e", "v:e"})
	errRollback := errors.New("roll back")
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		require.NoError(t, tx.Put(b, []byte("b"), []byte("v:b")))
		require.NoError(t, tx.Put(b, []byte("d"), []byte("v:d")))
		require.NoError(t, tx.Delete(b, []byte("c")))
		requireScan(t, tx, b, storage.Range{}, []string{"a", "b", "d", "e"})
		requireScan(t, tx, b, storage.Range{Start: []byte("b"), End: []byte("e")}, []string{"b", "d"})
		return errRollback
	})
	require.ErrorIs(t, err, errRollback)
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		requireScan(t, tx, b, storage.Range{}, []string{"a", "c", "e"})
		return nil
	}))
}

// testScanOwnWritesModel checks Get and Scan in an Update against a model after
// random puts, overwrites and deletes of the transaction's own, mixed with the
// stored keys (a backend that keeps writes in memory until commit must merge them
// in key order, in both directions, across its pages), then that the commit
// stores exactly the model.
func testScanOwnWritesModel(t *testing.T, h *harness) {
	s := h.store(t)
	const b = "ownmodel"
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{0x00, 'a', 'b', 0xff}
	randKey := func() string {
		out := make([]byte, 1+rng.IntN(3))
		for i := range out {
			out[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(out)
	}
	model := map[string]string{}
	var stored []kv
	for range 150 { // more than a first page of keyset scans
		k := randKey()
		if _, ok := model[k]; !ok {
			model[k] = "v:" + k
			stored = append(stored, kv{k, model[k]})
		}
	}
	put(t, s, b, stored...)
	check := func(tx storage.Tx) {
		keys := slices.Sorted(maps.Keys(model))
		for range 60 {
			r := storage.Range{Reverse: rng.IntN(2) == 0}
			if rng.IntN(2) == 0 {
				r.Start = []byte(randKey())
			}
			if rng.IntN(2) == 0 {
				r.End = []byte(randKey())
			}
			if rng.IntN(3) == 0 {
				r.Prefix = []byte{alphabet[rng.IntN(len(alphabet))]}
			}
			var want []kv
			for _, k := range keys {
				kb := []byte(k)
				if bytes.HasPrefix(kb, r.Prefix) && (r.Start == nil || bytes.Compare(kb, r.Start) >= 0) &&
					(r.End == nil || bytes.Compare(kb, r.End) < 0) {
					want = append(want, kv{k, model[k]})
				}
			}
			if r.Reverse {
				slices.Reverse(want)
			}
			got, err := scan(tx, b, r)
			require.NoError(t, err)
			require.Equal(t, want, got, "range %s", fmtRange(r))
		}
		for range 40 {
			k := randKey()
			v, err := tx.Get(b, []byte(k))
			if w, ok := model[k]; ok {
				require.NoError(t, err, "%q", k)
				require.Equal(t, w, string(v), "%q", k)
			} else {
				require.ErrorIs(t, err, storage.ErrNotFound, "%q", k)
			}
		}
	}
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		for round := range 6 {
			for range 30 {
				k := randKey()
				switch rng.IntN(3) {
				case 0:
					require.NoError(t, tx.Delete(b, []byte(k)))
					delete(model, k)
				default:
					v := fmt.Sprintf("w%d:%s", round, k)
					require.NoError(t, tx.Put(b, []byte(k), []byte(v)))
					model[k] = v
				}
			}
			check(tx)
		}
		return nil
	}))
	got := map[string]string{}
	for _, p := range contents(t, s, b) {
		got[p.key] = p.value
	}
	require.Equal(t, model, got)
}
