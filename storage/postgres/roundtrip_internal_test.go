package postgres

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/storage"
)

// waitCounter counts network waits: the times a connection reads after it wrote,
// which is when the client waits for the server's answer.
type waitCounter struct{ n atomic.Int64 }

type countingConn struct {
	net.Conn
	c     *waitCounter
	mu    sync.Mutex
	wrote bool
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.wrote = true
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countingConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if c.wrote {
		c.wrote = false
		c.c.n.Add(1)
	}
	c.mu.Unlock()
	return c.Conn.Read(p)
}

// TestNetworkWaits pins how many times a transaction waits for PostgreSQL: BEGIN
// travels with the first statement, the writes with COMMIT, a View's ROLLBACK is sent
// (and counted here) after View returned, and ViewOne is one statement.
func TestNetworkWaits(t *testing.T) {
	url := os.Getenv("VERILAND_TEST_POSTGRES_URL")
	if url == "" {
		testenv.Require(t, "a PostgreSQL server", "set VERILAND_TEST_POSTGRES_URL; storage/postgres/testdb.sh starts one and prints its URL")
	}
	ctx := context.Background()
	counter := &waitCounter{}
	dialer := &net.Dialer{}
	table := fmt.Sprintf("waits_%d", time.Now().UnixNano())
	s, err := Open(ctx, Options{DSN: url, Table: table, MaxConns: 1, dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, c: counter}, nil
	}})
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = s.pool.Exec(context.Background(), "DROP TABLE "+pgx.Identifier{table}.Sanitize())
		_ = s.Close()
	})
	put := func(tx storage.Tx) error {
		if err := tx.Put("b", []byte("k1"), []byte("v1")); err != nil {
			return err
		}
		return tx.Put("b", []byte("k2"), []byte("v2"))
	}
	getOne := func(tx storage.Tx) error { _, err := tx.Get("b", []byte("k1")); return err }
	readWrite := func(tx storage.Tx) error {
		if _, err := tx.Get("b", []byte("k1")); err != nil {
			return err
		}
		return put(tx)
	}
	twoReads := func(tx storage.Tx) error {
		if err := getOne(tx); err != nil {
			return err
		}
		return tx.Scan("b", storage.Range{}, func(k, v []byte) error { return nil })
	}
	// idle waits for a View's background ROLLBACK to give the connection back.
	idle := func() {
		require.Eventually(t, func() bool { return s.pool.Stat().AcquiredConns() == 0 }, 5*time.Second, time.Millisecond)
	}
	type kind int
	const (
		view kind = iota
		update
		viewOne
	)
	run := func(k kind, fn func(storage.Tx) error) error {
		switch k {
		case update:
			return s.Update(ctx, fn)
		case viewOne:
			return storage.ViewOne(ctx, s, fn)
		}
		return s.View(ctx, fn)
	}
	tests := []struct {
		name  string
		kind  kind
		fn    func(storage.Tx) error
		waits int64
	}{
		{"update writing only", update, put, 1},
		{"update reading one key and writing", update, readWrite, 2},
		{"update reading twice", update, twoReads, 3},
		{"update doing nothing", update, func(storage.Tx) error { return nil }, 0},
		// A View's ROLLBACK is one more wait, in the background after View returned.
		{"view of one read", view, getOne, 1 + 1},
		{"view of two reads", view, twoReads, 2 + 1},
		{"view doing nothing", view, func(storage.Tx) error { return nil }, 0},
		{"ViewOne", viewOne, getOne, 1},
	}
	// A first pass prepares every statement on the one connection (pgx describes a
	// statement once per connection and caches it).
	for _, tt := range tests {
		require.NoError(t, run(tt.kind, tt.fn))
		idle()
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := counter.n.Load()
			require.NoError(t, run(tt.kind, tt.fn))
			idle()
			require.Equal(t, tt.waits, counter.n.Load()-before)
		})
	}
}
