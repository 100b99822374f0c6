package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// Defaults of an Outbox.
const (
	DefaultWorkers      = 4
	DefaultPollInterval = time.Second
	// ClaimLease is how long a worker owns an attempt. It exceeds DeliveryTimeout so a
	// live worker always records its attempt first; a worker that crashed mid-attempt
	// leaves a claim that another worker retries once the lease is over.
	ClaimLease = DeliveryTimeout + 50*time.Second
)

// payloadTimeFormat is the layout of the payload's "timestamp": RFC 3339 UTC with
// milliseconds.
const payloadTimeFormat = "2006-01-02T15:04:05.000Z"

// Outbox is the durable queue of outbound webhooks (SPEC S8). Domain services add
// deliveries with Enqueue inside the transaction of the state change they report; Run
// (or RunOnce) sends them, signed with the verifier's secrets, on the retry schedule of
// NextAttempt until one succeeds or DeliveryWindow has passed. Every piece of state is
// in Store, so deliveries survive restarts, and any number of Outboxes (replicas) may
// share one Store: an attempt is claimed in a transaction before it is made, so no two
// workers make the same attempt.
//
// Store is required; the other members have defaults. Set them before first use and
// do not change them after. Use an Outbox by pointer.
type Outbox struct {
	Store storage.Store
	// Now is the clock of attempts and schedules (nil: time.Now).
	Now func() time.Time
	// Rand is the source of delivery ids (with Now, their time part) and claim tokens
	// (nil: crypto/rand.Reader).
	Rand io.Reader
	// Jitter spreads retries by ±10 % (nil: math/rand/v2). It need not be safe for
	// concurrent use: the Outbox serialises its calls.
	Jitter JitterSource
	// Secrets holds the verifiers' signing secrets (nil: a SecretStore on Store with
	// the Outbox's clock and randomness). It must use the same Store.
	Secrets *SecretStore
	// Client returns the http.Client for an environment (nil: one NewClient(env, Policy)
	// per environment, shared by all attempts).
	Client func(env veriland.Environment) *http.Client
	// Policy is the callback policy of the default clients.
	Policy CallbackPolicy
	// Logger receives operational messages (nil: slog.Default()). It never gets
	// payloads, secrets or callback URLs.
	Logger *slog.Logger
	// Audit, when set, records each delivery that ends FAILED (WARNING
	// "webhook.delivery_failed") and each manual replay, in the same transaction.
	Audit *audit.Log
	// Workers is how many attempts Run makes at once (0: DefaultWorkers).
	Workers int
	// PollInterval is how often Run looks for due retries when nobody calls Notify
	// (0: DefaultPollInterval).
	PollInterval time.Duration
	// ClaimLease is how long a worker owns an attempt it claimed (0: the package's
	// ClaimLease). Another worker, in this process or another replica, takes the
	// attempt over only once it has passed, so it must exceed DeliveryTimeout: a
	// shorter lease lets a second worker send while the first may still be waiting for
	// the receiver (tests with a receiver that answers at once shorten it).
	ClaimLease time.Duration
	// DisableSandboxReceiver sends SANDBOX callbacks whose path ends in "/fail" or
	// "/timeout" like any other. By default the sandbox test receiver (SPEC S10) answers
	// them as failed (or timed out) without a network call.
	DisableSandboxReceiver bool

	initOnce sync.Once
	wake     chan struct{}
	mu       sync.Mutex // guards clients and Jitter
	clients  map[veriland.Environment]*http.Client
	secrets  *SecretStore
}

func (o *Outbox) init() {
	o.initOnce.Do(func() {
		o.wake = make(chan struct{}, 1)
		o.clients = map[veriland.Environment]*http.Client{}
		o.secrets = o.Secrets
		if o.secrets == nil {
			o.secrets = &SecretStore{Store: o.Store, Now: o.Now, Rand: o.Rand}
		}
	})
}

func (o *Outbox) now() time.Time { return nowUTC(o.Now) }

func (o *Outbox) rand() io.Reader { return randOrSystem(o.Rand) }

func (o *Outbox) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}

func (o *Outbox) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return DefaultWorkers
}

func (o *Outbox) claimLease() time.Duration {
	if o.ClaimLease > 0 {
		return o.ClaimLease
	}
	return ClaimLease
}

func (o *Outbox) pollInterval() time.Duration {
	if o.PollInterval > 0 {
		return o.PollInterval
	}
	return DefaultPollInterval
}

// jitter draws one number in [0, 1) for NextAttempt.
func (o *Outbox) jitter() float64 {
	if o.Jitter == nil {
		return mrand.Float64()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.Jitter.Float64()
}

func (o *Outbox) client(env veriland.Environment) *http.Client {
	if o.Client != nil {
		return o.Client(env)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	c, ok := o.clients[env]
	if !ok {
		c = NewClient(env, o.Policy)
		o.clients[env] = c
	}
	return c
}

// Notify wakes Run so that deliveries enqueued by a transaction that has just committed
// go out at once instead of at the next poll. Call it after the commit: a delivery
// whose transaction has not committed is invisible to the worker. It never blocks.
func (o *Outbox) Notify() {
	o.init()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Event is one outbound webhook to enqueue.
type Event struct {
	// Type is the event type, e.g. "verification.approved" or "attestation.revoked".
	Type string
	// Verifier owns the delivery: its secret signs it and only it (or an admin) sees it.
	Verifier string
	// Account is the verifier's account, for sandbox isolation; may be "".
	Account string
	// CallbackURL receives the event; "" means the verifier asked for no webhooks.
	CallbackURL string
	// Data is the payload's "data" member. It must encode to a JSON object (nil: {}),
	// and must hold identifiers and states only, never personal data.
	Data any
}

// encodePayload returns the body of every attempt (SPEC S8),
// {"type":…,"timestamp":…,"data":…}, exactly as json.Marshal writes that struct
// (payload_test.go's eventPayload), for data that json.Marshal wrote (compact,
// HTML-escaped), without what json.Marshal would do again to it: validate and
// compact a 2-3 KB RawMessage a second time. The strings are encoded by
// json.Marshal itself; TestEncodePayload and FuzzEncodePayload check the bytes.
func encodePayload(typ, timestamp string, data json.RawMessage) []byte {
	t, _ := json.Marshal(typ) // a string always encodes
	ts, _ := json.Marshal(timestamp)
	b := make([]byte, 0, len(`{"type":,"timestamp":,"data":}`)+len(t)+len(ts)+len(data))
	b = append(b, `{"type":`...)
	b = append(b, t...)
	b = append(b, `,"timestamp":`...)
	b = append(b, ts...)
	b = append(b, `,"data":`...)
	b = append(b, data...)
	return append(b, '}')
}

// Enqueue adds a delivery of ev inside tx, the caller's read-write transaction, so that
// the webhook is queued if and only if the state change it reports commits. The body is
// built now, once, and sent unchanged by every attempt and replay; its timestamp is the
// enqueue time. The first attempt is due at once: call Notify after the commit.
//
// An event with an empty CallbackURL is not queued: Enqueue returns the zero Delivery
// and nil. The URL is not validated here (the caller did so when it was registered, and
// a refusal must not roll the state change back); NewClient's client refuses a URL the
// policy forbids at each attempt, and the attempt records why. The verifier's signing
// secret is not read here: the claim of the first attempt creates it when the verifier
// has none yet (or GET /v1/webhooks/secret does earlier). Reading it in every Enqueue
// made concurrent enqueues of one verifier abort each other on PostgreSQL: the secret
// record sits in the index right after the end of the verifier's time-ordered delivery
// list, where every Enqueue inserts, so each reader's predicate lock covered the others'
// inserts (about 0.3 retries per commit under 64 clients, half the throughput).
//
// Like every function run in a transaction, Enqueue keeps no effect outside tx, so it is
// safe when the store runs the caller's function again.
//
// Errors: validation_failed *veriland.Error for a bad env, verifier, event type or data;
// otherwise the storage error, wrapped.
func (o *Outbox) Enqueue(ctx context.Context, tx storage.Tx, env veriland.Environment, ev Event) (Delivery, error) {
	p, err := o.Prepare(ctx, env, ev)
	if err != nil || p == nil {
		return Delivery{}, err
	}
	return p.Enqueue(tx)
}

// PreparedDelivery is a delivery built and encoded by Prepare, ready to be queued by
// its Enqueue.
type PreparedDelivery struct {
	r   *deliveryRecord
	raw []byte // the encoded record
}

// Prepare does all of Enqueue's work that needs no transaction — checks, the payload,
// the id, the encoded record — so that a caller can do it before taking the write lock
// and keep the lock for the writes. The delivery's timestamp and creation time are
// the time of the call to Prepare. An event with an empty CallbackURL gives nil and
// nil: there is nothing to queue. Errors: Enqueue's validation errors.
func (o *Outbox) Prepare(ctx context.Context, env veriland.Environment, ev Event) (*PreparedDelivery, error) {
	o.init()
	if ev.CallbackURL == "" {
		return nil, nil
	}
	if err := checkOwner(env, ev.Verifier); err != nil {
		return nil, err
	}
	if ev.Type == "" || len(ev.Type) > 64 {
		return nil, veriland.Invalid("/type", "event type must be 1..64 bytes")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := o.now()
	data := json.RawMessage(`{}`)
	if ev.Data != nil {
		raw, err := json.Marshal(ev.Data)
		switch {
		case err == nil && string(raw) == "null": // a nil map or pointer
		case err != nil || len(raw) == 0 || raw[0] != '{':
			return nil, veriland.Invalid("/data", "event data must encode to a JSON object")
		default:
			data = raw
		}
	}
	payload := encodePayload(ev.Type, now.Format(payloadTimeFormat), data)
	// Time-ordered, so that the deliveries bucket, keyed by id, takes new records on
	// its last pages (see the package doc).
	id, err := ids.NewOrdered(o.rand(), DeliveryIDPrefix, now)
	if err != nil {
		return nil, err
	}
	r := &deliveryRecord{
		ID: id, Env: env, Verifier: ev.Verifier, Account: ev.Account, EventType: ev.Type,
		URL: ev.CallbackURL, Payload: payload, Status: StatusPending, Attempts: []DeliveryAttempt{},
		CreatedAt: now, NextAttemptAt: now, DueAt: now, // due at once
	}
	raw, err := encodeRecord(r)
	if err != nil {
		return nil, err
	}
	return &PreparedDelivery{r: r, raw: raw}, nil
}

// Enqueue writes the prepared delivery inside tx, the caller's read-write transaction,
// as Outbox.Enqueue does, and returns it. It writes the same keys and bytes however
// many times it runs, so it is safe in a transaction function the store runs more than
// once. Errors: the storage error, wrapped.
func (p *PreparedDelivery) Enqueue(tx storage.Tx) (Delivery, error) {
	r := p.r
	if err := tx.Put(storage.Global(dueBucket), dueKey(r.DueAt, r.Env, r.ID), nil); err != nil {
		return Delivery{}, fmt.Errorf("webhook: enqueue: %w", err)
	}
	lk := listKey(r.CreatedAt, r.ID)
	if err := tx.Put(storage.Bucket(r.Env, byCreatedBucket), lk, nil); err != nil {
		return Delivery{}, fmt.Errorf("webhook: enqueue: %w", err)
	}
	if err := tx.Put(storage.Bucket(r.Env, byVerifierBucket), append(verifierPrefix(r.Verifier), lk...), nil); err != nil {
		return Delivery{}, fmt.Errorf("webhook: enqueue: %w", err)
	}
	if err := putRecord(tx, r, p.raw); err != nil {
		return Delivery{}, fmt.Errorf("webhook: enqueue: %w", err)
	}
	return r.delivery(), nil
}

// Get returns delivery id of env with all its attempts. The caller checks that the
// principal is its Verifier (or an admin) and answers not_found otherwise.
//
// Errors: not_found *veriland.Error for an unknown or malformed id or one of the other
// environment; otherwise the storage error, wrapped.
func (o *Outbox) Get(ctx context.Context, env veriland.Environment, id string) (Delivery, error) {
	if !env.Valid() || !ids.Valid(id, DeliveryIDPrefix) {
		return Delivery{}, deliveryNotFound()
	}
	var d Delivery
	err := o.Store.View(ctx, func(tx storage.Tx) error {
		r, err := findRecord(tx, env, id)
		if err != nil {
			return err
		}
		d = r.delivery()
		return nil
	})
	return d, err
}

// findRecord is loadRecord with a missing delivery reported as not_found.
func findRecord(tx storage.Tx, env veriland.Environment, id string) (*deliveryRecord, error) {
	r, err := loadRecord(tx, env, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, deliveryNotFound()
	}
	return r, err
}

func deliveryNotFound() error {
	return veriland.Errorf(veriland.CodeNotFound, "no such webhook delivery")
}

// Replay queues delivery id of env for an attempt at once, whatever its status, with
// the same webhook-id and the same body, so the receiver can recognise it. It opens a
// fresh DeliveryWindow: a FAILED or SUCCEEDED delivery becomes PENDING again and is
// retried on the full schedule, counted from the replay's first attempt; a PENDING one
// has its next attempt moved to now and its schedule restarted. The attempts made so far
// stay in the history. Replay wakes Run itself (its transaction is its own).
//
// Errors: not_found as Get; invalid_state *veriland.Error while an attempt is in flight
// (retry after DeliveryTimeout); otherwise the storage error, wrapped.
func (o *Outbox) Replay(ctx context.Context, env veriland.Environment, id string) (Delivery, error) {
	o.init()
	if !env.Valid() || !ids.Valid(id, DeliveryIDPrefix) {
		return Delivery{}, deliveryNotFound()
	}
	now := o.now()
	var d Delivery
	err := o.Store.Update(ctx, func(tx storage.Tx) error {
		r, err := findRecord(tx, env, id)
		if err != nil {
			return err
		}
		if r.leased(now) {
			return veriland.Errorf(veriland.CodeInvalidState, "an attempt of this delivery is in progress; replay it when it is over")
		}
		from := r.Status
		r.Status, r.FirstAttemptAt, r.NextAttemptAt, r.DeliveredAt = StatusPending, time.Time{}, now, time.Time{}
		r.WindowStart, r.LeaseToken, r.LeaseUntil = len(r.Attempts), "", time.Time{}
		r.Replays++
		if err := setDue(tx, r, now); err != nil {
			return err
		}
		if err := saveRecord(tx, r); err != nil {
			return err
		}
		if o.Audit != nil {
			_, err := o.Audit.Append(ctx, tx, audit.Entry{
				Env: env, Action: "webhook.delivery_replayed", Outcome: audit.OutcomeSuccess,
				ResourceType: "webhook_delivery", ResourceID: id,
				Detail: map[string]any{"eventType": r.EventType, "previousStatus": string(from), "replays": r.Replays},
			})
			if err != nil {
				return err
			}
		}
		d = r.delivery()
		return nil
	})
	if err != nil {
		return Delivery{}, err
	}
	o.Notify()
	return d, nil
}

// Pending returns how many deliveries of both environments are PENDING: the webhook
// queue depth gauge of /metrics. It counts the due index, one key per pending delivery.
func (o *Outbox) Pending(ctx context.Context) (int, error) {
	n := 0
	err := o.Store.View(ctx, func(tx storage.Tx) error {
		n = 0
		return tx.Scan(storage.Global(dueBucket), storage.Range{}, func(_, _ []byte) error {
			n++
			return nil
		})
	})
	return n, err
}
