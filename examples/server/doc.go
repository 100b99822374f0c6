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
// VERILAND_KYC_SECRET, -webhook-providers VERILAND_WEBHOOK_PROVIDERS, -metrics-token VERILAND_METRICS_TOKEN (when set, GET /metrics
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
// Inbound webhooks (SPEC S8, S15): -webhook-providers (VERILAND_WEBHOOK_PROVIDERS)
// names the providers that may POST /v1/webhooks/{provider}: a JSON file, or the JSON
// itself when it starts with "{", mapping each name to its signature scheme, secrets
// (several during a rotation, any accepted) and accepted event types:
//
//	{
//	  "anchor": {"scheme": "standard-webhooks", "secrets": ["whsec_<base64>"],
//	             "eventTypes": ["anchor.confirmed"]},
//	  "vendor": {"scheme": "hmac-sha256", "header": "X-Hub-Signature-256",
//	             "prefix": "sha256=", "encoding": "hex",
//	             "secrets": ["the new secret text", "the old secret text"],
//	             "eventTypes": ["kyc.completed"], "eventIdPath": "id"}
//	}
//
// standard-webhooks (the default) checks webhook-id, webhook-timestamp (5 minutes,
// toleranceSeconds to change it) and webhook-signature, and deduplicates by webhook-id.
// hmac-sha256 checks the HMAC-SHA256 of the raw body alone, as GitHub and Shopify
// sign: encoding hex (default) or base64, in header (default X-Signature-SHA256),
// after an optional prefix; its secrets are whsec_<base64> or the secret text itself
// (at least 16 bytes). It has no timestamp or message id, so a delivery is
// deduplicated by the string or number at eventIdPath (a dot-separated JSON member
// path) or, without one, by the HMAC of the body under the first secret. Bodies are
// {"type", "data"} envelopes (data.env picks the environment, default PRODUCTION);
// signatures are compared in constant time; a bad or missing signature answers 401,
// an unknown provider 404; events are stored before they are acknowledged. The "kyc"
// provider comes from -kyc-url and -kyc-secret and cannot be named here as well.
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
// Rate limits (SPEC S2.5, S15): -rate-limit on (the default) limits holders and other
// wallet-carrying tokens per wallet, 120 requests a minute with a burst of 30; API
// keys and other tokens without a wallet (verifiers, notaries, admins) per key, 100 a
// second with a burst of 200; public routes per client IP, 600 a minute with a burst
// of 120. A comma-separated list of POLICY=LIMIT/WINDOW:BURST overrides any of them
// and keeps the others, e.g. -rate-limit key=50/1s:100,wallet=60/1m:20 (POLICY wallet,
// key or ip); -rate-limit off disables them (benchmarks). RateLimit-Policy names the
// policy a response was counted under ("key";q=100;w=1).
//
// At start the server logs one "features" line per environment: what is live, and in
// to_enable the flags that would enable the rest.
package main
