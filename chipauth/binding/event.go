package binding

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
	// ActionBound: a document was bound (or bound again by the same holder) and its
	// CHIP_BINDING attestation issued.
	ActionBound Action = "chip_binding.bound"
	// ActionRejected: a binding failed verification or a business rule
	// (passive_auth_failed, liveness_required, face_mismatch,
	// document_already_bound). Malformed requests (400) are not reported.
	ActionRejected Action = "chip_binding.rejected"
)

// Event describes one binding outcome. It carries identifiers, the mode and error
// codes only — never the document key, MRZ data, templates or scores — so it may go
// into the audit log and webhook payloads as is.
type Event struct {
	Env           veriland.Environment // where it happened
	Action        Action               // what happened
	Holder        string               // the holder's DID
	AttestationID string               // ActionBound: the CHIP_BINDING attestation
	Mode          Mode                 // ActionBound
	Rebound       bool                 // ActionBound: the holder had bound this document before
	Code          veriland.Code        // ActionRejected: the error code returned
	Step          string               // ActionRejected with passive_auth_failed: the failed step
	At            time.Time            // the service's clock
}

// EventHook is called inside the storage transaction of every binding, after the
// document record and the attestation were written, so that an audit entry or
// webhook outbox record commits (or rolls back) with them; and in a transaction of
// its own for every rejection. It may run more than once for one outcome
// (storage.Store.Update may retry), so it must have no effect outside tx. A non-nil
// error rolls everything back and is returned by Bind.
type EventHook func(ctx context.Context, tx storage.Tx, ev Event) error
