// Package webhook signs, verifies and delivers webhooks in the Standard Webhooks v1
// format (SPEC S8), and keeps outbound callbacks away from internal addresses (SPEC S5).
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
// than 24 hours after the first. The durable outbox that stores deliveries and runs them
// on that schedule is built on top of this package, which keeps no state.
//
// Clocks and randomness are parameters: the verifying time, the attempt time, the
// secret's random source and the jitter source are all passed in.
package webhook
