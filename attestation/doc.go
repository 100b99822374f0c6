// Package attestation issues, stores, revokes and verifies the signed statements
// veriland makes about a holder: that they consented to a disclosure (CONSENT), passed
// a liveness check (LIVENESS) or bound a passport chip (CHIP_BINDING) — SPEC S7.
//
// An Attestation is signed by the service's secp256k1 issuer key as EIP-712 typed data
// (domain "Identity Attestation", version "1", the configured chainId) over its id,
// kind, subject, verifier, scope, the keccak256 of the RFC 8785 canonical JSON of its
// claims, an evidence hash and its issue and expiry times in unix seconds. The
// attestation carries the same message as a ready eth_signTypedData_v4 object, so
// that any Ethereum tool can check it.
//
// Verify checks an attestation offline, with no storage and no network. It trusts
// only the issuer addresses it is given: it rebuilds the digest from the fields, never
// from the embedded typed data (which must nevertheless agree), refuses malleable
// (high-s) signatures, checks expiry at a given time and, optionally, a revocation list
// signed by the issuer (EIP-191 over its canonical JSON). Every refusal is a
// *veriland.Error whose cause is a named error (ErrExpired, ErrRevoked, …).
//
// Service is the storage-backed side used by the server and the other domain packages:
// Issue writes into the caller's own transaction (so that a consent decision, its
// attestation, its audit entry and its webhook commit together), and Revoke is
// idempotent and runs a hook in its transaction. Records are kept per environment and
// never cross between SANDBOX and PRODUCTION. Digests are anchored on a chain in the
// background (see package anchor) with retries; anchoring never blocks or fails
// issuance, and its progress is kept on the attestation. The Service sees a chain only
// through the Anchorer interface declared here, so that this package, and an offline
// verifier that imports it, never links a chain client or simulator: the
// implementations live in attestation/anchor, imported only by the wiring.
//
// Attestation ids ("att_…") begin with the time of issue in milliseconds
// (ids.NewOrdered), so that the attestations bucket, keyed by id, takes each new record
// on its last pages: a random id dirtied a different page of it in every issuing
// transaction, which a group commit then had to write. The id thus shows the time of
// issue to the millisecond, which the signed issuedAt already shows to the second.
// Attestations issued before this have wholly random ids of the same shape; nothing
// rewrites them, because nothing needs to: a record is found by its id, whatever the
// id holds, and lists order by the subject index's issuedAt, never by id, so old and
// new records are read, listed and revoked alike in the same buckets.
//
// The package never stores personal data beyond what a caller puts in claims, and the
// reason given for a revocation is kept but never shown in the attestation.
package attestation
