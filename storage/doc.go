// Package storage is veriland's one small transactional key-value interface.
//
// Domain packages keep typed repositories on top of Store and put every multi-record
// change (a state transition, the attestation it issues, its audit entry and its
// webhook outbox record) in one Update, so that either all of it is durable or none.
//
// Environment isolation is a namespace the callers apply: environment records live in
// buckets named with Bucket(env, name), so code that holds one environment never
// addresses the other's buckets.
//
// A request path's single-key read (a record by its id) goes through ViewOne, which a
// backend may serve without a transaction (Getter): on storage/postgres that is one
// statement instead of BEGIN, the read and ROLLBACK.
//
// Backends: storage/bolt (default, one file, fsync on commit, group commit) and
// storage/postgres (several replicas on one database). Every backend passes the
// conformance suite in storage/storagetest.
package storage
