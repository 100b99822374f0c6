// Package identity is the identity domain of SPEC S3: it issues DIDs to people who pass
// a KYC check, keeps each identity's status, and lets an admin decide manual reviews.
// Consent, liveness and chip binding resolve holders through it (Get, BySubject,
// ByWallet).
//
// # What it stores
//
// One record per identity, per environment: its DID ("did:veriland:" + 22 base58
// characters of 128 random bits), status (PENDING_KYC, ACTIVE, PENDING_REVIEW,
// REJECTED), the country code if one was given (it is optional; the public status
// omits it when absent), optional wallet address (lower case), the KYC provider's case
// reference, the review id, timestamps, and derived claims. Three indexes map a keyed
// hash of the subjectRef, the wallet address and the provider reference to the DID.
// Reviews are stored with their DID, state and timestamps.
//
// # Derived claims
//
// Claims are derived, non-personal facts that a verifier may ask for (consent answers
// scope items from Identity.Claims). They come from two sources, each kept apart and
// merged into Identity.Claims:
//
//   - KYCClaims: what the KYC provider reported with an APPROVED (or REVIEW) answer.
//   - ChipClaims: what chip binding derived from the DG1 MRZ of the holder's latest
//     bound document (SetChipClaims, called by chipauth/binding inside the binding's
//     transaction): nationality (the MRZ code, ICAO/ISO 3166 alpha-3, e.g. "UTO", "D"
//     for Germany), document_country (issuing state), document_type (MRZ document
//     code, e.g. "P", "ID"), the age predicates and chip_bound: true. They take
//     precedence over KYC claims of the same name, and survive a later KYC result.
//
// Both pass the Service's allow-list (ClaimNames, default DefaultClaimNames, which
// includes chip_bound) and keep only scalar values. The age predicates are
// age_over_16, age_over_18, age_over_21 and is_adult (= age_over_18), computed from a
// date of birth at the time of the check (AgeAt, AgeClaims); the date of birth itself
// is never stored. Claims are not re-evaluated later: a predicate that was false at
// binding or KYC time stays false until the next binding or KYC result.
//
// The sandbox provider (SandboxKYC) approves with kyc_level "standard", the age
// predicates (from payload.dateOfBirth "YYYY-MM-DD" when the payload is an object
// that has it, else from payload.is_adult, else those of an adult of 30), and, when
// countryCode is given, nationality and document_country equal to it.
//
// # What it never stores
//
// The KYC payload (any JSON value; providers may read only objects, as the sandbox
// provider does): it is handed to the KYCProvider and dropped; it is never written to
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
// retry). If no provider serves the environment (Service.KYC nil, SandboxKYC asked
// for PRODUCTION, KYCByEnvironment without an entry), Issue answers 503 unavailable
// whose detail names the configuration to supply (NotConfiguredError): the reference
// server's -kyc-url/-kyc-secret flags, or Service.KYC for embedders. DecideReview moves PENDING_REVIEW to ACTIVE or REJECTED. Every change calls
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
