// Package identity is the identity domain of SPEC S3: it issues DIDs to people who pass
// a KYC check, keeps each identity's status, and lets an admin decide manual reviews.
// Consent, liveness and chip binding resolve holders through it (Get, BySubject,
// ByWallet).
//
// # What it stores
//
// One record per identity, per environment: its DID ("did:veriland:" + 22 base58
// characters of 128 random bits), status (PENDING_KYC, ACTIVE, PENDING_REVIEW,
// REJECTED), country code, optional wallet address (lower case), the KYC provider's case
// reference, the review id, timestamps, and the derived, non-personal claims the
// provider reported (is_adult, nationality, …) that pass the Service's allow-list of
// names and carry scalar values. Three indexes map a keyed hash of the subjectRef, the
// wallet address and the provider reference to the DID. Reviews are stored with their
// DID, state and timestamps.
//
// # What it never stores
//
// The KYC payload: it is handed to the KYCProvider and dropped; it is never written to
// storage, never logged, and IssueRequest and KYCRequest redact it when printed. The
// subjectRef: only HMAC-SHA256 under a secret pepper (with the environment mixed in)
// is kept, enough to refuse a second identity for the same subject and to find the
// identity of a subject again, but not to recover the reference. Claims outside the
// allow-list, or with object or list values, are dropped.
//
// # Lifecycle
//
// Issue stores the identity PENDING_KYC, claiming its subject and wallet in the same
// transaction, then asks the provider and applies its answer in a second transaction:
// APPROVED → ACTIVE, REJECTED → REJECTED, REVIEW → PENDING_REVIEW with an OPEN Review,
// PENDING → stays PENDING_KYC until CompleteKYC (the kyc.completed inbound webhook). If
// the provider fails, the identity is removed again (503 unavailable; the client may
// retry). DecideReview moves PENDING_REVIEW to ACTIVE or REJECTED. Every change calls
// Service.OnChange inside its transaction, for the audit log and webhook outbox.
//
// # What it trusts
//
// The KYC provider's answer, and the callers of CompleteKYC and DecideReview, which
// must have verified the webhook signature or the admin role. Environments are
// separate namespaces: an identity of one environment is not_found from the other.
//
// Errors are *veriland.Error (or veriland.Errors for several invalid members) with
// SPEC S2.2 codes; each method's documentation lists them.
//
// Wallet login itself (EIP-4361) lives in identity/siwe; PKHDID names the holders who
// sign in with a wallet no identity is bound to.
package identity
