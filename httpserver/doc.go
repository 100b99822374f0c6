// Package httpserver is the net/http wiring of veriland: the documented routes of
// the identity family (root, plain JSON) and the platform family (/v1, JSON:API)
// over the domain packages, with the cross-cutting rules of SPEC S2 applied to every
// route in one place:
//
//   - request ids (X-Request-Id, echoed when safe), panic recovery (a 500 that carries
//     only the request id), body limits (413) and content types (415);
//   - strict JSON: unknown members are refused with their JSON pointer, matched
//     exactly rather than case-insensitively, so the liveness routes can never accept
//     an image or a template;
//   - HS256-only bearer tokens (package auth) with per-environment secrets, revocable
//     API keys, and roles;
//   - Idempotency-Key on every POST (package idempotency) and GCRA rate limits kept in
//     storage (package ratelimit), both holding across replicas that share a store;
//   - errors as JSON:API error documents: domain packages return *veriland.Error with
//     a code, and the table in status.go is the only place codes become statuses;
//   - JSON:API lists newest first (creation time, then id; the audit chain alone is in
//     seq order), with links.next and a top-level meta.has_more that is true exactly
//     when links.next is present;
//   - bad framing is bad input: a request body that cannot be read (a bad or
//     oversized chunk size, an overlong chunk extension, a body shorter than its
//     Content-Length) answers 400 invalid_json, one over the route's limit 413, never
//     500 and never an ERROR log line;
//   - a client that went away is not an outage: when the request's own context is
//     cancelled or past its deadline, the error it causes (even one from storage) is
//     logged at debug level and answered 400 validation_failed ("the request was
//     cancelled before it completed"), which nobody reads, rather than 503 unavailable
//     or GET /v1/health's "down"; 503 means a dependency failed while the client was
//     still waiting;
//   - a hash-chained audit entry in the same transaction as every state change, and
//     coalesced entries for failures an outsider can repeat at will;
//   - webhooks in and out (package webhook), Prometheus metrics, and an embedded
//     OpenAPI 3.1 document that a test keeps equal to the registered routes and
//     checks every end-to-end exchange against.
//
// Environments: a token's environment decides which records a request sees; a record
// of the other environment answers 404. Public routes that create records take the
// environment from the Veriland-Environment header (default PRODUCTION); public reads
// by id look in both, since ids carry 128 or more random bits.
//
// Land parcels (SPEC S9, when Config.Parcels is set; WithDefaultServices builds it
// when Config.Fields is set): /v1/parcels and /v1/transfers for accounts and notaries,
// and the public registry: GET /v1/registry/verify/{hash} (JSON:API, or for browsers
// the server-rendered verification page of package registrypage that a certificate's
// QR code opens), the signed status list GET /v1/registry/statuses, and the token's
// plain ERC-721 metadata GET /v1/tokens/{tokenId}. GET /v1/parcels/{id}/certificate
// answers the printable PDF (parcel/pdf) to a client that asks for application/pdf.
//
// Owners and transfers (SPEC S13): a transfer of a parcel whose owner has a bound
// wallet waits for the owner's EIP-712 signature at the public
// GET/POST /v1/transfers/{id}/owner-consent (JSON:API, or for browsers the hosted page
// of package ownerconsentpage: wallet connect, a QR code for a phone, seven languages),
// rate limited per ownerAddress like consent; Transfer.OwnerConsent.URL is filled in
// from PublicOrigin. A holder signed in with the owner's wallet lists its parcels at
// GET /v1/me/parcels. Run expires transfers whose owner did not answer in time. The
// domain refuses a notary's transfer request, the requester's approval and the
// creator's certification with 403, meta.reason "separation_of_duties".
//
// New builds a Server from a Config that holds the store, the token secrets and the
// domain services; WithDefaultServices fills in veriland's default services. Run does
// the background work (webhook delivery, the chain jobs, request and transfer expiry,
// audit flushes). examples/server is the reference wiring.
//
// # Chain jobs and land titles
//
// Every transaction the server sends goes through one queue (storage/chainjob) and
// one worker: attestation and revocation anchors (Attestations.Anchors) and the
// mints and burns of land titles, the parcels' ERC-5192 tokens (Keys.Titles, SPEC
// S14). The jobs are written in the transaction of the state change, and the worker,
// run by the anchoring leader, sends them one at a time, so that the registry
// account's nonce never races. Config.ChainJobs tunes it (poll, lease, retries and
// backoff); routes that queue a mint or a burn wake it. When it starts it moves jobs
// of older versions into the queue and calls parcel.Service.StartTitles, fresh for
// Config.FreshChains. /metrics has veriland_chain_jobs (queued, per environment and
// kind), veriland_chain_jobs_total (per kind and outcome) and
// veriland_chain_job_duration_seconds.
//
// Config.SandboxChain, when set, is served read-only at POST /v1/sandbox/chain as
// Ethereum JSON-RPC (public; reads and gas estimates only, single calls and batches
// of up to 20, answers in JSON-RPC's own format with revert data), so that wallets and
// scripts can read the sandbox's land titles on a chain that only lives in the
// server's process.
//
// # Replicas
//
// Several servers may share one Store (storage/postgres) behind a load balancer, each
// running Run. Everything but anchoring runs on every replica at once and stays
// correct: expiry and pruning re-read what they change in each transaction, webhook
// attempts are claimed before they are sent. Anchoring runs on one replica at a time,
// the holder of the "anchoring" lease (storage/lease, named by Config.ReplicaID), which
// checks the lease again before each transaction it sends: production anchoring signs
// with one key, and two senders would race on its nonce. A standby takes over within
// about 20 s when the leader dies, at once when it shuts down cleanly. SANDBOX chain
// work goes to each replica's own chain; in examples/server that is an in-process
// simulated chain per replica, so a SANDBOX receipt names a block of the chain of
// whichever replica led when it was sent, which the other replicas' chains do not
// hold (and which a restart forgets). A replica that becomes the leader therefore
// mints the sandbox's current titles again on its own chain (Config.FreshChains).
package httpserver
