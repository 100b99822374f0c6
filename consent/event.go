package consent

import (
	"context"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// EventType names a state change of a verification request. Every type but
// EventCreated is also a webhook event type of SPEC S8.
type EventType string

// The state changes the Service reports.
const (
	EventCreated   EventType = "verification.created"   // a PENDING request was stored
	EventApproved  EventType = "verification.approved"  // PENDING → APPROVED, with its attestation
	EventRejected  EventType = "verification.rejected"  // PENDING → REJECTED
	EventExpired   EventType = "verification.expired"   // PENDING → EXPIRED (on read, decision or sweep)
	EventCancelled EventType = "verification.cancelled" // PENDING → CANCELLED by its verifier
)

// Webhook reports whether t is sent to the verifier's callbackUrl.
func (t EventType) Webhook() bool { return t != EventCreated && t != "" }

// Event describes one state change. It carries identifiers and states only, never
// personal data, so it may go into the audit log and the webhook payload as is.
type Event struct {
	Env  veriland.Environment
	Type EventType
	// Request is the request after the change (a copy; CallbackURL and Account say
	// where its webhook goes).
	Request *Request
	// Attestation is the CONSENT attestation of EventApproved; nil otherwise.
	Attestation *attestation.Attestation
	// Actor is who caused the change: the verifier's sub (created, cancelled), the
	// subjectRef (approved, rejected) or "system" (expired).
	Actor string
	At    time.Time
}

// ActorSystem is the Actor of changes nobody asked for (expiry).
const ActorSystem = "system"

// EventHook is called inside the storage transaction of every state change, after the
// request was written, so that an audit entry or webhook outbox record commits (or
// rolls back) with it. It may run more than once for one change (storage.Store.Update
// may retry), so it must have no effect outside tx. A non-nil error rolls the whole
// change back, attestation included, and is returned to the caller.
type EventHook func(ctx context.Context, tx storage.Tx, ev Event) error

// EventPreparer does, before the write transaction, the work of OnEvent that needs no
// transaction (encoding the audit entry and the webhook payload, say) for the event a
// decision expects to make, and returns the function that finishes it inside the
// transaction, so that the write lock is held for the writes only. The returned
// function gets the event the transaction actually made, and must have exactly the
// effect OnEvent would have on it: when that event differs from the expected one in
// anything the preparation used, it does OnEvent's work itself. Like OnEvent it may
// run more than once and must have no effect outside tx.
//
// An error from EventPreparer is not returned to the caller: the decision then calls
// OnEvent inside the transaction, which reports it in order with the other checks.
type EventPreparer func(ctx context.Context, ev Event) (func(ctx context.Context, tx storage.Tx, ev Event) error, error)

func (s *Service) emit(ctx context.Context, tx storage.Tx, ev Event) error {
	if s.OnEvent == nil {
		return nil
	}
	ev.Request = ev.Request.Clone()
	return s.OnEvent(ctx, tx, ev)
}

// prepare runs PrepareEvent for ev, the event a decision expects to make; nil when the
// Service has none (or no OnEvent for it to stand in for), or when it failed.
func (s *Service) prepare(ctx context.Context, ev Event) func(ctx context.Context, tx storage.Tx, ev Event) error {
	if s.OnEvent == nil || s.PrepareEvent == nil {
		return nil
	}
	ev.Request = ev.Request.Clone()
	finish, err := s.PrepareEvent(ctx, ev)
	if err != nil {
		return nil // OnEvent, in the transaction, reports it where it belongs
	}
	return finish
}

// emitPrepared is emit through finish, what prepare returned, when there is one.
func (s *Service) emitPrepared(ctx context.Context, tx storage.Tx, ev Event, finish func(context.Context, storage.Tx, Event) error) error {
	if finish == nil {
		return s.emit(ctx, tx, ev)
	}
	ev.Request = ev.Request.Clone()
	return finish(ctx, tx, ev)
}
