package liveness

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Action names what happened, as reported to Service.OnEvent.
type Action string

// The actions the Service reports.
const (
	// ActionDeviceEnrolled: a new device was stored (not reported for a repeated
	// enrolment of the same key by the same holder).
	ActionDeviceEnrolled Action = "liveness.device_enrolled"
	// ActionVerified: a verification passed and its LIVENESS attestation was issued.
	ActionVerified Action = "liveness.verified"
	// ActionRejected: a verification failed; Reasons lists every failed check.
	ActionRejected Action = "liveness.rejected"
)

// Event describes one liveness outcome. It carries identifiers, levels and reason
// codes only — never evidence values, frames or anything biometric — so it may go into
// the audit log and webhook payloads as is.
type Event struct {
	Env           veriland.Environment // where it happened
	Action        Action               // what happened
	Holder        string               // the holder's DID
	DeviceID      string               // the enrolled device, when known
	SessionID     string               // ActionVerified, ActionRejected
	Level         Level                // the session's level, when known
	AttestationID string               // ActionVerified
	Reasons       []Reason             // ActionRejected
	At            time.Time            // the service's clock
}

// EventHook is called inside the storage transaction of every enrolment and
// verification, so that an audit entry or webhook outbox record commits (or rolls
// back) with it. It may run more than once for one outcome (storage.Store.Update may
// retry), so it must have no effect outside tx. A non-nil error rolls everything back,
// including the consumption of the session.
type EventHook func(ctx context.Context, tx storage.Tx, ev Event) error
