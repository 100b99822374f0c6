// Package fieldcrypt encrypts single fields of stored records — personal data such as
// a parcel owner's name, or an idempotency record's saved response — so that the
// database file, its backups and its replicas never hold them in clear.
//
// A field is sealed with AES-256-GCM under the keyring's current data key, with a
// fresh random 96-bit nonce, into a Sealed value {"kid", "n", "c"} that the record
// stores in place of the field. The key id travels with every value, so keys can be
// rotated (Keyring.Rotate: new seals use the new key, old keys still open) without
// re-encrypting anything. The caller's additional data (AAD) binds a value to its
// place, for example "parcel:PRODUCTION:prc_…:owner.fullName": a value copied into
// another record or field, or into another environment, does not open. The key id is
// authenticated as well.
//
// Keys live in the data directory, never in the database: LoadOrCreate keeps them in
// one file, field.keys (mode 0600; a key file readable or writable by group or others
// is refused), one "<key id> <hex key>" line per key, the current key first. Back the
// file up apart from the database: a database backup without it holds only
// ciphertext, which is the point, and the database without it is unreadable.
//
// # Crypto-erasure
//
// Erasure works by key id. Keyring.Erase(id) removes a key from the keyring and from
// the key file; every value sealed under it then fails to open (ErrUnknownKey),
// including the copies that deleting records never reaches: freed database pages,
// backups, replicas. The granularity is the key, so an operator chooses cohorts by
// rotating: rotate, for example, every month or per tenant, and erase a key when
// everything it sealed must go (a retention period ends, a tenant leaves). The key id
// stored with each value says which cohort a record belongs to. Erasing one record
// alone is deleting its sealed field; its old bytes then survive only in backups and
// free pages, until those are overwritten or expire. The current key cannot be
// erased; rotate first. A removed key file line, on a
// filesystem or an SSD, may linger in free blocks: erasure is as good as the key
// file's storage, which is why it is kept small and apart.
//
// # Limits
//
// Random 96-bit nonces are safe for about 2³² seals per key; rotate well before. The
// package protects confidentiality and integrity of single fields at rest; it does not
// hide a field's length, and it trusts the process that holds the keyring.
package fieldcrypt
