// Package sandbox is the reference server's per-account sandbox (SPEC S10): each
// account's SANDBOX is seeded on its first authenticated request with records made
// through the domain services — a certified, a rejected and a pending parcel, a parcel
// with an open transfer, an approved and a pending verification request, a holder
// identity whose throwaway wallet key is shown so that a newcomer can sign at once,
// and a certified parcel whose owner's wallet is that holder's (bound
// IDENTITY_VERIFIED), so that the same key signs the owner's decision on its
// transfers (SPEC S13) — and Scenarios lists every sandbox behaviour with the exact
// input that triggers it and the expected outcome, the owner's approval, refusal and
// deadline and the separation-of-duties refusals among them.
//
// Seeding is idempotent under concurrency: the first request claims the account in
// storage with a lease, a concurrent one waits for it, and replicas sharing one
// database agree. It never touches PRODUCTION or another account: every seeded record
// belongs to the account (sub SeedSubject) or, for the holder identity, is keyed by a
// subjectRef that names the account. A reset (the reference server's POST
// /v1/sandbox/reset) erases the account's SANDBOX records service by service, then
// Forget and Ensure seed it again.
package sandbox
