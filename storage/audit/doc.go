// Package audit is veriland's append-only, hash-chained audit log (SPEC S2.6).
//
// Every state change, authentication or signature failure, 429, revocation and
// webhook failure is recorded as an Entry. Entries are appended with Log.Append inside
// the caller's own storage transaction, so an entry commits if and only if the change
// it records commits. Failures an outsider can trigger at will go through a
// Coalescer instead, which writes one entry per key and minute with a count.
//
// # The chain
//
// Each environment has its own chain, numbered from seq 1 without gaps. Entry n
// stores the hash of entry n-1 in prevHash (GenesisHash, 64 zeros, for entry 1) and
// its own hash:
//
//	hash = hex(SHA-256(prev || JCS(entry without "hash")))
//
// where prev is the 32 bytes that prevHash encodes in hex (32 zero bytes for entry 1)
// and JCS is the RFC 8785 canonical JSON of the entry object with every member but
// "hash": seq, id, time, env, actor, role, action, resourceType, resourceId, severity,
// outcome, requestId, detail and prevHash. All members are always present (empty
// strings, and {} for an empty detail); time is RFC 3339 UTC with exactly three
// fractional digits (TimeFormat). Hashes are lower-case hex.
//
// Entries are stored in canonical form under their big-endian seq in the bucket
// storage.Bucket(env, "audit"); the chain head {seq, hash} is kept in
// storage.Bucket(env, "audit_head") so that Append reads one record, not the chain.
//
// What the chain guarantees: Verify recomputes every hash and link and reports the
// first sequence number at which an entry was edited, deleted, reordered, inserted or
// moved to the other environment, or at which the head record disagrees with the
// entries. What it cannot prove alone: someone able to write the store can rewrite
// an entire tail together with the head record. Keep the HeadHash that Verify
// reports somewhere else (an operator's notes, a ticket, an anchor) to detect that.
//
// No function of this package updates or deletes an entry, and Append refuses to
// write over an existing one.
//
// # What is never stored
//
// Detail holds identifiers, counts and codes only: never personal data (names,
// document numbers, dates of birth, contact details, client IPs, images, biometrics)
// and never secrets (tokens, keys, passwords, nonces). The log is append-only, so
// nothing in it can ever be erased. Append enforces this as well as a guard can (see
// CheckDetail), and the Coalescer never writes the keys it counts under.
//
// # Reading
//
// List pages through a chain oldest first (ascending seq) with an opaque cursor and
// optional filters; Verify checks it. Both run in one read transaction.
package audit
