package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

func TestScanQuery(t *testing.T) {
	const tbl = `"s"."t"`
	tests := []struct {
		name    string
		r       storage.Range
		after   []byte
		sql     string
		args    []any
		isEmpty bool
	}{
		{name: "all", r: storage.Range{},
			sql: `SELECT key, value FROM "s"."t" WHERE bucket = $1 ORDER BY key LIMIT $2`, args: []any{"b", 64}},
		{name: "all reverse", r: storage.Range{Reverse: true},
			sql: `SELECT key, value FROM "s"."t" WHERE bucket = $1 ORDER BY key DESC LIMIT $2`, args: []any{"b", 64}},
		{name: "prefix", r: storage.Range{Prefix: []byte("ab")},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 AND key < $3 ORDER BY key LIMIT $4`,
			args: []any{"b", []byte("ab"), []byte("ac"), 64}},
		{name: "empty prefix", r: storage.Range{Prefix: []byte{}},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 ORDER BY key LIMIT $3`,
			args: []any{"b", []byte{}, 64}},
		{name: "0xff prefix has no upper bound", r: storage.Range{Prefix: []byte("\xff\xff"), Reverse: true},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 ORDER BY key DESC LIMIT $3`,
			args: []any{"b", []byte("\xff\xff"), 64}},
		{name: "start", r: storage.Range{Start: []byte("m")},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 ORDER BY key LIMIT $3`,
			args: []any{"b", []byte("m"), 64}},
		{name: "end", r: storage.Range{End: []byte("m")},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key < $2 ORDER BY key LIMIT $3`,
			args: []any{"b", []byte("m"), 64}},
		{name: "prefix narrowed by start and end", r: storage.Range{Prefix: []byte("k/"), Start: []byte("k/b"), End: []byte("z")},
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 AND key < $3 ORDER BY key LIMIT $4`,
			args: []any{"b", []byte("k/b"), []byte("k0"), 64}},
		{name: "next page forward", r: storage.Range{Prefix: []byte("a")}, after: []byte("a7"),
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key > $2 AND key < $3 ORDER BY key LIMIT $4`,
			args: []any{"b", []byte("a7"), []byte("b"), 64}},
		{name: "next page reverse", r: storage.Range{Prefix: []byte("a"), Reverse: true}, after: []byte("a7"),
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key >= $2 AND key < $3 ORDER BY key DESC LIMIT $4`,
			args: []any{"b", []byte("a"), []byte("a7"), 64}},
		{name: "next page reverse unbounded", r: storage.Range{Reverse: true}, after: []byte("q"),
			sql:  `SELECT key, value FROM "s"."t" WHERE bucket = $1 AND key < $2 ORDER BY key DESC LIMIT $3`,
			args: []any{"b", []byte("q"), 64}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sql, args := scanQuery(tbl, "b", tc.r.Lower(), tc.r.Upper(), tc.after, tc.r.Reverse, 64)
			require.Equal(t, tc.sql, sql)
			require.Equal(t, tc.args, args)
		})
	}
}

// TestScanQueryModel runs the SQL scanQuery writes against a model: it evaluates
// the key conditions, the order and the limit of each page on a set of keys, with
// bytes.Compare standing in for BYTEA's comparison (memcmp, then length, as in
// PostgreSQL's byteacmp), pages through random ranges as Scan does, and checks that
// the pages together hold exactly the range's keys, in order.
func TestScanQueryModel(t *testing.T) {
	alphabet := []byte{0x00, 0x01, 'a', 0xfe, 0xff}
	var keys [][]byte
	var gen func(prefix []byte)
	gen = func(prefix []byte) {
		if len(prefix) > 0 {
			keys = append(keys, prefix)
		}
		if len(prefix) == 3 {
			return
		}
		for _, c := range alphabet {
			gen(append(bytes.Clone(prefix), c))
		}
	}
	gen(nil)
	slices.SortFunc(keys, bytes.Compare)
	cond := regexp.MustCompile(`key (>=|>|<) \$(\d+)`)
	limitRe := regexp.MustCompile(`LIMIT \$(\d+)$`)
	runPage := func(sql string, args []any) [][]byte {
		type condition struct {
			op    string
			bound []byte
		}
		var conds []condition
		for _, m := range cond.FindAllStringSubmatch(sql, -1) {
			n, _ := strconv.Atoi(m[2])
			conds = append(conds, condition{m[1], args[n-1].([]byte)})
		}
		var out [][]byte
		for _, k := range keys {
			ok := true
			for _, cd := range conds {
				c := bytes.Compare(k, cd.bound)
				switch cd.op {
				case ">=":
					ok = ok && c >= 0
				case ">":
					ok = ok && c > 0
				case "<":
					ok = ok && c < 0
				}
			}
			if ok {
				out = append(out, k)
			}
		}
		if strings.Contains(sql, "DESC") {
			slices.Reverse(out)
		}
		n, _ := strconv.Atoi(limitRe.FindStringSubmatch(sql)[1])
		return out[:min(len(out), args[n-1].(int))]
	}
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func() []byte {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return []byte{}
		}
		return keys[rng.IntN(len(keys))]
	}
	for range 500 {
		r := storage.Range{Prefix: pick(), Start: pick(), End: pick(), Reverse: rng.IntN(2) == 0}
		var want [][]byte
		for _, k := range keys {
			if r.Contains(k) {
				want = append(want, k)
			}
		}
		if r.Reverse {
			slices.Reverse(want)
		}
		var got [][]byte
		var after []byte
		limit := 1 + rng.IntN(20)
		for {
			sql, args := scanQuery(`"t"`, "b", r.Lower(), r.Upper(), after, r.Reverse, limit)
			page := runPage(sql, args)
			got = append(got, page...)
			if len(page) < limit {
				break
			}
			after = page[len(page)-1]
		}
		require.Equal(t, want, got, "%q", r)
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err               error
		retry, unavailble bool
	}{
		{nil, false, false},
		{errors.New("other"), false, true},
		{context.Canceled, false, false},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), false, false},
		{&pgconn.PgError{Code: "40001"}, true, false},
		{&pgconn.PgError{Code: "40P01"}, true, false},
		{fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "40001"}), true, false},
		{fmt.Errorf("%w: %w", storage.ErrUnavailable, &pgconn.PgError{Code: "40P01"}), true, false},
		{&pgconn.PgError{Code: "40003"}, false, true}, // completion unknown: never retried
		{&pgconn.PgError{Code: "23505"}, false, false},
		{&pgconn.PgError{Code: "25P02"}, false, false},
		{&pgconn.PgError{Code: "22021"}, false, false},
		{&pgconn.PgError{Code: "08006"}, false, true},
		{&pgconn.PgError{Code: "57P01"}, false, true},
		{&pgconn.PgError{Code: "53300"}, false, true},
	}
	for _, tc := range tests {
		require.Equal(t, tc.retry, Retryable(tc.err), "Retryable(%v)", tc.err)
		require.Equal(t, tc.unavailble, unavailable(tc.err), "unavailable(%v)", tc.err)
	}
}

func TestBackoff(t *testing.T) {
	const ceiling = 100 * time.Millisecond
	for attempt := 1; attempt < 100; attempt++ {
		bound := ceiling
		if attempt <= 8 {
			bound = time.Millisecond << (attempt - 1)
		}
		for range 50 {
			d := backoff(attempt, ceiling)
			require.GreaterOrEqual(t, d, time.Duration(0))
			require.Less(t, d, bound, "attempt %d", attempt)
		}
	}
	require.Zero(t, backoff(1, 0))
}

func TestDDL(t *testing.T) {
	require.Equal(t, `CREATE TABLE IF NOT EXISTS "veriland_kv" (bucket TEXT NOT NULL, key BYTEA NOT NULL, value BYTEA NOT NULL, PRIMARY KEY (bucket, key));`,
		Options{}.DDL())
	require.Equal(t, `CREATE SCHEMA IF NOT EXISTS "my""app";`+"\n"+
		`CREATE TABLE IF NOT EXISTS "my""app"."kv" (bucket TEXT NOT NULL, key BYTEA NOT NULL, value BYTEA NOT NULL, PRIMARY KEY (bucket, key));`,
		Options{Schema: `my"app`, Table: "kv"}.DDL())
}

// TestGate checks that a retry waits for the attempts in flight, holds new ones
// back, runs alone, and gives up waiting after its patience.
func TestGate(t *testing.T) {
	var g gate
	ctx := context.Background()
	leave1, err := g.enter(ctx, false, 0)
	require.NoError(t, err)
	leave2, err := g.enter(ctx, false, 0)
	require.NoError(t, err)

	exclIn := make(chan func())
	go func() {
		leave, err := g.enter(ctx, true, time.Hour)
		if err != nil {
			panic(err)
		}
		exclIn <- leave
	}()
	// A new shared attempt waits behind the exclusive waiter.
	sharedIn := make(chan func())
	go func() {
		for { // until the exclusive waiter is queued
			g.mu.Lock()
			w := g.waiting
			g.mu.Unlock()
			if w > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		leave, err := g.enter(ctx, false, 0)
		if err != nil {
			panic(err)
		}
		sharedIn <- leave
	}()
	time.Sleep(20 * time.Millisecond)
	select {
	case <-exclIn:
		t.Fatal("exclusive entered while shared attempts ran")
	case <-sharedIn:
		t.Fatal("shared entered while an exclusive one waited")
	default:
	}
	leave1()
	leave2()
	leaveExcl := <-exclIn
	select {
	case <-sharedIn:
		t.Fatal("shared entered while an exclusive one ran")
	case <-time.After(20 * time.Millisecond):
	}
	leaveExcl()
	(<-sharedIn)()

	// Cancellation while waiting.
	leave, err := g.enter(ctx, false, 0)
	require.NoError(t, err)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	_, err = g.enter(cctx, true, time.Hour)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	// Impatience: the exclusive waiter runs shared after its patience.
	l2, err := g.enter(ctx, true, 10*time.Millisecond)
	require.NoError(t, err)
	g.mu.Lock()
	require.Equal(t, 2, g.shared)
	require.False(t, g.excl)
	require.Zero(t, g.waiting)
	g.mu.Unlock()
	l2()
	leave()
	g.mu.Lock()
	require.Zero(t, g.shared)
	g.mu.Unlock()
}
