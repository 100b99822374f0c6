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
// # Creating a request
//
// CreateRequest is the body of seed 001 §2: subjectRef, scope (at least one item),
// reason, mode (PROOF_ONLY, the default, or SELECTIVE), callbackUrl, requireLiveness
// ({minLevel L1|L2|L3, required; maxAgeDays a number 1..365, default 30}), plus
// expiresInSeconds (60..604800, default 3600). The verifier's display name is not in
// the body: the caller sets CreateRequest.VerifierName from a trusted source (the
// reference server: the name of the API key that made the call), and without one the
// holder is shown the verifier's sub.
//
// # Subjects
//
// A request's subjectRef names the holder by an identifier, never by personal data:
// either an identity DID (did:veriland:…), whose bound wallet (Service.Wallets) must sign,
// or a wallet account DID did:pkh:eip155:<chainId>:<address> on the configured chain,
// whose address must sign. did:pkh subjects are stored with a lower-case address. An
// identity DID must name an identity of the request's environment, whatever its status
// (unknown_subject, 422, at /subjectRef); a did:pkh needs no identity.
//
// # Scope vocabulary
//
// A scope item is a derived, non-personal fact about the subject. Vocabulary lists them:
//
//	item                  value                          source
//	identity              {status, level, country?}      the identity: ACTIVE; level CHIP when a chip is bound, else KYC;
//	                                                     country = the issuance countryCode, when one was given
//	liveness              {level, attestationId,         the subject's best VALID, unexpired LIVENESS attestation
//	                       issuedAt}                     (highest level, then newest; meeting requireLiveness if set)
//	chip_bound            boolean                        the identity's chip_bound claim (chip binding); false without one
//	is_adult              boolean                        stored claim: KYC provider, or DG1 of a chip binding
//	age_over_16/18/21     boolean                        stored claims, computed from the date of birth (never stored)
//	nationality           string (ISO 3166 code)         stored claim: KYC provider or DG1
//	document_country      string (issuing state)         stored claim: DG1
//	document_type         string (e.g. "P")              stored claim: DG1
//	country_of_residence  string                         stored claim: KYC provider
//	kyc_level             string or number               stored claim: KYC provider
//
// The stored claims are identity.Identity.Claims, read through Service.Identities;
// Service.ClaimNames (default identity.DefaultClaimNames()) says which of them are
// scope items. Every scope item must be in the vocabulary, in both modes (400 at
// /scope/<i>). did:pkh subjects have no identity: only liveness can be answered.
//
// # Disclosure modes
//
// PROOF_ONLY (the default) discloses no values. The holder's disclosedScope is either
// empty ("everything asked") or the whole scope, in any order; an approval answers
// every scope item with true (a boolean fact that holds) or "verified" (a value fact
// the subject has) — {"is_adult": true, "nationality": "verified"} — never the value. A
// boolean fact that is false (is_adult false, chip_bound false) is not stated as false:
// a PROOF_ONLY attestation states only facts that hold, so that a verifier can read
// every member as proved, and the approval is refused with claim_unavailable (reason
// does_not_hold); the holder can reject instead. Its verifier learns nothing from a
// refused approval: the checks run after the signature and wallet checks, so only the
// holder sees the error.
//
// SELECTIVE lets the holder disclose a non-empty subset; the attestation carries the
// values of exactly those items ({"nationality": "NG", "age_over_21": false}) and
// nothing about the others. In both modes disclosedScope ⊆ scope, without repeats;
// a rejection may send any such list and discloses nothing. An item that the subject
// has no fact for (in PROOF_ONLY any scope item, in SELECTIVE a disclosed one) is
// claim_unavailable (422) with reason missing; every such item gets its own error, with
// the item in meta and, when the item was posted, its pointer /disclosedScope/<i>.
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
// verifier, scope = what it answers (the whole scope in PROOF_ONLY, the pick in
// SELECTIVE), evidenceHash = the signed consent digest, and claims = the facts, flat,
// plus one bookkeeping member, "consent" (ClaimConsent, never a scope item): a
// ConsentClaims with the request id, the mode, the disclosedScope as posted, its hash,
// the nonce, the deadline and the requireLiveness it met. The request id lets a
// verifier tie the attestation to its own request (a holder cannot pass off the
// approval of an earlier request), and the rest rebuilds the signed Consent message,
// so that anyone holding the holder's signature can re-verify it against the
// attestation alone. ParseClaims splits the two. The attestation is valid for
// Service.ConsentValidity (default 365 days), and the verification.approved event
// carries it, so that the verifier's webhook has the facts without a second call.
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
// verifier's reason is free text chosen by the verifier and shown to the holder. The
// CONSENT attestation of an approval (kept by the attestation package) carries only
// derived facts the holder agreed to share — values in SELECTIVE, proofs in
// PROOF_ONLY — never a name, a date of birth or a document number.
//
// # What it trusts
//
// The caller's authentication of the verifier principal (Create, Cancel) and the
// display name it passes; Wallets for the binding of an identity DID to its wallet;
// Identities for the identity's existence and derived claims; the LivenessGate for
// requireLiveness; the attestation lookup for the liveness item; the
// AttestationIssuer to sign. Decide needs no principal: the signature is the
// authorisation. Environments are separate namespaces: a request of one environment is
// not_found from the other.
//
// Errors are *veriland.Error (veriland.Errors for several invalid members, each with
// its JSON pointer) with SPEC S2.2 codes; storage and hook errors are passed through.
// Each method's documentation lists its codes.
package consent
