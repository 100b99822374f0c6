package parcel

import (
	"encoding/json"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
)

// Id prefixes: "prc_" and "trf_" followed by 26 random base32 characters.
const (
	IDPrefix         = "prc"
	TransferIDPrefix = "trf"
)

// Status is the state of a parcel (SPEC S9).
type Status string

// Parcel states.
const (
	StatusPendingNotary Status = "PENDING_NOTARY" // created, waiting for the named notary
	StatusCertified     Status = "CERTIFIED"      // certified: a current certificate and an ACTIVE token
	StatusRejected      Status = "REJECTED"       // refused by the notary (final)
	StatusRevoked       Status = "REVOKED"        // revoked by an admin after certification (final)
)

// TransferStatus is the state of a transfer of ownership.
type TransferStatus string

// Transfer states.
const (
	TransferPendingOwner  TransferStatus = "PENDING_OWNER"  // waiting for the owner's signed decision (SPEC S13)
	TransferPendingNotary TransferStatus = "PENDING_NOTARY" // waiting for the named notary
	TransferCompleted     TransferStatus = "COMPLETED"      // the new owner holds the parcel (final)
	TransferRejected      TransferStatus = "REJECTED"       // refused by the owner or the notary (final)
	TransferCancelled     TransferStatus = "CANCELLED"      // withdrawn by the requester or an admin (final)
	TransferExpired       TransferStatus = "EXPIRED"        // the owner did not answer before the deadline (final)
)

// Open reports whether a transfer in status st still awaits a decision.
func (st TransferStatus) Open() bool {
	return st == TransferPendingOwner || st == TransferPendingNotary
}

// OwnerBinding says how an owner's wallet was bound to the owner (SPEC S13).
type OwnerBinding string

// Owner bindings.
const (
	// BindingNone: no wallet, or a wallet the notary has not verified yet (a parcel
	// before certification, a transfer before approval).
	BindingNone OwnerBinding = "NONE"
	// BindingNotaryVerified: the named notary certified the parcel or approved the
	// transfer with this wallet, having verified the person and the wallet.
	BindingNotaryVerified OwnerBinding = "NOTARY_VERIFIED"
	// BindingIdentityVerified: as NOTARY_VERIFIED, and the wallet is also the wallet
	// of an ACTIVE identity (SPEC S3), whose DID the owner shows.
	BindingIdentityVerified OwnerBinding = "IDENTITY_VERIFIED"
)

// Ways an owner consents to a transfer.
const (
	// ConsentOwnerSignature: the owner signed an EIP-712 TransferConsent with the
	// parcel's bound wallet.
	ConsentOwnerSignature = "OWNER_SIGNATURE"
	// ConsentNotaryWitnessed: the owner has no wallet; the approving notary attests
	// that the owner appeared and agreed.
	ConsentNotaryWitnessed = "NOTARY_WITNESSED"
)

// Who rejected a transfer (Transfer.RejectedBy).
const (
	RejectedByOwner  = "OWNER"
	RejectedByNotary = "NOTARY"
)

// CertificateStatus is the status of one certificate version.
type CertificateStatus string

// Certificate version states.
const (
	CertificateCurrent    CertificateStatus = "CURRENT"
	CertificateSuperseded CertificateStatus = "SUPERSEDED"
	CertificateRevoked    CertificateStatus = "REVOKED"
)

// TokenStatus is where a land title token stands on its chain (SPEC S14).
type TokenStatus string

// Token states: PENDING → MINTED → BURNED; FAILED after the retries; DISABLED where
// the environment has no chain.
const (
	TokenPending  TokenStatus = "PENDING"  // the mint is queued
	TokenMinted   TokenStatus = "MINTED"   // on chain, held by Holder
	TokenBurned   TokenStatus = "BURNED"   // burned on chain (or, without a chain, retired by the registry)
	TokenFailed   TokenStatus = "FAILED"   // the mint or the burn failed after its retries (Error says why)
	TokenDisabled TokenStatus = "DISABLED" // the environment has no chain: the token is a registry record only

	// tokenLegacyActive is the status of tokens stored before land titles went on
	// chain; StartTitles queues them for minting.
	tokenLegacyActive TokenStatus = "ACTIVE"
)

// HolderKind says who holds a land title token.
type HolderKind string

// Holder kinds.
const (
	HolderOwnerWallet     HolderKind = "OWNER_WALLET"     // the owner's bound wallet (SPEC S13)
	HolderRegistryCustody HolderKind = "REGISTRY_CUSTODY" // the registry account, for an owner without a wallet
)

// OwnerView is the owner of a parcel as returned to authorised callers: the full
// name (decrypted), never the id_doc itself but its HMAC and last 4 characters.
//
// WalletAddress (lower case) is the owner's wallet when one was given; Binding says
// whether a notary has bound it yet (NONE until certification or approval) and DID
// names the ACTIVE identity of that wallet when Binding is IDENTITY_VERIFIED.
type OwnerView struct {
	FullName      string       `json:"fullName"`
	IDDocHash     string       `json:"idDocHash"`
	IDDocLast4    string       `json:"idDocLast4"`
	WalletAddress string       `json:"walletAddress,omitempty"`
	Binding       OwnerBinding `json:"binding"`
	DID           string       `json:"did,omitempty"`
}

// Parcel is a certification request and, once certified, its current certificate and
// token. It is what Get and List return.
type Parcel struct {
	ID      string               `json:"id"`
	Env     veriland.Environment `json:"environment"`
	Account string               `json:"account"`
	// CreatedBy is the sub of the token that created the request.
	CreatedBy string          `json:"createdBy"`
	Status    Status          `json:"status"`
	Owner     OwnerView       `json:"owner"`
	GPS       [2]float64      `json:"gps"`
	AreaM2    float64         `json:"area_m2"`
	City      string          `json:"city"`
	Boundary  json.RawMessage `json:"boundary,omitempty"`
	Notary    string          `json:"notary"`
	// Version is the current certificate version (0 before certification).
	Version         uint64     `json:"version"`
	CertificateHash string     `json:"certificateHash,omitempty"`
	Token           *Token     `json:"token,omitempty"`
	OpenTransferID  string     `json:"openTransferId,omitempty"`
	Reason          string     `json:"reason,omitempty"`
	CreatedAt       time.Time  `json:"createdAt"`
	UpdatedAt       time.Time  `json:"updatedAt"`
	CertifiedAt     *time.Time `json:"certifiedAt,omitempty"`
	DecidedAt       *time.Time `json:"decidedAt,omitempty"`
	RevokedAt       *time.Time `json:"revokedAt,omitempty"`
}

// Transfer is a request to change the owner of a CERTIFIED parcel.
type Transfer struct {
	ID        string               `json:"id"`
	Env       veriland.Environment `json:"environment"`
	ParcelID  string               `json:"parcelId"`
	Account   string               `json:"account"`
	CreatedBy string               `json:"createdBy"`
	Status    TransferStatus       `json:"status"`
	NewOwner  OwnerView            `json:"newOwner"`
	Notary    string               `json:"notary"`
	// FromVersion is the certificate version the transfer replaces; ToVersion the one
	// it created (COMPLETED only).
	FromVersion uint64 `json:"fromVersion"`
	ToVersion   uint64 `json:"toVersion,omitempty"`
	// OwnerConsent is how the current owner consents: by signature (method
	// OWNER_SIGNATURE, with the typed data to sign, its deadline and, once decided,
	// the decision and signature), or NOTARY_WITNESSED for an owner without a wallet.
	OwnerConsent *OwnerConsent `json:"ownerConsent"`
	// RequireLiveness, when set, makes the owner's approval need a recent liveness
	// attestation of the identity of the owner's wallet.
	RequireLiveness *consent.LivenessRequirement `json:"requireLiveness"`
	// RejectedBy is OWNER or NOTARY for a REJECTED transfer.
	RejectedBy string     `json:"rejectedBy,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	DecidedAt  *time.Time `json:"decidedAt,omitempty"`
}

// OwnerConsent is the owner's part in a transfer (SPEC S13).
type OwnerConsent struct {
	// Method is OWNER_SIGNATURE or NOTARY_WITNESSED.
	Method string `json:"method"`
	// URL is the owner's page (GET /v1/transfers/{id}/owner-consent); the HTTP layer
	// fills it in from its public origin.
	URL string `json:"url,omitempty"`
	// TypedData is the TransferConsent to sign, every member filled but "decision",
	// which the owner's client adds ("APPROVED" or "REJECTED").
	TypedData *attestation.TypedData `json:"typedData,omitempty"`
	// Deadline is when the transfer expires without the owner's answer.
	Deadline *time.Time `json:"deadline,omitempty"`
	// OwnerWallet is the wallet that must sign: the parcel owner's bound wallet.
	OwnerWallet string `json:"ownerWallet,omitempty"`
	// Decision, Signer, Signature and DecidedAt record the owner's signed answer.
	Decision  string        `json:"decision,omitempty"`
	Signer    string        `json:"signer,omitempty"`
	Signature hexutil.Bytes `json:"signature,omitempty"`
	DecidedAt *time.Time    `json:"decidedAt,omitempty"`
}

// Token is the land title of one certificate version: an ERC-5192 (soulbound,
// locked) token of the LandTitle contract (package parcel/landtitle) on the
// environment's chain. TokenID is uint256(keccak256(abi.encodePacked(string parcelId,
// uint64 version))) as a decimal string; MetadataHash is the certificate hash, which
// the contract keeps as the token's certificateHash.
//
// Holder is the owner's bound wallet (HolderKind OWNER_WALLET) or, for an owner
// without one, the registry's custody account (REGISTRY_CUSTODY, the address that
// mints): never an address nobody holds a key for. The chain work is asynchronous:
// Status is PENDING until the chain-job worker has minted it, then MINTED with MintTx;
// when the version is closed (a transfer, a revocation) BurnRequestedAt is set and the
// worker burns it: BURNED with BurnTx. Anchor is the certificate hash's anchor, which
// is the mint itself.
type Token struct {
	TokenID      string      `json:"tokenId"`
	Standard     string      `json:"standard"`
	Locked       bool        `json:"locked"`
	ChainID      uint64      `json:"chainId"`
	Contract     string      `json:"contract,omitempty"`
	Holder       string      `json:"holder,omitempty"`
	HolderKind   HolderKind  `json:"holderKind"`
	Status       TokenStatus `json:"status"`
	MetadataHash string      `json:"metadataHash"`
	MintTx       string      `json:"mintTx,omitempty"`
	BurnTx       string      `json:"burnTx,omitempty"`
	MintedAt     *time.Time  `json:"mintedAt,omitempty"`
	BurnedAt     *time.Time  `json:"burnedAt,omitempty"`
	// BurnRequestedAt is when the registry closed the token's certificate version;
	// the burn on chain follows.
	BurnRequestedAt *time.Time `json:"burnRequestedAt,omitempty"`
	// Error is the last chain error of a FAILED token.
	Error    string  `json:"error,omitempty"`
	ParcelID string  `json:"parcelId"`
	Version  uint64  `json:"version"`
	City     string  `json:"city"`
	AreaM2   float64 `json:"area_m2"`
	// IssuedAt is when the registry issued the token (the certification or the
	// transfer), MintedAt when the chain minted it.
	IssuedAt time.Time               `json:"issuedAt"`
	Anchor   attestation.AnchorState `json:"anchor"`
	// MintBlock is the block of MintTx.
	MintBlock uint64 `json:"mintBlock,omitempty"`
}

// Metadata returns the token's ERC-721 metadata JSON object (GET /v1/tokens/{id}):
// name, description and attributes (city, area, version, status, locked), no personal
// data.
func (t *Token) Metadata() map[string]any {
	return map[string]any{
		"name":        "Land parcel " + t.ParcelID + " v" + uitoa(t.Version),
		"description": "Soulbound (ERC-5192) certificate token of land parcel " + t.ParcelID + ", certificate version " + uitoa(t.Version) + ", certificate hash " + t.MetadataHash + ".",
		"attributes": []map[string]any{
			{"trait_type": "city", "value": t.City},
			{"trait_type": "area_m2", "value": t.AreaM2, "display_type": "number"},
			{"trait_type": "version", "value": t.Version, "display_type": "number"},
			{"trait_type": "status", "value": string(t.Status)},
			{"trait_type": "locked", "value": t.Locked},
		},
		"locked":        t.Locked,
		"tokenId":       t.TokenID,
		"standard":      t.Standard,
		"metadataHash":  t.MetadataHash,
		"certificateOf": t.ParcelID,
	}
}

// CertificateVersion is one version of a parcel's certificate, as History and
// VerifyHash list it: no personal data.
type CertificateVersion struct {
	ParcelID    string            `json:"parcelId"`
	Version     uint64            `json:"version"`
	Hash        string            `json:"hash"`
	Status      CertificateStatus `json:"status"`
	TokenID     string            `json:"tokenId"`
	TokenStatus TokenStatus       `json:"tokenStatus"`
	Notary      string            `json:"notary"`
	CertifiedAt time.Time         `json:"certifiedAt"`
	// ClosedAt and ClosedBy say when and by which transfer ("trf_…") or revocation
	// ("revocation") the version stopped being CURRENT.
	ClosedAt *time.Time `json:"closedAt,omitempty"`
	ClosedBy string     `json:"closedBy,omitempty"`
	// OwnerWallet and OwnerBinding are the owner's bound wallet in this version (a
	// public address, never a name); empty and NONE for an owner without a wallet.
	OwnerWallet  string       `json:"ownerWallet,omitempty"`
	OwnerBinding OwnerBinding `json:"ownerBinding,omitempty"`
	// TransferID is the transfer that created this version (none for version 1), and
	// OwnerConsent how the previous owner consented to it: OWNER_SIGNATURE or
	// NOTARY_WITNESSED.
	TransferID   string `json:"transferId,omitempty"`
	OwnerConsent string `json:"ownerConsent,omitempty"`
}

// Verification is the public answer of VerifyHash: no personal data.
type Verification struct {
	Authentic   bool                    `json:"authentic"`
	Status      CertificateStatus       `json:"status"`
	ParcelID    string                  `json:"parcelId"`
	Version     uint64                  `json:"version"`
	CertifiedAt time.Time               `json:"certifiedAt"`
	Notary      string                  `json:"notary"`
	City        string                  `json:"city"`
	TokenID     string                  `json:"tokenId"`
	Anchor      attestation.AnchorState `json:"anchor"`
	Hash        string                  `json:"hash"`
	// OwnerWallet and OwnerBinding are the version's owner wallet and its binding
	// (never a name).
	OwnerWallet  string       `json:"ownerWallet,omitempty"`
	OwnerBinding OwnerBinding `json:"ownerBinding,omitempty"`
	// GPS ([lat, lon]), AreaM2 and Boundary (the parcel's GeoJSON Polygon, absent
	// when none was surveyed) say where the land is: public like the city, and what
	// the verification page and the PDF draw. None names the owner.
	GPS      [2]float64      `json:"gps"`
	AreaM2   float64         `json:"area_m2"`
	Boundary json.RawMessage `json:"boundary,omitempty"`
	// History lists every version of the parcel's certificate, oldest first.
	History []*CertificateVersion `json:"history"`
	// Token is the version's land title: contract, holder (a wallet or the
	// registry's custody account, never a name), status and transactions.
	Token *Token `json:"token"`
}
