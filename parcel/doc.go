// Package parcel is the land parcel domain of SPEC S9: certification requests, the
// notary's decision, signed certificates verifiable by hash online and offline,
// soulbound (ERC-5192) token records, transfers of ownership and the registry's
// signed status list. It imports no HTTP; httpserver maps its error codes.
//
// # API summary (for the HTTP layer)
//
// Every method takes the caller p veriland.Principal; the environment is p.Env.
//
//	Service.Create(ctx, p, CreateRequest) (*Parcel, error)                  POST /v1/parcels (201)
//	Service.Get(ctx, p, id) (*Parcel, error)                                 GET /v1/parcels/{id}
//	Service.List(ctx, p, cursor, limit) ([]*Parcel, next string, error)     GET /v1/parcels
//	Service.Certify(ctx, p, id) (*Parcel, error)                             POST /v1/parcels/{id}/certify
//	Service.Reject(ctx, p, id, reason) (*Parcel, error)                      POST /v1/parcels/{id}/reject
//	Service.Revoke(ctx, p, id, reason) (*Parcel, error)                      POST /v1/parcels/{id}/revoke
//	Service.Certificate(ctx, p, id) (*SignedCertificate, error)              GET /v1/parcels/{id}/certificate
//	Service.CertificateVersion(ctx, p, id, v) (*SignedCertificate, error)   any version (history, PDF of an old version)
//	Service.History(ctx, p, id) ([]*CertificateVersion, error)               GET /v1/parcels/{id}/history
//	Service.RequestTransfer(ctx, p, id, TransferRequest) (*Transfer, error)  POST /v1/parcels/{id}/transfer (202)
//	Service.ListTransfers(ctx, p, parcelID) ([]*Transfer, error)             GET /v1/parcels/{id}/transfers
//	Service.GetTransfer(ctx, p, id) (*Transfer, error)                       GET /v1/transfers/{id}
//	Service.ApproveTransfer(ctx, p, id) (*Transfer, error)                   POST /v1/transfers/{id}/approve
//	Service.RejectTransfer(ctx, p, id, reason) (*Transfer, error)            POST /v1/transfers/{id}/reject
//	Service.CancelTransfer(ctx, p, id) (*Transfer, error)                    POST /v1/transfers/{id}/cancel
//	Service.VerifyHash(ctx, env, common.Hash) (*Verification, error)         GET /v1/registry/verify/{hash} (public)
//	Service.Statuses(ctx, env, since time.Time) (*StatusList, error)         GET /v1/registry/statuses (public; zero since = all)
//	Service.Token(ctx, env, tokenID) (*Token, error)                         GET /v1/tokens/{tokenId} (public; Token.Metadata() is the ERC-721 JSON)
//	DecodeCreateRequest(body) (CreateRequest, error), DecodeTransferRequest(body), DecodeReason(body)
//	VerifyCertificate(*SignedCertificate, VerifyOptions) (*OfflineResult, error)   offline, no storage
//	Service.AnchorPending(ctx) / Service.RunAnchoring(ctx)                   best-effort token anchoring worker
//
// Service.OnEvent(ctx, tx, Event) is called inside the transaction of every state
// change (Event.Action is one of the Action* constants) for the audit entry and outbox
// record. Event.CreatedBy and Event.CallbackURL name the parcel's creator and the
// optional callbackUrl of its create request (an extension of seed 000's body, checked
// by Service.ValidateCallback and refused when the Service has none): the reference
// server queues a signed webhook there for every transition after creation, owned by
// the creator's sub, with ids, states and hashes only. Errors are *veriland.Error values (validation_failed with one pointer per
// member, not_found, forbidden, invalid_state, parcel_overlap).
//
// # Lifecycle and roles
//
// Create stores a PENDING_NOTARY parcel ("prc_" + 26 base32) for the caller's account
// (any token with an acct). The named notary (a notary token whose sub is the notary
// id) or an admin certifies it (CERTIFIED) or rejects it (REJECTED, optional reason);
// another notary, or the parcel's own account, gets forbidden; anyone else not_found.
// An admin may revoke a CERTIFIED parcel (REVOKED), which also cancels an open
// transfer. Reads (Get, Certificate, History, ListTransfers) are for the parcel's
// account, an admin, its notary and its open transfer's notary. Every record is keyed
// by environment, and in SANDBOX also by account: another environment or another
// sandbox account sees not_found. In SANDBOX the notaries NOT-SBX-1, NOT-SBX-2 and
// NOT-SBX-3 certify at once, reject at once and never answer (for transfers too).
//
// # Certificates
//
// Certification writes certificate version 1: the JSON document {parcelId, version,
// owner {fullName, idDocHash}, parcel {gps, area_m2, city}, notary, certifiedAt
// (RFC 3339, whole seconds), tokenId}, whose hash is keccak256 of its RFC 8785 (JCS)
// form, "0x" + 64 hex. The issuer key (attestation.Issuer) signs EIP-712 typed data:
// domain {name "Parcel Certificate", version "1", chainId}, primary type
// ParcelCertificate {string parcelId; uint64 version; bytes32 certificateHash; string
// tokenId; string notary; uint64 certifiedAt (unix seconds)}, hand-encoded with
// internal/ethsig and checked against go-ethereum's apitypes in the tests. The
// signature is taken outside the write transaction when it can be (from a snapshot,
// used only if the parcel is unchanged), so that certifications do not serialise on
// ECDSA. Versions are never overwritten: a transfer or a revocation only changes a
// version's status (CURRENT → SUPERSEDED or REVOKED) and records what closed it.
//
// VerifyHash (public) answers by hash with public facts only. Statuses is the
// issuer-signed (EIP-191 over JCS) list of hashes that stopped being CURRENT; with it,
// VerifyCertificate tells CURRENT from SUPERSEDED and REVOKED with no network and no
// storage. Its errors wrap ErrMalformedCertificate, ErrHashMismatch, ErrBadSignature,
// ErrUntrustedIssuer and ErrBadStatusList.
//
// # Tokens
//
// Each certificate version mints an ERC-5192 token record (locked, ACTIVE): tokenId is
// uint256(keccak256(abi.encodePacked(string parcelId, uint64 version))) in decimal,
// metadataHash the certificate hash, owner a pseudonymous reference ("0x" + last 20
// bytes of keccak256(parcelId ‖ idDocHash)), never a name. A completed transfer or a
// revocation burns it (BURNED, burnedAt). Anchoring is best-effort: with an enabled
// anchor for the environment, minting queues a job in the same transaction (anchor
// PENDING) and the RunAnchoring/AnchorPending worker sends the certificate hash,
// recording ANCHORED or, after retries with backoff, FAILED; without one the token
// says DISABLED. Burns are published in the signed status list rather than anchored.
//
// # Transfers
//
// RequestTransfer ("trf_" + 26 base32, PENDING_NOTARY) needs a CERTIFIED parcel with
// no open transfer (else invalid_state), by the parcel's account or an admin.
// ApproveTransfer (the transfer's notary or an admin; anyone else who can see it gets
// forbidden) in one transaction supersedes the current version, burns its token, lists
// its hash in the status list, makes the new owner the parcel's, writes and signs the
// next version and mints its token. RejectTransfer (same roles) and CancelTransfer
// (the parcel's account or an admin) close it.
//
// # Personal data
//
// owner.fullName is stored only sealed with storage/fieldcrypt (AES-256-GCM, key id
// per record) under the associated data "parcel:<env>:<parcelId>:owner.fullName" —
// the same for every owner of a parcel, so a completed transfer moves the new owner's
// sealed name without opening it. id_doc is stored only as HMAC-SHA256(Pepper, id_doc)
// ("0x" + hex, the certificate's idDocHash) and its last 4 characters. Events,
// VerifyHash, tokens and history carry neither. When a name's key was erased, reads
// show an empty name and the certificate can no longer be served (invalid_state).
//
// # Boundaries
//
// The optional parcel.boundary (GeoJSON Polygon) is checked by ParseBoundary and
// CheckArea; at creation and again at certification it must not overlap the boundary
// of a CERTIFIED parcel of the same environment (parcel_overlap, meta parcelId).
// Revocation frees the boundary.
package parcel
