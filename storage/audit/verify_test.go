package audit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

func TestVerifyValidChain(t *testing.T) {
	for _, n := range []int{0, 1, 2, 50} {
		store := openStore(t)
		entries := appendN(t, store, &Log{}, nil, veriland.Sandbox, n)
		rep := requireValid(t, store, veriland.Sandbox, n)
		if n == 0 {
			require.Equal(t, GenesisHash, rep.HeadHash)
		} else {
			require.Equal(t, entries[n-1].Hash, rep.HeadHash)
		}
	}
}

func TestVerifyDetectsTampering(t *testing.T) {
	const n = 5
	entriesBkt := storage.Bucket(veriland.Sandbox, "audit")
	headBkt := storage.Bucket(veriland.Sandbox, "audit_head")
	// rewrite decodes entry seq, lets edit change it, and stores it back as given.
	rewrite := func(t *testing.T, s storage.Store, seq uint64, edit func(m map[string]any)) {
		var m map[string]any
		require.NoError(t, json.Unmarshal(rawGet(t, s, entriesBkt, seqKey(seq)), &m))
		edit(m)
		raw, err := canonical(m)
		require.NoError(t, err)
		rawPut(t, s, entriesBkt, seqKey(seq), raw)
	}
	// reseal rewrites entry seq with edit applied and a correctly recomputed hash.
	reseal := func(t *testing.T, s storage.Store, seq uint64, edit func(e *Entry)) {
		var e Entry
		require.NoError(t, json.Unmarshal(rawGet(t, s, entriesBkt, seqKey(seq)), &e))
		edit(&e)
		raw, err := seal(&e)
		require.NoError(t, err)
		rawPut(t, s, entriesBkt, seqKey(seq), raw)
	}

	tests := []struct {
		name    string
		tamper  func(t *testing.T, s storage.Store, entries []Entry)
		broken  uint64
		entries int
		reason  string
	}{
		{"detail edited", func(t *testing.T, s storage.Store, _ []Entry) {
			rewrite(t, s, 3, func(m map[string]any) { m["detail"] = map[string]any{"n": 99} })
		}, 3, n, "hash does not match"},
		{"member added", func(t *testing.T, s storage.Store, _ []Entry) {
			rewrite(t, s, 2, func(m map[string]any) { m["note"] = "x" })
		}, 2, n, "hash does not match"},
		{"hash replaced", func(t *testing.T, s storage.Store, _ []Entry) {
			rewrite(t, s, 3, func(m map[string]any) { m["hash"] = strings.Repeat("ab", 32) })
		}, 3, n, "hash does not match"},
		{"stored non-canonically", func(t *testing.T, s storage.Store, _ []Entry) {
			raw := rawGet(t, s, entriesBkt, seqKey(4))
			rawPut(t, s, entriesBkt, seqKey(4), append([]byte(" "), raw...))
		}, 4, n, "canonical"},
		{"garbage bytes", func(t *testing.T, s storage.Store, _ []Entry) {
			rawPut(t, s, entriesBkt, seqKey(1), []byte("not json"))
		}, 1, n, "undecodable"},
		{"middle entry deleted", func(t *testing.T, s storage.Store, _ []Entry) {
			rawDelete(t, s, entriesBkt, seqKey(3))
		}, 3, n - 1, "missing"},
		{"first entry deleted", func(t *testing.T, s storage.Store, _ []Entry) {
			rawDelete(t, s, entriesBkt, seqKey(1))
		}, 1, n - 1, "missing"},
		{"last entry deleted", func(t *testing.T, s storage.Store, _ []Entry) {
			rawDelete(t, s, entriesBkt, seqKey(n))
		}, n, n - 1, "missing"},
		{"two entries swapped", func(t *testing.T, s storage.Store, _ []Entry) {
			a, b := rawGet(t, s, entriesBkt, seqKey(2)), rawGet(t, s, entriesBkt, seqKey(3))
			rawPut(t, s, entriesBkt, seqKey(2), b)
			rawPut(t, s, entriesBkt, seqKey(3), a)
		}, 2, n, "names seq 3"},
		{"entry resealed with a recomputed hash", func(t *testing.T, s storage.Store, _ []Entry) {
			reseal(t, s, 3, func(e *Entry) { e.Outcome = OutcomeFailure })
		}, 4, n, "prevHash does not link"},
		{"last entry resealed", func(t *testing.T, s storage.Store, _ []Entry) {
			reseal(t, s, n, func(e *Entry) { e.Outcome = OutcomeFailure })
		}, n, n, "head record hash"},
		{"entry moved from the other environment", func(t *testing.T, s storage.Store, _ []Entry) {
			reseal(t, s, 1, func(e *Entry) { e.Env = veriland.Production })
		}, 1, n, "environment"},
		{"entry inserted past the head", func(t *testing.T, s storage.Store, entries []Entry) {
			e := sample(veriland.Sandbox, 9)
			e.Seq, e.ID, e.Time, e.PrevHash = n+1, entries[0].ID, entries[0].Time, entries[n-1].Hash
			raw, err := seal(&e)
			require.NoError(t, err)
			rawPut(t, s, entriesBkt, seqKey(n+1), raw)
		}, n + 1, n + 1, "past the head"},
		{"stray key", func(t *testing.T, s storage.Store, _ []Entry) {
			rawPut(t, s, entriesBkt, []byte("zzz"), []byte("{}"))
		}, n + 1, n + 1, "stray key"},
		{"head seq edited", func(t *testing.T, s storage.Store, entries []Entry) {
			rawPut(t, s, headBkt, headKey, []byte(`{"seq":9,"hash":"`+entries[n-1].Hash+`"}`))
		}, n + 1, n, "missing"},
		{"head hash edited", func(t *testing.T, s storage.Store, _ []Entry) {
			rawPut(t, s, headBkt, headKey, []byte(`{"seq":5,"hash":"`+GenesisHash+`"}`))
		}, n, n, "head record hash"},
		{"head deleted", func(t *testing.T, s storage.Store, _ []Entry) {
			rawDelete(t, s, headBkt, headKey)
		}, 1, n, "past the head"},
		{"head unreadable", func(t *testing.T, s storage.Store, _ []Entry) {
			rawPut(t, s, headBkt, headKey, []byte("??"))
		}, n, n, "head record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := openStore(t)
			entries := appendN(t, store, &Log{}, nil, veriland.Sandbox, n)
			appendN(t, store, &Log{}, nil, veriland.Production, 2)
			tt.tamper(t, store, entries)

			rep, err := Verify(context.Background(), store, veriland.Sandbox)
			require.NoError(t, err)
			require.False(t, rep.Valid)
			require.Equal(t, tt.broken, rep.FirstBrokenSeq, rep.Reason)
			require.Equal(t, tt.entries, rep.Entries)
			require.Contains(t, rep.Reason, tt.reason)

			requireValid(t, store, veriland.Production, 2) // the other chain is untouched
		})
	}
}

func TestVerifyRejectsBadEnvironment(t *testing.T) {
	_, err := Verify(context.Background(), openStore(t), "STAGING")
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed))
}
