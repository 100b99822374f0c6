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
// Sealed entries are stored in canonical form under their big-endian seq in the
// bucket storage.Bucket(env, "audit"); the chain head {seq, hash} of the last sealed
// entry is kept in storage.Bucket(env, "audit_head") so that sealing reads one
// record, not the chain.
//
// # Journal now, chain in batches
//
// If every audited transaction read and wrote the chain head, every audited write of
// an environment would conflict with every other: on one bbolt file that costs
// nothing (writers take turns anyway), but with several replicas on PostgreSQL
// (SERIALIZABLE) concurrent transactions abort and retry, and three replicas together
// were slower than one. So the work is split in two:
//
//   - Append writes the complete entry (id, time, actor, detail: everything but seq,
//     prevHash and hash), in canonical form, to the environment's journal of pending
//     entries, storage.Bucket(env, "audit_pending"), in the caller's transaction. Its
//     key orders by time: the 8-byte big-endian UnixNano of the entry's time, the
//     8-byte order of the append in its process, the entry's id. Append neither reads
//     nor writes the head, so audited transactions do not conflict over the log.
//   - Seal moves pending entries into the chain in key order, up to SealBatch per
//     transaction. It reads the head and the pending records in a read snapshot, then
//     in one write transaction checks that the head has not moved (else another
//     sealer took them: it reads again), assigns seqs and links, stores each entry
//     sealed, deletes its pending record, and writes the head once. The journal is
//     not in the write transaction's read set (only the records it deletes are), so
//     on PostgreSQL appenders and the sealer seldom make each other retry; sealers
//     conflict with each other on the head. Log.RunSealing seals an environment when
//     its oldest pending entry is one interval (200 ms) old; it is safe on every
//     replica at once, and the reference server runs it on the holder of a lease
//     (httpserver.SealingLease) so that replicas under load do not seal the same
//     entries in overlapping transactions; List and Verify seal before they read,
//     so that a reader sees every entry committed before its call.
//
// Consequences. An entry's content is committed with the change it records, but its
// seq, prevHash and hash are assigned later (Append returns them empty: pending until
// sealed), typically within one sealing interval. Seq is the order of sealing, which
// follows the entries' times, except that an entry can be sealed after a later-timed
// one that committed first: times along the chain may go back by up to about one
// commit's latency (and by any clock difference between replicas). A crash loses
// nothing: pending records are committed with their changes, and any replica seals
// them (RunSealing seals at start). Several sealers on one store (replicas) take
// turns on the head: the store serializes their transactions, so each entry is
// sealed exactly once and the chain stays gapless. One sealer moves some thousands of
// entries a second (one write per entry, one delete per record); a burst beyond that
// waits in the journal, and RunSealing keeps sealing while it is behind. Every
// guarantee below holds for sealed entries unchanged; a pending entry is only as
// safe as any other record of the store until it is sealed, which is why sealing
// runs often.
//
// What the chain guarantees: Verify recomputes every hash and link and reports the
// first sequence number at which an entry was edited, deleted, reordered, inserted or
// moved to the other environment, or at which the head record disagrees with the
// entries. What it cannot prove alone: someone able to write the store can rewrite
// an entire tail together with the head record. Keep the HeadHash that Verify
// reports somewhere else (an operator's notes, a ticket, an anchor) to detect that.
//
// No function of this package updates or deletes a sealed entry, and Seal refuses to
// write over an existing one (ErrCorrupt) or to seal a pending record that is not a
// pending entry of its environment; Verify then reports the seq it could not seal.
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
// optional filters; Verify checks it. Both seal first, then read in one read
// transaction.
package audit
