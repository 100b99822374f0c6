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
//	Service.OpenTransfers(ctx, p, status, cursor, limit)                     GET /v1/transfers?status=PENDING_NOTARY|PENDING_OWNER
//	Service.OwnerConsentContext(ctx, env, id) (*OwnerConsentView, error)     GET /v1/transfers/{id}/owner-consent (public)
//	Service.DecideOwner(ctx, env, id, OwnerDecision) (*Transfer, error)      POST /v1/transfers/{id}/owner-consent (public; signed)
//	Service.TransferEnv(ctx, id) (veriland.Environment, error)               which environment holds a transfer (public routes)
//	Service.MyParcels(ctx, p, cursor, limit) ([]*OwnedParcel, next, error)  GET /v1/me/parcels (holder, by wallet)
//	Service.ExpireOwnerDeadlines(ctx, now, limit) (int, error)               the sweeper of owners' deadlines
//	Service.VerifyHash(ctx, env, common.Hash) (*Verification, error)         GET /v1/registry/verify/{hash} (public)
//	Service.Statuses(ctx, env, since time.Time) (*StatusList, error)         GET /v1/registry/statuses (public; zero since = all)
//	Service.Token(ctx, env, tokenID) (*Token, error)                         GET /v1/tokens/{tokenId} (public; Token.Metadata() is the ERC-721 JSON)
//	DecodeCreateRequest(body) (CreateRequest, error), DecodeTransferRequest(body), DecodeReason(body), DecodeOwnerDecision(body)
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
// The principal that created a parcel never certifies it, admins included
// (forbidden, meta.reason "separation_of_duties"): no single principal puts land on
// the register.
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
// # Owners and their wallets
//
// In land registries the costly fraud is a transfer the owner never wanted: an
// impostor before a notary, or a notary or clerk acting alone. So no single principal
// moves land, and an owner who holds a wallet signs the transfer.
//
// owner.walletAddress (on creation) and newOwner.walletAddress (on a transfer request)
// are optional Ethereum addresses ("0x" + 40 hex; a mixed-case one must carry a valid
// EIP-55 checksum), stored in lower case. A wallet is only a proposal until the named
// notary certifies the parcel or approves the transfer, having verified the person and
// the wallet: then owner.binding becomes NOTARY_VERIFIED, or IDENTITY_VERIFIED when the
// wallet is also the wallet of an ACTIVE identity (Service.Identities), whose DID the
// owner shows. Before that it is NONE. The certificate of a bound owner carries
// walletAddress, binding and did in its owner member, and its EIP-712 typed data one
// more member, address ownerWallet (EncodedTypeWithWallet; certificates of owners
// without a wallet keep S9's exact layout, so that every certificate ever issued still
// verifies). The token record's owner is the bound wallet. A wallet address is stored
// as is: it is public (and will be on chain); names stay sealed and id_doc a keyed
// hash.
//
// # Transfers
//
// RequestTransfer ("trf_" + 26 base32) needs a CERTIFIED parcel with no open transfer
// (else invalid_state), by the parcel's account (any role but notary) or an admin. A
// notary never asks for what it decides: forbidden, separation_of_duties.
//
// When the parcel's owner has a bound wallet the transfer starts PENDING_OWNER:
// Transfer.OwnerConsent holds the TransferConsent the owner signs (EIP-712, domain
// {name "Land Transfer", version "1", chainId}, TransferEncodedType; served with every
// member but "decision"), the owner's wallet and a deadline (expiresInSeconds, 60 s to
// 30 days, default 7 days). The owner answers through the public DecideOwner with
// {decision, ownerSignature, ownerAddress}: the signature must recover, low-s only, to
// the bound wallet over exactly this transfer, version, new owner, notary, nonce and
// deadline. APPROVED moves it to PENDING_NOTARY (with requireLiveness, only if the
// wallet's identity holds a qualifying liveness attestation: liveness_required
// otherwise); REJECTED ends it (REJECTED, rejectedBy OWNER). A transfer nobody
// answered becomes EXPIRED at its deadline, on any read or decision and by
// ExpireOwnerDeadlines, the sweeper, which replicas may all run (each expiry re-reads
// its transfer in its own transaction). An owner without a wallet cannot sign: the
// transfer starts PENDING_NOTARY with owner consent NOTARY_WITNESSED, the notary
// attesting that the owner appeared, which the audit entries and the certificate
// history record.
//
// ApproveTransfer (the transfer's notary or an admin; anyone else who can see it gets
// forbidden, and so does the principal that requested it, admins included) works on
// PENDING_NOTARY only (PENDING_OWNER: invalid_state). In one transaction it supersedes
// the current version, burns its token, lists its hash in the status list, makes the
// new owner the parcel's (binding the new owner's wallet), writes and signs the next
// version (recording the transfer and how the owner consented) and mints its token.
// RejectTransfer (same roles; REJECTED, rejectedBy NOTARY) and CancelTransfer (the
// parcel's account or an admin) close an open transfer. Every change emits an Event
// (transfer.requested, transfer.owner_approved, transfer.owner_rejected,
// transfer.completed, transfer.rejected, transfer.cancelled, transfer.expired) inside
// its transaction. MyParcels lists to a holder signed in with a wallet the parcels
// whose bound owner wallet it is, across accounts, without names.
//
// # Personal data
//
// owner.fullName is stored only sealed with storage/fieldcrypt (AES-256-GCM, key id
// per record) under the associated data "parcel:<env>:<parcelId>:owner.fullName" —
// the same for every owner of a parcel, so a completed transfer moves the new owner's
// sealed name without opening it. id_doc is stored only as HMAC-SHA256(Pepper, id_doc)
// ("0x" + hex, the certificate's idDocHash) and its last 4 characters. Events,
// VerifyHash, tokens, history, the owner's consent view and MyParcels carry neither. When a name's key was erased, reads
// show an empty name and the certificate can no longer be served (invalid_state).
//
// # Boundaries
//
// The optional parcel.boundary (GeoJSON Polygon) is checked by ParseBoundary and
// CheckArea; at creation and again at certification it must not overlap the boundary
// of a CERTIFIED parcel of the same environment (parcel_overlap, meta parcelId).
// Revocation frees the boundary.
package parcel
