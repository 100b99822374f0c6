// Package postgres is a storage.Store on PostgreSQL (or CockroachDB), through pgx,
// for deployments that run several stateless server replicas against one database.
//
// # When to use it
//
// storage/bolt is the default: one file, one process, group commit, no server to
// run. Use this backend when one machine is no longer enough or one process is no
// longer acceptable: every replica opens a Store on the same database and table,
// and the database keeps their transactions serializable. A transaction waits for
// the network once per Get or Scan page, plus once at COMMIT for an Update (see
// Round trips), so a single writer is slower than bolt; many writers on different
// keys scale with the server.
//
//	s, err := postgres.Open(ctx, postgres.Options{
//		DSN:      "postgres://veriland@db:5432/veriland?sslmode=verify-full",
//		MaxConns: 32,
//	})
//
// # Transactions
//
// View runs its function once, in a READ ONLY transaction at REPEATABLE READ: every
// read sees one snapshot, the one taken at the transaction's first statement.
//
// Update runs its function in a SERIALIZABLE transaction. When the transaction fails
// with a serialization failure (SQLSTATE 40001) or a deadlock (40P01) — in any
// statement, even one whose error the function swallowed, or at COMMIT — Update
// rolls it back and runs the function again in a new transaction, as the
// storage.Store contract allows: functions must have no effect outside their
// transaction. Pauses between attempts are random (full jitter), growing from 1 ms
// by doubling up to Options.MaxBackoff (100 ms); after Options.MaxAttempts attempts
// (30) Update returns the last failure wrapped in storage.ErrUnavailable. Inside one
// Store, a retry waits until the Updates in flight have finished and runs while new
// ones wait, so that writers contending for one hot key take turns rather than
// starve each other (the conformance suite's 64 writers incrementing one counter
// pass even with MaxAttempts 4); between replicas, the backoff alone spreads the retries. Retryable
// classifies errors the same way.
//
// Errors: a cancelled or expired context makes Update and View return the context's
// error and commits nothing, even when the function ignored the error its Tx
// returned; once Update has sent COMMIT it waits for the answer (at most 30 s), so it
// never reports a cancellation for a transaction that committed. A COMMIT that fails
// for another reason (a broken connection: the outcome is unknown), a failure to
// connect or begin, and errors of the server or connection rather than of a
// statement (SQLSTATE classes 08, 53, 57, 58) wrap storage.ErrUnavailable. A
// statement error that the function swallowed aborts the transaction (PostgreSQL
// refuses every later statement) and Update returns it instead of committing. Put
// and Delete in a View return storage.ErrReadOnly; View and Update after Close return
// storage.ErrClosed. A panic in a function rolls its transaction back and reaches the
// caller.
//
// Writes wait in memory until the function returns: Put and Delete send nothing,
// and the transaction's puts and deletes go in one round trip (a pgx batch, in
// bucket and key order, so that two transactions writing the same rows lock them in
// the same order) just before COMMIT. Get and Scan see the transaction's own writes
// (Scan merges them with the table's rows in key order, in either direction). A
// transaction thus holds its snapshot across one network wait per read instead of
// one per statement, which is what makes a serialization conflict likely; a
// conflict or constraint error of a write surfaces at that batch, and is retried or
// returned like any other. A bucket name PostgreSQL cannot store (invalid UTF-8 or a
// NUL) is refused by Put at once, and the transaction does not commit.
//
// # Round trips
//
// A transaction adds no network wait of its own. Its connection is taken from the
// pool at its first statement, and BEGIN is pipelined with that statement (a pgx
// batch: one round trip); an Update's writes are pipelined with its COMMIT (and with
// BEGIN too when it read nothing); a View's ROLLBACK is sent after View has returned,
// and its connection rejoins the pool when PostgreSQL answers. So:
//
//	View of R reads              R waits
//	Update of R reads and writes R + 1 waits (1 when R = 0)
//	storage.ViewOne (Store.Get)  1 wait: one statement, no transaction
//	a function that runs nothing 0 waits, and no connection
//
// where BEGIN, every statement and COMMIT used to be one wait each (a consent
// approval: 12, then 4 with writes batched, now 2). PostgreSQL takes a
// transaction's snapshot at its first statement, not at BEGIN, so what a
// transaction sees is the same. Stats counts the reads and writes of Updates and
// the Views and their reads.
//
// Scan reads its range in pages of keyset queries (the first of 64 rows, then up to
// 1024), so no cursor stays open while the function runs: the function may call the
// same Tx, and storage.ErrStop ends the scan after the current page at most.
// Transactions do not nest: do not call Update from inside an Update function of the
// same Store.
//
// # Schema
//
// One table, created by Open when missing (Options.DDL returns the statements, and
// Options.NoCreate leaves them to a migration):
//
//	CREATE TABLE IF NOT EXISTS veriland_kv (
//		bucket TEXT NOT NULL,
//		key    BYTEA NOT NULL,
//		value  BYTEA NOT NULL,
//		PRIMARY KEY (bucket, key)
//	)
//
// A scan is one index range of the primary key: bucket = $1 AND key >= lower AND
// key < upper ORDER BY key (DESC for Reverse), with the bounds of storage.Range's
// Lower and Upper. BYTEA compares bytewise, a shorter key first when it is a prefix
// of a longer one — bbolt's order, whatever the database's collation. Bucket names
// are TEXT: they must be valid UTF-8 without NUL bytes, as storage.Bucket's names
// are; empty keys are rejected, as by bolt. Options.Schema and Options.Table select the table, so that several
// deployments (or test runs: the package's tests derive a table from each path the
// conformance suite gives them) share one database without sharing data.
//
// # Rate limits in one statement
//
// Store.GCRA runs one step of a GCRA rate limit (httpserver/ratelimit's records: 0x01
// and a big-endian int64 TAT) as a single statement outside any transaction: it reads
// the record in its snapshot, writes nothing when that snapshot denies the request,
// and otherwise upserts with INSERT ... ON CONFLICT DO UPDATE ... WHERE, which at READ
// COMMITTED waits for the row's lock and decides again on the newest version instead
// of failing serialization. On one hot key under 64 callers it runs about six times
// as many requests per second as a serializable Update that reads and writes the
// record, with no retries (httpserver/ratelimit's BenchmarkAllow). The statement uses
// PostgreSQL's int8send and bit(64) casts; a server without them (CockroachDB) makes
// GCRA return an error wrapping errors.ErrUnsupported, and httpserver/ratelimit then
// uses transactions.
//
// # CockroachDB
//
// The SQL (the schema, INSERT ... ON CONFLICT upserts, keyset scans) is meant to
// run unchanged on CockroachDB; the tests run against PostgreSQL (15) only. There every
// transaction is SERIALIZABLE and contention surfaces as 40001 "restart
// transaction" errors, which Update retries; REPEATABLE READ for View is honoured
// from v23.2 when enabled, and upgraded to SERIALIZABLE otherwise, so a View can
// then fail with a 40001 too: it returns it wrapped in storage.ErrUnavailable (a
// View runs once), and Retryable recognises it. CockroachDB reports no deadlocks
// (40P01); 40003 (result ambiguous) is never retried, since the transaction may have
// committed. Give MaxBackoff some headroom on multi-region clusters, where a
// transaction takes longer than 100 ms.
//
// # Connection poolers
//
// pgx caches prepared statements per connection. Behind PgBouncer in transaction
// mode, add default_query_exec_mode=exec (or simple_protocol) to the DSN.
package postgres
