package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/postgres"
)

// database is the store the server runs on, with what /metrics and the start-up
// summary say about it.
type database struct {
	storage.Store
	kind  string          // "bbolt" or "postgres"
	where string          // the bbolt file, or the PostgreSQL host and database (no credentials)
	pg    *postgres.Store // nil on bbolt
}

// openDatabase opens -database: empty means bbolt in -data (the default, one
// process); a postgres:// or postgresql:// URL (or VERILAND_DATABASE_URL) means
// storage/postgres, which any number of replicas may share. The pool's size and
// timeouts come from the URL's pool_* parameters (pool_max_conns, ...), as pgx reads
// them; the table is created on first start when missing.
func openDatabase(ctx context.Context, o *options) (*database, error) {
	if o.database == "" {
		path := filepath.Join(o.data, "veriland.db")
		s, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			return nil, err
		}
		return &database{Store: s, kind: "bbolt", where: path}, nil
	}
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	s, err := postgres.Open(openCtx, postgres.Options{DSN: o.database})
	if err != nil {
		return nil, fmt.Errorf("-database: %w", redactDSN(err, o.database))
	}
	return &database{Store: s, kind: "postgres", where: describeDSN(o.database), pg: s}, nil
}

// checkDatabase validates -database without connecting: empty, or a PostgreSQL URL.
func checkDatabase(dsn string) error {
	if dsn == "" {
		return nil
	}
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fmt.Errorf("-database (VERILAND_DATABASE_URL) must be a postgres:// URL, or empty for bbolt in -data")
	}
	return nil
}

// describeDSN names the database of a URL without its user or password, for logs.
func describeDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres"
	}
	return "postgres://" + u.Host + u.Path
}

// redactDSN keeps a password that pgx may quote in its error out of the message.
func redactDSN(err error, dsn string) error {
	u, perr := url.Parse(dsn)
	if perr != nil || u.User == nil {
		return err
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), pw, "xxxxx"))
}

// collectors are the store's counters for GET /metrics: on PostgreSQL, read-write
// transactions committed, attempts begun and attempts retried after a serialization
// failure or deadlock (retries per commit is the contention figure of
// docs/operations.md). bbolt serialises writers and never retries: none.
func (d *database) collectors() []prometheus.Collector {
	if d.pg == nil {
		return nil
	}
	counter := func(name, help string, v func(postgres.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(v(d.pg.Stats())) })
	}
	return []prometheus.Collector{
		counter("veriland_storage_commits_total", "Read-write transactions committed (PostgreSQL).",
			func(s postgres.Stats) uint64 { return s.Commits }),
		counter("veriland_storage_attempts_total", "Read-write transaction attempts begun, retries included (PostgreSQL).",
			func(s postgres.Stats) uint64 { return s.Attempts }),
		counter("veriland_storage_retries_total", "Read-write transaction attempts that failed with a serialization failure or deadlock and ran again (PostgreSQL).",
			func(s postgres.Stats) uint64 { return s.Retries }),
	}
}
