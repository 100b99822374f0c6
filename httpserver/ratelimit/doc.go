// Package ratelimit enforces SPEC S2.5 rate limits with GCRA (the generic cell rate
// algorithm), keeping each key's state in storage so that the limit holds across
// server replicas sharing one database.
//
// # Algorithm
//
// A Policy of Limit requests per Window with Burst has an emission interval
// T = Window/Limit and a tolerance of Burst·T. Each key stores one number, its
// theoretical arrival time (TAT). A request at time now is allowed when
// max(TAT, now) + T − Burst·T ≤ now, and then sets TAT = max(TAT, now) + T. An idle
// key therefore admits exactly Burst requests at once and then one every T.
//
// When the Store implements AtomicStore (storage/postgres does), Allow hands it the
// whole step: on PostgreSQL one statement that reads the record in its snapshot,
// stops there when the snapshot denies, and otherwise upserts under the row's lock,
// deciding again on the newest version (READ COMMITTED: concurrent callers queue on
// the row instead of aborting serializable transactions and retrying them). The
// Decision is computed in Go from the TAT the store returns, so both paths answer
// alike and read each other's records.
//
// Otherwise Allow reads the TAT in a read-only transaction first: since the TAT only
// grows, a request denied against that snapshot is denied for good, and denials cost
// no write (an attacker hammering a closed limit cannot turn rejections into durable
// writes; the atomic statement keeps this, see storage/postgres.Store.GCRA). An
// admitted request is decided again and recorded in one read-write transaction, so
// concurrent callers, in one process or many, never admit more than the policy
// allows. A store whose GCRA reports errors.ErrUnsupported (CockroachDB, which lacks
// the PostgreSQL functions the statement uses) is used this way from then on.
//
// # Measured
//
// BenchmarkAllow, 64 concurrent callers, 2 shared cores, PostgreSQL 15 with fsync off
// on the same machine, pools of 16 connections, bbolt with fsync and group commit
// (calls per second; retries are serializable transactions run again, per call):
//
//	workload      bbolt           PG transactions        PG one statement
//	hot key       87 000          1 100 (0.77 retries)   7 200 (no transaction)
//	distinct keys 85 000          2 400 (0.01 retries)   8 900
//	hot, limited  820 000         8 500 (0.01 retries)   13 900
//
// "hot, limited" is every caller on one key under IPPolicy (a load test from one
// IP): nearly all calls are denials, decided without a write on every path (the
// statement only locks the row, without writing it, when a denial lost the race for
// a slot that had just refilled). Runs
// vary by about 30 % with other load on the cores.
//
// # Storage
//
// Records live in storage.Bucket(env, "ratelimit"), keyed by SHA-256 of the policy name
// and the caller key (length-prefixed), so raw IPs and wallet addresses are never stored
// verbatim. This is pseudonymisation, not anonymisation: the IPv4 space is small enough
// to enumerate. A record whose TAT has passed is equivalent to no record; Prune deletes
// them and may be called at any time with the current time.
//
// # Decisions where SPEC is silent
//
//   - Burst is the number of requests an idle key may make back to back.
//   - RateLimit "t" is the number of seconds until the quota is fully restored (the
//     bucket is full again); Retry-After, sent only on denial, is the number of seconds
//     until the next request would pass, rounded up and at least 1. "r" is the number of
//     requests that would pass right now.
//   - Store failures fail open: Middleware admits the request without rate limit headers
//     and logs the failure with log/slog at error level. Allow itself returns the
//     failure as an unavailable *veriland.Error.
//   - Policies are counted separately per name, so one key can be under several
//     policies at once; environments never share a record.
//   - Replicas must have roughly synchronised clocks: a replica whose clock runs ahead
//     pushes TATs forward for the others by the difference.
//
// The package never formats error responses: Middleware hands denials to the caller's
// writer, which owns the mapping of rate_limited to 429.
package ratelimit
