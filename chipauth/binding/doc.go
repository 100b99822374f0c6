// Package binding binds ePassport and eID chips to veriland identities (SPEC S6):
// a holder reads their document's chip on their phone, sends EF.SOD and the data
// groups, and receives a CHIP_BINDING attestation that says a genuine document,
// signed by a trusted country, was presented by a person who had just passed a
// liveness check.
//
// # Flow
//
// Service.Bind (POST /identity/chip-verify, holder) decodes the Request — seed
// 001's body: sodBase64, dataGroups as [{number, contentBase64}] (group 1 required,
// numbers 1..16, each at most once), livenessAttestationId, and the optional
// liveFaceTemplate and chipFaceTemplate — runs chipauth passive authentication
// against the environment's trust store, and then, in one storage transaction,
// checks the named LIVENESS attestation (the holder's own, VALID, at most 24 hours
// old), compares the two face templates when both were sent (cosine similarity ≥
// 0.62 → PA_FACE; group 2 must then be among the data groups; a single template is
// shape-checked and ignored → PA_ONLY), refuses a document already bound to another
// identity, and commits the document record, the CHIP_BINDING attestation, the
// claims derived from DG1 on the holder's identity and the OnEvent hook's records
// together. It answers Result, {"status": "VERIFIED", "mode", "attestation"}. Service.ListBindings
// (GET /identity/chip-bindings/me) lists the holder's VALID CHIP_BINDING
// attestations.
//
// # The attestation
//
// Subject: the holder's DID. Verifier: "". Scope: ["chip_binding"]. Claims (see
// Claims): mode, issuingState, documentType, dsCertificateFingerprint,
// digestAlgorithm, signatureAlgorithm, faceScore (null in PA_ONLY mode) and
// livenessAttestationId. EvidenceHash: the SHA-256 of the EF.SOD bytes as sent —
// SHA-256 rather than keccak256 because the SOD is an ICAO file that any verifier
// holding it can hash with standard tools, and the holder can later prove which
// SOD backed the binding by showing it. Valid for 365 days by default.
//
// # Claims derived from DG1
//
// When Service.Identities is set (the reference server sets it), every binding
// records on the holder's identity (identity.Service.SetChipClaims, in the binding's
// transaction) the derived, non-personal claims verifiers may ask for: nationality
// (the MRZ nationality code, ICAO/ISO 3166 alpha-3 as written, e.g. "UTO", "D"),
// document_country (the issuing state), document_type (the MRZ document code, e.g.
// "P", "ID"), age_over_16, age_over_18, age_over_21 and is_adult (= age_over_18)
// computed from the MRZ date of birth at binding time, and chip_bound: true. The
// date of birth itself is never stored: chipauth turns it into an age in whole
// years (the two-digit year's century is the most recent one that does not put the
// birth in the future; unknown day or month count as the latest possible, so an
// error only ever understates an age). They take precedence over the KYC provider's
// claims of the same names, and replace those of the holder's earlier binding. A
// holder without an identity record (a did:pkh wallet holder) binds all the same,
// without claims. Revoking a CHIP_BINDING attestation does not remove them.
//
// # One document, one identity
//
// A document is known only by its document key, HMAC-SHA256(pepper, issuing state
// ‖ document number) from the DG1 MRZ (chipauth.DocumentKey). The key maps to the
// identity that bound it; another identity presenting the same document is refused
// with document_already_bound (409), without learning which identity holds it. The
// same identity binding the same document again is accepted and gets a new
// attestation (earlier ones stay VALID; the record counts the bindings). Keys are
// per environment: SANDBOX and PRODUCTION never see each other's records.
//
// # What it stores and what it never does
//
// Stored, per environment: the 32-byte document key, the holder's DID, the first
// and latest binding times, the latest attestation id and a count; the attestation
// itself (claims as above); and, on the holder's identity, the derived claims
// above. Never stored, logged or returned: the document number, names, birth date,
// sex, expiry date, the MRZ, the data groups, the SOD, the facial image and both
// face templates — they live only in memory for the length of the request. Request's String and LogValue redact
// them. Events carry ids, the mode and error codes only.
//
// It never performs active, chip or terminal authentication (they need the chip
// itself), never fetches CRLs or anything else from the network, and never trusts
// the device's face match blindly: it recomputes the similarity of the templates
// it is given. The templates are the device's embeddings, so PA_FACE attests that
// the device's face model matched the live capture to the chip's image; the
// liveness attestation attests that the capture was live.
//
// # Errors
//
// Bind returns *veriland.Error codes: validation_failed (400, with JSON pointers,
// e.g. /dataGroups/0/number for a duplicate or out-of-range number, /dataGroups
// without group 1, /chipFaceTemplate for a dimension mismatch);
// passive_auth_failed (422, Meta["step"] from chipauth, or StepDocumentExpired);
// liveness_required (422); face_mismatch (422, Meta["score"] and
// Meta["threshold"]); document_already_bound (409); unauthenticated and forbidden
// for a caller who is not a holder of the environment.
//
// # Sandbox
//
// LoadOrCreateSandboxPKI keeps a test CSCA and Document Signer in the server's data
// directory; SANDBOX's trust store holds that CSCA, so documents issued with
// chipauth/sandbox (see examples/sandbox-sod) bind in SANDBOX only.
package binding
