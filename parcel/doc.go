// Package parcel is the land parcel domain of SPEC S9: certification requests, the
// notary's decision, signed certificates verifiable by hash online and offline,
// land titles that are soulbound (ERC-5192) tokens on an EVM chain (SPEC S14),
// transfers of ownership and the registry's signed status list. It imports no HTTP;
// httpserver maps its error codes.
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
//	Service.RegisterChainJobs(*chainjob.Queue)                               the land-title jobs, on the server's one chain-job worker
//	Service.RunChainJobs(ctx) / Service.ChainJobsOnce(ctx)                   a worker of the land-title jobs alone (embedders)
//	Service.StartTitles(ctx, env, fresh) (int, error)                        at start: pre-chain tokens queued, a fresh chain re-minted
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
// # Land titles on chain
//
// Each certificate version has a land title: a token of the LandTitle contract
// (package parcel/landtitle: ERC-721 with ERC-5192, every token locked, every transfer
// and approval reverting, mint and burn by the registry account only) on the
// environment's chain, Service.Titles[env]. tokenId is
// uint256(keccak256(abi.encodePacked(string parcelId, uint64 version))) in decimal;
// the contract keeps the certificate hash (Token.MetadataHash) as the token's
// certificateHash, and tokenURI points at GET /v1/tokens/{tokenId}.
//
// The holder is the owner's bound wallet (HolderKind OWNER_WALLET) or, for an owner
// without one, the registry account itself (REGISTRY_CUSTODY): never an address
// nobody holds a key for. A later transfer to a wallet moves the land, not the token:
// the old title is burned and the new version's minted to the new holder.
//
// Chain work never runs on the request path. Certification and a completed transfer
// queue a job (storage/chainjob, kind JobTitle) in the transaction of the state
// change, and the token says PENDING; the worker (the reference server's one chain-job
// worker, run by the anchoring leader; or RunChainJobs) brings the chain in line with
// the record: it reads the chain first, mints when the title is not there, burns once
// the version is closed (BurnRequestedAt), and records MINTED (mintTx, mintedAt) or
// BURNED (burnTx, burnedAt); after its retries with backoff, FAILED with the error.
// Because it reads before it sends, and the contract refuses a second mint of a token
// id (even a burned one), a worker killed between sending and recording never mints
// twice: the next run finds the title and records the original transaction. Without
// a chain the token is DISABLED, and a closed version's token BURNED at once, with no
// transaction. A title is the certificate hash's anchor: Token.Anchor and the
// verification's anchor say ANCHORED with the mint's transaction.
//
// StartTitles, at start, queues tokens stored before land titles went on chain, and
// DISABLED ones once a chain is configured; with fresh (the sandbox's in-process
// chain, empty at each start) it mints every current title again. Burns are also
// published, signed, in the status list, for verifiers without a chain.
//
// Gas (parcel/landtitle's doc has the measurements): a mint costs about 95,000 gas on
// mainnet rules and a burn about 33,000; the registry account pays both.
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
// verifies). The land title is minted to the bound wallet. A wallet address is stored
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
