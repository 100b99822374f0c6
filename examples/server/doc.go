// Command server is veriland's reference server: the library's packages wired to the
// documented routes, with an embedded bbolt database, or on PostgreSQL shared by
// several replicas.
//
//	go run ./examples/server                      # serve on 127.0.0.1:8080, data in ./data
//	go run ./examples/server -mint-token -role admin -env SANDBOX
//
// Every flag has a VERILAND_* environment variable (flag wins): -data VERILAND_DATA,
// -database VERILAND_DATABASE_URL, -keys-dir VERILAND_KEYS_DIR,
// -addr VERILAND_ADDR, -chain-id VERILAND_CHAIN_ID, -rate-limit VERILAND_RATE_LIMIT,
// -public-origin VERILAND_PUBLIC_ORIGIN, -trust-dir VERILAND_TRUST_DIR,
// -log-level VERILAND_LOG_LEVEL, -kyc-url VERILAND_KYC_URL, -kyc-secret
// VERILAND_KYC_SECRET, -metrics-token VERILAND_METRICS_TOKEN (when set, GET /metrics
// requires it as a bearer token).
//
// Database: by default one bbolt file, -data/veriland.db, for one process. -database
// postgres://… runs on storage/postgres instead (the table is created when missing;
// pgx's pool_* URL parameters size the pool); any number of replicas may then share
// the database behind a load balancer: idempotency, rate limits, the audit chain, the
// webhook outbox and anchoring stay correct across them (docs/operations.md). On
// PostgreSQL, /metrics adds veriland_storage_commits_total, _attempts_total and
// _retries_total.
//
// Keys: the first start generates every key in the keys directory (-keys-dir, by
// default -data), each file with
// mode 0600 (a key file group or others may access is refused at start): jwt-sandbox.key
// and jwt-production.key (token secrets), issuer.key (attestation and certificate
// signer), pepper.key (HMAC of indexed identifiers and id_doc), webhook.secret, and
// field.keys, the AES-256 field-encryption keys (storage/fieldcrypt) that seal personal
// data at rest — parcel owner names and the responses kept for Idempotency-Key
// replays. Back field.keys up apart from the database: without it the sealed fields
// cannot be read; with it removed, they are crypto-erased. Replicas share one keys
// directory (a shared volume, or the same files distributed to each): the first to
// start creates the keys under an flock(2) on .keys.lock, publishing each file
// atomically, and the others wait for the lock and read them, so no key is ever
// generated twice; the sandbox test CSCA lives there too.
//
// KYC: SANDBOX identities go to the sandbox provider (payload.scenario picks the
// outcome). PRODUCTION needs a real provider: -kyc-url (https) and -kyc-secret
// (whsec_<base64>) make PRODUCTION issuance POST each check, signed with the secret
// in Standard Webhooks form, to that URL (identity.HTTPKYC), and accept the
// provider's kyc.completed results at POST /v1/webhooks/kyc, signed with the same
// secret. Without them, PRODUCTION issuance answers 503 unavailable whose detail
// names these flags.
//
// Devices: KEY_ATTESTATION is registered for both environments, pinned to Google's
// hardware attestation roots embedded in liveness/deviceattest (RSA-4096 and Key
// Attestation CA1); -android-package (VERILAND_ANDROID_PACKAGE) binds it to the
// holder app's attestationApplicationId, and -android-signing-digest to its signing
// certificates. -apple-app-id (TEAMID.bundle.id) enables APP_ATTEST, pinned to the
// embedded Apple App Attestation root (-app-attest-development for development-build
// keys). -play-integrity-decryption-key and -play-integrity-verification-key (the
// Play Console's keys, with -android-package) enable PLAY_INTEGRITY, decoded offline.
// MOCK stays SANDBOX only.
//
// Anchoring: SANDBOX anchors on an in-process simulated chain. -eth-rpc (https or
// wss), -anchor-key (a file, mode 0600, with the hex secp256k1 key that pays for the
// transactions) and -anchor-address (the anchor contract) anchor PRODUCTION
// attestations and parcels through that node; the three go together.
//
// At start the server logs one "features" line per environment: what is live, and in
// to_enable the flags that would enable the rest.
package main
