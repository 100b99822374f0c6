// Package idempotency implements SPEC S2.4: a POST that carries an Idempotency-Key runs
// at most once per scope, and a retry gets the first response back byte for byte.
//
// A Store keeps one record per Scope (environment, token sub or client IP, method,
// path, key) in storage.Bucket(env, "idempotency"), keyed by SHA-256 of the
// length-prefixed scope parts, so that no raw key, subject or IP is stored. A record is
// first a reservation, holding the SHA-256 fingerprint of the request body and a lease;
// then, once the handler has answered, the response (status, the headers that matter,
// body). Begin, Complete and Release are each one storage transaction, so the
// guarantees hold under concurrency and across replicas that share the storage: of
// many simultaneous identical requests exactly one reserves the key and runs, and the
// others get idempotency_key_in_flight or, once it has finished, the replay.
//
// Stored responses may hold personal data (a parcel's owner name, SPEC S2.4). With
// Store.Fields set, a record keeps its response — status, headers and body — only
// sealed with storage/fieldcrypt (AES-256-GCM), bound to the record's bucket and key,
// so that the database file holds none of it in clear. The fingerprint, lease and
// expiry stay in clear: they are needed without the key and reveal nothing readable.
// A sealed response that cannot be opened (no keyring, its key erased, the record
// tampered with or moved to another scope) is an internal error, never a second run.
// Records stored in clear before a keyring was set still replay.
//
// Middleware wraps a handler with all of this; the Store methods are there for callers
// that do their own plumbing.
//
// # Decisions where SPEC is silent
//
//   - The key is 1..255 printable ASCII characters after unquoting: `"abc"` and abc are
//     the same key. Surrounding spaces and tabs are ignored; several Idempotency-Key
//     headers are invalid_idempotency_key.
//   - The fingerprint covers the body only, not the content type or query string; the
//     path is part of the scope, the query string is not.
//   - A key reused with a different body is idempotency_key_reused even while the first
//     request is still running.
//   - Besides 5xx, 429 responses are not stored: like a 5xx, a 429 says "try again",
//     not "this is the outcome". Every other status, 4xx included, is stored and
//     replayed.
//   - Only Content-Type, Location and the headers listed in Store.Headers are stored.
//     Set-Cookie, rate limit headers, Retry-After, X-Request-Id, Date and framing
//     headers never are: the replay carries the current request's own.
//   - Records expire TTL (24 h) after the response was stored; an expired record is
//     treated as absent and Prune deletes it.
//   - A reservation whose lease (60 s) ran out without Complete or Release is taken as
//     abandoned (a crash): like a released one it holds no outcome, and the next
//     request with the key runs, whatever its body. The lease must exceed the server's
//     write timeout. A scope already completed keeps its first response.
//   - An invalid Idempotency-Key is refused on every POST, including routes that
//     scopeOf exempts.
//   - Responses larger than Store.MaxBody (4 MiB) are sent but not stored: the
//     reservation is released and a retry runs again, with a warning logged.
//   - The reservation is finished with a context detached from the request's
//     cancellation, so a client that hangs up does not leave its key reserved.
//   - Failures to store a response after it was sent are logged with log/slog; the
//     client already has its answer.
//   - Begin, Complete and Release stay serializable transactions (read, decide,
//     write) on every store, PostgreSQL included: measured with 64 concurrent callers
//     over two PostgreSQL pools (BenchmarkBeginCompletePostgres, 2 shared cores, fsync
//     off), they retry 0.04–0.07 times per committed transaction, both with a key per
//     request (about 1 800 requests/s, two transactions each) and with runs of 64
//     requests sharing one key sent to both replicas (about 5 500 requests/s, nearly
//     all in_flight or replays). At that rate a single-statement upsert would save
//     little and would have to re-implement the fingerprint, lease and sealing logic
//     in SQL; the per-record conflict is rare because each key is written at most
//     twice. TestReplicasRunTheSameKeyOnce shows one run for one key across replicas.
//
// The package never formats error responses: Middleware hands every error, always a
// *veriland.Error, to the caller's writer.
package idempotency
