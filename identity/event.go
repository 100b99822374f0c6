package identity

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Action names a state change of an identity or review, as reported to OnChange.
type Action string

// The state changes the Service reports.
const (
	// ActionCreated: a new identity was stored in PENDING_KYC, before its provider
	// was asked.
	ActionCreated Action = "identity.created"
	// ActionAborted: the provider could not be asked (or refused the payload), so the
	// identity created by the same Issue call was removed again.
	ActionAborted Action = "identity.aborted"
	// ActionKYCCompleted: PENDING_KYC became ACTIVE, REJECTED or PENDING_REVIEW.
	ActionKYCCompleted Action = "identity.kyc_completed"
	// ActionReviewDecided: an OPEN review was decided and its identity became ACTIVE
	// or REJECTED.
	ActionReviewDecided Action = "identity.review_decided"
	// ActionClaimsUpdated: the claims derived from a chip binding were recorded
	// (SetChipClaims); the status is unchanged (From = To).
	ActionClaimsUpdated Action = "identity.claims_updated"
)

// Event describes one state change. It carries identifiers and states only, never
// personal data, so it may go into the audit log and webhook payloads as is.
type Event struct {
	Env          veriland.Environment
	Action       Action
	DID          string
	From         Status       // state before the change; "" for ActionCreated
	To           Status       // state after the change; "" for ActionAborted
	ReviewID     string       // set when a review was opened or decided
	ReviewStatus ReviewStatus // the review's state after the change, when ReviewID is set
	At           time.Time
}

// ChangeHook is called inside the storage transaction of every state change, so that
// an audit entry or webhook outbox record commits (or rolls back) with it. It may run
// more than once for one change (storage.Store.Update may retry), so it must have no
// effect outside tx. A non-nil error rolls the change back.
type ChangeHook func(ctx context.Context, tx storage.Tx, ev Event) error
