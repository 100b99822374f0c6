// Package consent is the verification request and consent domain of SPEC S5: a
// verifier asks a holder for a scope of facts, the holder answers by signing EIP-712
// typed data with the wallet bound to their identity, and an approval becomes a signed
// CONSENT attestation the verifier can check offline.
//
// # Lifecycle
//
// Service.Create stores a PENDING Request with a fresh id ("vrq_" + 26 base32), a
// 32-byte random nonce and a deadline (expiresAt, whole seconds, 60 s .. 7 days from
// now, default 1 hour). Service.Context gives the holder's client what to show and what
// to sign; Service.Decide applies the signed decision; Service.Cancel lets the creating
// verifier withdraw it. A request leaves PENDING exactly once, for APPROVED, REJECTED,
// CANCELLED or EXPIRED. It is open while the time is before expiresAt; from expiresAt on
// it is EXPIRED, whether a reader (Get, Context), a decision, a cancellation or the
// background sweeper (Service.ExpireDue) notices first. Exactly one of them persists the
// change and emits verification.expired; a decision or cancellation that finds the
// request past its deadline commits the expiry and then answers invalid_state with
// status EXPIRED.
//
// Every change calls Service.OnEvent inside its storage transaction — the reference
// server writes the audit entry and the webhook outbox record there — so that the
// transition, the CONSENT attestation and those records commit together or not at all.
//
// # Subjects
//
// A request's subjectRef names the holder by an identifier, never by personal data:
// either an identity DID (did:veriland:…), whose bound wallet (Service.Wallets) must sign,
// or a wallet account DID did:pkh:eip155:<chainId>:<address> on the configured chain,
// whose address must sign. did:pkh subjects are stored with a lower-case address. The
// subject is not looked up at creation: an unknown DID only fails when someone tries to
// decide.
//
// # Scope and modes
//
// scope is 1..32 distinct items of 1..64 characters of A-Z a-z 0-9 _ . : -. FULL (the
// default) is all or nothing: an approval discloses the whole scope, and the holder's
// disclosedScope is either empty ("everything asked") or the whole scope, in any
// order. SELECTIVE lets the holder disclose a non-empty subset, and only claims an
// identity can disclose one by one may be asked (Service.SelectiveScope, by default
// identity.DefaultClaimNames()). In both modes disclosedScope ⊆ scope, without
// repeats; a rejection may send any such list and discloses nothing.
//
// # What is signed
//
// The holder signs ConsentTypedData over the consent domain {name "Identity Consent",
// version "1", chainId Service.ChainID} — never a domain from the client — with subject
// = subjectRef, verifier = the verifier's token sub, the request's nonce, deadline =
// expiresAt in unix seconds, the decision, and disclosedScopeHash = the EIP-712 string[]
// hash of disclosedScope in the order posted. The signature is 65 bytes r ‖ s ‖ v with v
// 27/28 or 0/1; high-s twins are refused. Context returns that typed data with
// decision and disclosedScopeHash left out for the client to add, plus presets
// (approve everything, reject) with both members computed.
//
// An approval's CONSENT attestation has subject = subjectRef, verifier = the request's
// verifier, scope = the disclosed scope, evidenceHash = the signed consent digest and
// Claims holding the consent's own members, so that anyone holding the holder's
// signature can re-verify it against the attestation alone. It is valid for
// Service.ConsentValidity (default 365 days).
//
// # What it stores, and never stores
//
// Per environment: the Request records (ids, the verifier's sub, account, display name
// and callback URL, the subject DID, scope, mode, reason, liveness requirement, nonce,
// times, status, attestation id, disclosed scope) and an expiry index of PENDING
// requests keyed by deadline and id, so that the sweeper reads only what is due. It
// never stores the holder's signature or wallet address (for an identity subject the
// identity package holds the binding), names, documents, images or any KYC data: the
// subjectRef is an identifier the verifier already knew, not personal data. The
// verifier's reason is free text chosen by the verifier and shown to the holder.
//
// # What it trusts
//
// The caller's authentication of the verifier principal (Create, Cancel); Wallets for
// the binding of an identity DID to its wallet; the LivenessGate for requireLiveness;
// the AttestationIssuer to sign. Decide needs no principal: the signature is the
// authorisation. Environments are separate namespaces: a request of one environment is
// not_found from the other.
//
// Errors are *veriland.Error (veriland.Errors for several invalid members, each with
// its JSON pointer) with SPEC S2.2 codes; storage and hook errors are passed through.
// Each method's documentation lists its codes.
package consent
