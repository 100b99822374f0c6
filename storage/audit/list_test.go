package audit

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// seqs returns the seq numbers of entries.
func seqs(entries []Entry) []uint64 {
	out := make([]uint64, len(entries))
	for i, e := range entries {
		out[i] = e.Seq
	}
	return out
}

// listAll follows cursors to the end and returns every page's seqs.
func listAll(t *testing.T, env veriland.Environment, f Filter, list func(Filter) ([]Entry, string, error)) [][]uint64 {
	t.Helper()
	var pages [][]uint64
	for range 100 {
		entries, next, err := list(f)
		require.NoError(t, err)
		pages = append(pages, seqs(entries))
		if next == "" {
			return pages
		}
		f.Cursor = next
	}
	t.Fatal("cursor never ended")
	return nil
}

func TestList(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	// 9 entries, one a second; sample cycles actions and severities with period 3:
	// seq 1,4,7 consent.approve/INFO; 2,5,8 consent.revoke/NOTICE;
	// 3,6,9 attestation.issue/WARNING.
	appendN(t, store, &Log{Now: clk.Now}, clk, veriland.Sandbox, 9)
	appendN(t, store, &Log{Now: clk.Now}, clk, veriland.Production, 3)
	list := func(f Filter) ([]Entry, string, error) {
		return List(context.Background(), store, veriland.Sandbox, f)
	}

	tests := []struct {
		name  string
		f     Filter
		pages [][]uint64
	}{
		{"everything, oldest first", Filter{}, [][]uint64{{1, 2, 3, 4, 5, 6, 7, 8, 9}}},
		{"pages of 4", Filter{Limit: 4}, [][]uint64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9}}},
		{"a full last page has no cursor", Filter{Limit: 3, Action: "attestation.issue"},
			[][]uint64{{3, 6, 9}}},
		{"pages of 3 over 9", Filter{Limit: 3}, [][]uint64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}},
		{"severity", Filter{Severity: SeverityNotice}, [][]uint64{{2, 5, 8}}},
		{"action", Filter{Action: "consent.approve", Limit: 2}, [][]uint64{{1, 4}, {7}}},
		{"since", Filter{Since: t0.Add(6 * time.Second)}, [][]uint64{{7, 8, 9}}},
		{"since and severity", Filter{Since: t0.Add(4 * time.Second), Severity: SeverityWarning},
			[][]uint64{{6, 9}}},
		{"nothing matches", Filter{Action: "parcel.certify"}, [][]uint64{{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.pages, listAll(t, veriland.Sandbox, tt.f, list))
		})
	}

	t.Run("entries round-trip", func(t *testing.T) {
		entries, _, err := list(Filter{Limit: 1})
		require.NoError(t, err)
		require.Len(t, entries, 1)
		e := entries[0]
		require.Equal(t, t0, e.Time)
		require.Equal(t, veriland.Sandbox, e.Env)
		require.Equal(t, map[string]any{"n": float64(0)}, e.Detail)
		require.Equal(t, GenesisHash, e.PrevHash)
	})

	t.Run("entries appended later appear after the last cursor", func(t *testing.T) {
		entries, next, err := list(Filter{Limit: 9})
		require.NoError(t, err)
		require.Len(t, entries, 9)
		require.Empty(t, next)
		_, next, err = list(Filter{Limit: 8})
		require.NoError(t, err)
		require.NotEmpty(t, next)
		_, err = (&Log{}).Write(context.Background(), store, sample(veriland.Sandbox, 0))
		require.NoError(t, err)
		entries, next, err = list(Filter{Cursor: next})
		require.NoError(t, err)
		require.Equal(t, []uint64{9, 10}, seqs(entries))
		require.Empty(t, next)
	})
}

func TestListValidation(t *testing.T) {
	store := openStore(t)
	tests := []struct {
		name  string
		env   veriland.Environment
		f     Filter
		param string
	}{
		{"limit too large", veriland.Sandbox, Filter{Limit: 101}, "limit"},
		{"negative limit", veriland.Sandbox, Filter{Limit: -1}, "limit"},
		{"unknown severity", veriland.Sandbox, Filter{Severity: "LOUD"}, "severity"},
		{"cursor not base64", veriland.Sandbox, Filter{Cursor: "!!"}, "cursor"},
		{"cursor of the wrong size", veriland.Sandbox, Filter{Cursor: "AAAA"}, "cursor"},
		{"bad env", "STAGING", Filter{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := List(context.Background(), store, tt.env, tt.f)
			require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
			if tt.param != "" {
				require.Equal(t, tt.param, err.(*veriland.Error).Meta["parameter"])
			}
		})
	}
}

// A filter that matches nothing in a long chain returns empty pages with a cursor
// rather than reading the whole chain in one call.
func TestListBoundsScan(t *testing.T) {
	const scan = 10
	store := openStore(t)
	appendN(t, store, &Log{}, nil, veriland.Sandbox, 2*scan+5)
	ctx := context.Background()
	var pages [][]uint64
	f := Filter{Action: "consent.revoke"} // seq 2, 5, 8, …
	for {
		entries, next, err := list(ctx, store, veriland.Sandbox, f, scan)
		require.NoError(t, err)
		pages = append(pages, seqs(entries))
		if next == "" {
			break
		}
		f.Cursor = next
	}
	require.Equal(t, [][]uint64{{2, 5, 8}, {11, 14, 17, 20}, {23}}, pages)

	entries, next, err := list(ctx, store, veriland.Sandbox, Filter{Action: "nope.never"}, scan)
	require.NoError(t, err)
	require.Empty(t, entries)
	require.NotEmpty(t, next, "an empty page with more to read has a cursor")
}
