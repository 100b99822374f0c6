// Package webhook signs, verifies and delivers webhooks in the Standard Webhooks v1
// format (SPEC S8), keeps outbound callbacks away from internal addresses (SPEC S5), and
// holds their durable state: the outbox of outbound deliveries, the verifiers' signing
// secrets and the store of inbound events.
//
// # Signatures
//
// A webhook carries three headers: webhook-id, webhook-timestamp (unix seconds) and
// webhook-signature, a space-separated list of "v1,<base64 HMAC-SHA256(key,
// id "." timestamp "." body)>" tokens. Secrets are "whsec_" + base64 of the key.
// Sign emits one token per secret so that a receiver holding either the old or the new
// secret accepts a message during a rotation. Verify accepts a message when its timestamp
// is within 5 minutes of the receiver's clock (Verifier.Tolerance changes that) and any
// v1 token matches any secret, compared with hmac.Equal; tokens of other versions are
// ignored. It refuses with a *veriland.Error of code invalid_webhook_signature whose cause
// is a named reason (ErrMissingHeaders, ErrInvalidHeader, ErrStaleTimestamp,
// ErrFutureTimestamp, ErrNoMatchingSignature). A zero Secret never signs nor verifies.
// Verify does not remember message ids; dropping a replay inside the tolerance window is
// the caller's job.
//
// The package is written here rather than taken from the official library because that
// library's tolerance is fixed.
//
// # Outbound callbacks
//
// ValidateCallbackURL checks a callback URL when it is registered, and NewClient returns
// the only http.Client that should deliver to it. In PRODUCTION callbacks must be https
// and may never reach loopback, private (RFC 1918, fc00::/7), link-local, CGNAT,
// multicast, unspecified, reserved or broadcast addresses, nor the cloud metadata
// services (169.254.169.254, fd00:ec2::254, 100.100.100.200), nor any of these in
// IPv4-mapped, NAT64 or 6to4 form. The client checks the address it is about to connect
// to after DNS resolution, in the dialer's Control hook, so a name that resolves (or
// rebinds) to such an address is refused too. It uses no proxy, never follows redirects
// (a 3xx is a failed delivery), reads at most 64 KiB of any answer and gives up after
// 10 s. SANDBOX also allows http and loopback, for local testing, unless
// CallbackPolicy.StrictSandbox is set; nothing makes PRODUCTION allow them.
//
// # Delivery
//
// Deliver makes one signed POST and returns its Attempt; it succeeds only on a 2xx within
// 10 s. NextAttempt gives the retry schedule: 0 s, 5 s, 5 min, 30 min, 2 h, 5 h and 10 h
// after the first attempt, each with ±10 % jitter, then FAILED; no attempt falls more
// than 24 hours after the first. These functions keep no state; the Outbox below stores
// deliveries and runs them on that schedule.
//
// # Outbox
//
// Outbox is the durable queue of outbound webhooks. A domain service calls
// Outbox.Enqueue inside the transaction of the state change it reports (a consent
// decision, a revocation), so the delivery exists if and only if the change commits; the
// body {"type","timestamp","data"} is built then, once, and every attempt and replay
// sends those exact bytes under the same webhook-id, the delivery's "msg_…" id. An
// event without a callback URL is not queued. After the commit the server calls Notify,
// and Outbox.Run (a pool of Workers, 4 by default, that also polls every second) makes
// the first attempt at once.
//
// Each attempt is claimed in a transaction before it is made: the delivery is leased to
// one worker for ClaimLease and moved, in a due index keyed by time, to the lease's end.
// So two workers or two replicas sharing a store never make the same attempt, and an
// attempt whose worker died is made again when the lease expires. Delivery is therefore
// at least once; receivers drop repeats by webhook-id. An attempt is signed with the
// verifier's current secret, and its previous one during a rotation, and recorded
// {at, statusCode, latencyMs, error}. A 2xx within 10 s makes the delivery SUCCEEDED;
// otherwise the next attempt is scheduled by NextAttempt (slots missed while no worker
// ran are skipped, not made in a burst). When the schedule is exhausted the delivery
// waits, PENDING, until 24 hours have passed since its first attempt and is then FAILED,
// with a WARNING audit entry "webhook.delivery_failed" in the same transaction. All state
// is in storage: a restarted server resumes where it stopped. Run waits for attempts in
// flight before it returns.
//
// Outbox.Replay queues a delivery again for an attempt at once, whatever its status,
// with the same webhook-id and body; it opens a fresh 24-hour window and a fresh
// schedule (a FAILED delivery becomes PENDING), keeps the earlier attempts in the
// history, and is refused (invalid_state) while an attempt is in flight. Outbox.Get and
// Outbox.List (newest first, opaque cursors, by verifier, account and status) serve the
// deliveries API; Outbox.Pending is the queue-depth gauge.
//
// Delivery ids begin with the delivery's creation time in milliseconds
// (ids.NewOrdered), so that the deliveries bucket, keyed by id, takes each new record on
// its last pages: a random id dirtied a different page of it in every enqueuing
// transaction, which a group commit then had to write. The id thus shows its creation
// time, which the receiver already gets in webhook-timestamp and the payload's
// timestamp. Deliveries queued before this have wholly random ids of the same shape;
// nothing rewrites them, because nothing needs to: a delivery is found by its id,
// whatever the id holds, and the due, by-created and by-verifier indexes order by time,
// never by id, so old and new deliveries are sent, listed and replayed alike.
//
// In SANDBOX, a callback URL whose path ends in "/fail" is answered by the sandbox test
// receiver (SPEC S10): each attempt is recorded as failed with status 500 and error
// "sandbox receiver: /fail", without any network call, so integrators can watch the
// retries. A path ending in "/timeout" is answered as a timeout: no status code, a
// latency of DeliveryTimeout and error "sandbox receiver: /timeout (timed out after
// 10 s)", with no network call and no waiting.
//
// # Secrets
//
// SecretStore keeps one secret per verifier and environment, created on first use
// (Secrets, or the first Enqueue for that verifier). Rotate makes a new one; the old one
// keeps signing beside it for RotationOverlap (24 hours), so deliveries in that time
// carry two signatures and a receiver holding either secret accepts them. The secrets
// are stored in clear in storage.Bucket(env, "webhook_secrets"), because signing needs
// them: the data file holds them and must stay mode 0600, its backups guarded alike.
//
// # Inbound events
//
// Providers configures the senders of inbound webhooks by name (ParseProviders reads
// them from JSON), with their signature scheme, secrets and accepted event types
// (SPEC S15): SchemeStandardWebhooks, or SchemeHMACSHA256, the HMAC-SHA256 of the raw
// body alone in a header of the provider's (BodyVerifier: hex or base64, optional
// prefix), as GitHub and Shopify sign. Provider.VerifyDelivery checks a request and
// returns its delivery id: the webhook-id, or for a body-only scheme, which has neither
// timestamp nor message id, the provider's event id (EventIDPath) or else the HMAC.
// Inbox stores each accepted event under (provider, delivery id) before the route
// acknowledges it; Accept reports an id already stored as a duplicate, to be answered
// 200 without processing it again. MarkProcessed records the dispatch, and Unprocessed finds the events whose
// dispatch a crash cut short.
//
// Clocks and randomness are parameters: the verifying time, the attempt time, the
// secret's random source and the jitter source are all passed in, and the Outbox,
// SecretStore and Inbox take their clock and randomness as fields.
package webhook
