package webhook

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// DeliveryIDPrefix is the type prefix of delivery ids ("msg_…"). A delivery's id is also
// the webhook-id of every attempt, so receivers can drop repeats.
const DeliveryIDPrefix = "msg"

// Status is where a delivery stands.
type Status string

// The states of a delivery. PENDING → SUCCEEDED on a 2xx, PENDING → FAILED once
// DeliveryWindow has passed since the first attempt; Outbox.Replay takes either back to
// PENDING.
const (
	StatusPending   Status = "PENDING"
	StatusSucceeded Status = "SUCCEEDED"
	StatusFailed    Status = "FAILED"
)

// Valid reports whether s is one of the three states.
func (s Status) Valid() bool {
	return s == StatusPending || s == StatusSucceeded || s == StatusFailed
}

// Delivery is one outbound event to one callback URL, with every attempt made so far.
// Its JSON form is what the deliveries API shows (zero times are left out).
type Delivery struct {
	ID        string               `json:"id"`                // "msg_…", the webhook-id
	Env       veriland.Environment `json:"env"`               // the environment it belongs to
	Verifier  string               `json:"verifier"`          // whose secret signs it and who may see it
	Account   string               `json:"account,omitempty"` // the verifier's account, for sandbox isolation
	EventType string               `json:"eventType"`         // e.g. "verification.approved"
	URL       string               `json:"url"`               // the callback URL
	// Payload is the exact body sent on every attempt, replays included:
	// {"type","timestamp","data"}, built once at Enqueue.
	Payload        json.RawMessage   `json:"payload"`
	Status         Status            `json:"status"`                  // PENDING, SUCCEEDED or FAILED
	Attempts       []DeliveryAttempt `json:"attempts"`                // oldest first, replays included
	CreatedAt      time.Time         `json:"createdAt"`               // when it was enqueued
	FirstAttemptAt time.Time         `json:"firstAttemptAt,omitzero"` // start of the current 24-hour window
	NextAttemptAt  time.Time         `json:"nextAttemptAt,omitzero"`  // while PENDING
	DeliveredAt    time.Time         `json:"deliveredAt,omitzero"`    // when SUCCEEDED
	Replays        int               `json:"replays,omitempty"`       // manual replays so far
}

// DeliveryAttempt is one stored attempt of a Delivery.
type DeliveryAttempt struct {
	At         time.Time `json:"at"`              // when it started; its webhook-timestamp
	StatusCode int       `json:"statusCode"`      // 0 when no answer was received
	LatencyMs  int64     `json:"latencyMs"`       // from sending to the end of the answer
	Error      string    `json:"error,omitempty"` // "" on success; safe to show the verifier
}

func attemptRecord(a Attempt) DeliveryAttempt {
	return DeliveryAttempt{
		At:         a.At.UTC(),
		StatusCode: a.StatusCode,
		LatencyMs:  a.Latency.Milliseconds(),
		Error:      a.Err,
	}
}

// Buckets of the outbox. Deliveries and their list indexes live in the environment's
// namespace; the due index is global so that one scan finds the work of both
// environments, and it names the environment in each key.
const (
	deliveriesBucket = "webhook_deliveries"             // id → deliveryRecord
	byCreatedBucket  = "webhook_deliveries_by_created"  // created(8) id → ""
	byVerifierBucket = "webhook_deliveries_by_verifier" // verifier 0x00 created(8) id → ""
	dueBucket        = "webhook_due"                    // (global) due(8) env 0x00 id → ""
)

// deliveryRecord is the stored form of a Delivery: the payload is kept as opaque bytes
// (base64 in the record) so that no re-encoding can ever change what is signed, and the
// worker's bookkeeping is kept beside it.
type deliveryRecord struct {
	ID             string               `json:"id"`
	Env            veriland.Environment `json:"env"`
	Verifier       string               `json:"verifier"`
	Account        string               `json:"account,omitempty"`
	EventType      string               `json:"eventType"`
	URL            string               `json:"url"`
	Payload        []byte               `json:"payload"`
	Status         Status               `json:"status"`
	Attempts       []DeliveryAttempt    `json:"attempts"`
	CreatedAt      time.Time            `json:"createdAt"`
	FirstAttemptAt time.Time            `json:"firstAttemptAt,omitzero"`
	NextAttemptAt  time.Time            `json:"nextAttemptAt,omitzero"`
	DeliveredAt    time.Time            `json:"deliveredAt,omitzero"`
	Replays        int                  `json:"replays,omitempty"`

	// WindowStart is the index in Attempts of the first attempt of the current 24-hour
	// window (a replay opens a new window); the retry schedule counts from there.
	WindowStart int `json:"windowStart,omitempty"`
	// DueAt is exactly the time under which the record sits in the due index: the next
	// attempt, or the end of the lease while an attempt is in flight. Zero when not
	// PENDING (and then it is in no due index).
	DueAt time.Time `json:"dueAt,omitzero"`
	// LeaseToken marks the claim of the worker making the current attempt, until
	// LeaseUntil. A worker that crashed mid-attempt leaves a lease that simply expires.
	LeaseToken string    `json:"leaseToken,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
}

func (r *deliveryRecord) delivery() Delivery {
	return Delivery{
		ID: r.ID, Env: r.Env, Verifier: r.Verifier, Account: r.Account,
		EventType: r.EventType, URL: r.URL, Payload: json.RawMessage(bytes.Clone(r.Payload)),
		Status: r.Status, Attempts: append(make([]DeliveryAttempt, 0, len(r.Attempts)), r.Attempts...),
		CreatedAt: r.CreatedAt, FirstAttemptAt: r.FirstAttemptAt,
		NextAttemptAt: r.NextAttemptAt, DeliveredAt: r.DeliveredAt, Replays: r.Replays,
	}
}

// windowAttempts is how many attempts the current window has made.
func (r *deliveryRecord) windowAttempts() int { return len(r.Attempts) - r.WindowStart }

// leased reports whether an attempt is in flight at now.
func (r *deliveryRecord) leased(now time.Time) bool {
	return r.LeaseToken != "" && now.Before(r.LeaseUntil)
}

func loadRecord(tx storage.Tx, env veriland.Environment, id string) (*deliveryRecord, error) {
	raw, err := tx.Get(storage.Bucket(env, deliveriesBucket), []byte(id))
	if err != nil {
		return nil, err
	}
	var r deliveryRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("webhook: delivery %s is %w: %w", id, errUnreadable, err)
	}
	return &r, nil
}

// errUnreadable marks a stored delivery that does not decode, as opposed to a failure
// to read it (which a retry may cure).
var errUnreadable = errors.New("unreadable")

func saveRecord(tx storage.Tx, r *deliveryRecord) error {
	raw, err := encodeRecord(r)
	if err != nil {
		return err
	}
	return putRecord(tx, r, raw)
}

// encodeRecord is the stored form of r.
func encodeRecord(r *deliveryRecord) ([]byte, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("webhook: encoding delivery %s: %w", r.ID, err)
	}
	return raw, nil
}

// putRecord writes raw, r's stored form, as r's record.
func putRecord(tx storage.Tx, r *deliveryRecord, raw []byte) error {
	return tx.Put(storage.Bucket(r.Env, deliveriesBucket), []byte(r.ID), raw)
}

// setDue moves r in the due index to at (zero: out of it) and records it in r.DueAt.
func setDue(tx storage.Tx, r *deliveryRecord, at time.Time) error {
	if !r.DueAt.IsZero() {
		if err := tx.Delete(storage.Global(dueBucket), dueKey(r.DueAt, r.Env, r.ID)); err != nil {
			return err
		}
	}
	r.DueAt = at
	if at.IsZero() {
		return nil
	}
	return tx.Put(storage.Global(dueBucket), dueKey(at, r.Env, r.ID), nil)
}

// timeKey is the big-endian unix nanoseconds of t, so keys sort by time.
func timeKey(t time.Time) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(t.UnixNano()))
}

func dueKey(at time.Time, env veriland.Environment, id string) []byte {
	k := timeKey(at)
	k = append(k, env...)
	k = append(k, 0)
	return append(k, id...)
}

var errBadDueKey = errors.New("webhook: malformed due-index key")

func parseDueKey(k []byte) (env veriland.Environment, id string, err error) {
	if len(k) < 10 {
		return "", "", errBadDueKey
	}
	e, i, ok := bytes.Cut(k[8:], []byte{0})
	if !ok {
		return "", "", errBadDueKey
	}
	return veriland.Environment(e), string(i), nil
}

// listKey is created(8) id: the tail of both list indexes, and what a cursor encodes.
func listKey(created time.Time, id string) []byte {
	return append(timeKey(created), id...)
}

func verifierPrefix(verifier string) []byte {
	return append([]byte(verifier), 0)
}
