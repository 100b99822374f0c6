package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/veriland/veriland/storage"
)

// gcraVersion is the first byte of a GCRA record: httpserver/ratelimit's record
// format, 0x01 then the theoretical arrival time as a big-endian int64 of unix
// nanoseconds, so that the transactional and the single-statement paths read each
// other's records.
const gcraVersion = 1

// maxGCRARuns bounds how many times GCRA runs its statement when it loses a race
// (see GCRA) or fails with a serialization failure.
const maxGCRARuns = 8

// GCRA runs one step of the generic cell rate algorithm on the record of key in
// bucket, as one statement outside any explicit transaction, so that concurrent
// callers on one key, in this process or in other replicas, queue on the row's lock
// instead of failing serialization and retrying whole transactions. now is the
// current time in unix nanoseconds, emission the interval T between requests and
// tolerance τ how far the theoretical arrival time (TAT) may run ahead of now; both
// in nanoseconds, with 0 < emission ≤ tolerance.
//
// A request is allowed when max(TAT, now) + T − τ ≤ now; then the record becomes
// max(TAT, now) + T and GCRA returns that TAT and true. Otherwise GCRA writes
// nothing and returns the stored TAT the request was denied against and false. A
// missing record is an idle key (TAT 0). Records are 9 bytes: 0x01, then the TAT as a
// big-endian int64; a malformed record is an error and is left alone.
//
// The statement reads the record in its snapshot first and attempts the upsert only
// when that snapshot admits the request: the TAT only grows, so a denial against the
// snapshot is final and costs no write, no lock and no transaction id. The upsert
// (INSERT ... ON CONFLICT DO UPDATE ... WHERE) decides again on the newest committed
// version of the row under its lock, which PostgreSQL does at READ COMMITTED (the
// default isolation of a statement outside a transaction) without aborting. When a
// concurrent caller got there first and the request no longer fits, the row was
// locked but not written, and GCRA runs the statement again, whose new snapshot then
// denies it (or admits it, when Prune removed the record meanwhile). A serialization
// failure (a server whose default isolation is stricter, or CockroachDB) also runs
// the statement again, after the same jittered backoff as Update. Runs are bounded;
// past the bound GCRA fails with storage.ErrUnavailable.
//
// The statement uses PostgreSQL functions (int8send, casts through bit(64)); where the
// server lacks them (CockroachDB) it fails with SQLSTATE 42883 (or 42704, 0A000) and GCRA returns an
// error wrapping errors.ErrUnsupported: callers then use a transaction (Update)
// instead. Errors otherwise: storage.ErrClosed after Close, the context's error,
// storage.ErrUnavailable (wrapped) when the server or the connection fails.
func (s *Store) GCRA(ctx context.Context, bucket string, key []byte, now, emission, tolerance int64) (tat int64, allowed bool, err error) {
	switch {
	case emission <= 0 || tolerance < emission:
		return 0, false, fmt.Errorf("postgres: gcra: need 0 < emission (%d) <= tolerance (%d)", emission, tolerance)
	case len(key) == 0:
		return 0, false, errors.New("postgres: empty key")
	case !utf8.ValidString(bucket):
		return 0, false, fmt.Errorf("postgres: bucket name %q is not valid UTF-8", bucket)
	}
	query := gcraQuery(s.q.table)
	for run := 1; ; run++ {
		if err := s.usable(ctx); err != nil {
			return 0, false, err
		}
		var old, stored []byte
		err := s.pool.QueryRow(ctx, query, bucket, key, now, emission, tolerance).Scan(&old, &stored)
		switch {
		case err != nil && Retryable(err):
			// Only when the server's default isolation is above READ COMMITTED.
		case err != nil:
			return 0, false, gcraError(ctx, err)
		case stored != nil:
			tat, err := decodeGCRA(stored)
			return tat, err == nil, err
		case old != nil:
			tat, err := decodeGCRA(old)
			if err != nil {
				return 0, false, err
			}
			if !gcraAdmits(tat, now, emission, tolerance) {
				return tat, false, nil
			}
			// The snapshot admitted the request, the newest version did not: a
			// concurrent caller took the room. Decide again on a new snapshot.
		}
		// Here: a lost race (the snapshot admitted the request, the upsert's newest
		// version did not) or a serialization failure.
		if run >= maxGCRARuns {
			return 0, false, fmt.Errorf("%w: postgres: gcra gave up after %d runs (contention)", storage.ErrUnavailable, run)
		}
		if err != nil {
			if err := sleep(ctx, backoff(run, s.opts.MaxBackoff)); err != nil {
				return 0, false, err
			}
		}
	}
}

// gcraAdmits is the admission test of GCRA, in Go, for records read back.
func gcraAdmits(tat, now, emission, tolerance int64) bool {
	return max(tat, now)+emission-tolerance <= now
}

func decodeGCRA(v []byte) (int64, error) {
	if len(v) != 9 || v[0] != gcraVersion {
		return 0, errors.New("postgres: gcra: malformed stored record")
	}
	return int64(binary.BigEndian.Uint64(v[1:])), nil
}

// gcraQuery returns GCRA's statement on table. Arguments: $1 bucket, $2 key, $3 now,
// $4 emission, $5 tolerance. It returns the record of the statement's snapshot
// (NULL when missing) and the record it wrote (NULL when it wrote none).
//
// tat(v) decodes a record, NULL when malformed (GREATEST ignores NULLs, so every
// test checks for it first); admits(v) is the admission test on a record. A missing
// record admits (emission ≤ tolerance) and is inserted as now + T; the INSERT's
// SELECT yields no row when the snapshot denies, so no row is inserted or locked.
func gcraQuery(table string) string {
	tat := func(v string) string {
		return "(CASE WHEN length(" + v + ") = 9 AND get_byte(" + v + ", 0) = 1 THEN ('x' || encode(substring(" + v + " FROM 2), 'hex'))::bit(64)::bigint END)"
	}
	admits := func(v string) string {
		return "(" + tat(v) + " IS NOT NULL AND GREATEST(" + tat(v) + ", $3::bigint) + $4::bigint - $5::bigint <= $3::bigint)"
	}
	return "WITH snap AS (SELECT (SELECT value FROM " + table + " WHERE bucket = $1::text AND key = $2::bytea) AS old), " +
		"up AS (INSERT INTO " + table + " AS cur (bucket, key, value) " +
		`SELECT $1::text, $2::bytea, '\x01'::bytea || int8send($3::bigint + $4::bigint) FROM snap ` +
		"WHERE snap.old IS NULL OR " + admits("snap.old") + " " +
		"ON CONFLICT (bucket, key) DO UPDATE " +
		`SET value = '\x01'::bytea || int8send(GREATEST(` + tat("cur.value") + ", $3::bigint) + $4::bigint) " +
		"WHERE " + admits("cur.value") + " " +
		"RETURNING cur.value) " +
		"SELECT snap.old, (SELECT value FROM up) FROM snap"
}

// gcraError maps a failure of GCRA's statement.
func gcraError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	switch {
	case hasCode(err, "42883", "42704", "0A000"):
		// undefined_function, undefined_object, feature_not_supported: a server
		// other than PostgreSQL (CockroachDB) without int8send or bit(64) casts.
		return fmt.Errorf("postgres: gcra statement: %w: %w", errors.ErrUnsupported, err)
	case unavailable(err):
		return fmt.Errorf("%w: postgres: %w", storage.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: gcra: %w", err)
}
