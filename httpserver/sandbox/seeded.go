package sandbox

import "time"

// Seeded lists the records seeded into one account's sandbox, by role, so that a
// newcomer can use them at once (GET /v1/sandbox/scenarios, member "seeded").
type Seeded struct {
	Parcels              SeededParcels  `json:"parcels"`
	Transfers            SeededTransfer `json:"transfers"`
	VerificationRequests SeededRequests `json:"verificationRequests"`
	Attestations         SeededConsent  `json:"attestations"`
	Holder               SeededHolder   `json:"holder"`
	// WalletOwnedParcel is the parcel whose owner holds a wallet: the seeded holder's,
	// so that Holder.PrivateKey signs the owner's decisions on its transfers (SPEC
	// S13). Empty when the seeder has no identity service.
	WalletOwnedParcel SeededWalletParcel `json:"walletOwnedParcel"`
	// InboundWebhook is the account's inbound test provider: POST /v1/webhooks/{its
	// provider}, Standard Webhooks, with its secret and an example event signed when
	// the sandbox was read (see SeededInbound). A reset makes a new secret.
	InboundWebhook SeededInbound `json:"inboundWebhook"`
}

// SeededParcels are the seeded parcels, one per state.
type SeededParcels struct {
	Certified        string `json:"certified"`        // CERTIFIED by NOT-SBX-1
	Rejected         string `json:"rejected"`         // REJECTED by NOT-SBX-2
	Pending          string `json:"pending"`          // PENDING_NOTARY, named notary NOT-SBX-3 (never answers)
	WithOpenTransfer string `json:"withOpenTransfer"` // CERTIFIED, with a transfer waiting for NOT-SBX-3
}

// SeededWalletParcel is the seeded parcel of an owner with a wallet: CERTIFIED by
// NOT-SBX-1 with the seeded holder's wallet as the owner's, bound IDENTITY_VERIFIED
// (the wallet is also the holder identity's, whose DID the parcel shows). A transfer
// of it starts PENDING_OWNER and needs the owner's signature (Holder.PrivateKey), and
// the holder signed in with that wallet lists it at GET /v1/me/parcels.
type SeededWalletParcel struct {
	ID          string `json:"id"`          // the parcel, prc_…
	OwnerWallet string `json:"ownerWallet"` // the owner's bound wallet: Holder.WalletAddress
	Binding     string `json:"binding"`     // IDENTITY_VERIFIED
	OwnerDID    string `json:"ownerDid"`    // the identity of the wallet: Holder.DID
}

// SeededTransfer is the seeded open transfer.
type SeededTransfer struct {
	Open string `json:"open"` // PENDING_NOTARY on Parcels.WithOpenTransfer
}

// SeededRequests are the seeded verification requests of the seed verifier.
type SeededRequests struct {
	Approved string `json:"approved"` // APPROVED by the seeded holder
	Pending  string `json:"pending"`  // PENDING, for the seeded holder to answer
}

// SeededConsent is the consent attestation of the approved request.
type SeededConsent struct {
	Consent string `json:"consent"`
}

// SeededHolder is the seeded holder identity and its throwaway wallet. The private key
// is shown on purpose: it exists only in this account's sandbox, so that a newcomer
// can sign consent decisions at once.
type SeededHolder struct {
	SubjectRef    string `json:"subjectRef"`
	DID           string `json:"did"`
	WalletAddress string `json:"walletAddress"`
	PrivateKey    string `json:"privateKey"`
}

// State is an account's sandbox: when it was seeded and what.
type State struct {
	Account  string    `json:"account"`
	SeededAt time.Time `json:"seededAt"`
	Seeded   Seeded    `json:"seeded"`
}
