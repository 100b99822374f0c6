package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// inboxBucket holds inbound events keyed by provider 0x00 webhook-id, in each
// environment's namespace.
const inboxBucket = "webhook_inbox"

// maxInboundIDLen bounds a webhook-id (Standard Webhooks ids are short).
const maxInboundIDLen = 256

// Inbox stores inbound webhook events before they are acknowledged, and remembers their
// webhook-ids so that a redelivered event is recognised and not processed twice
// (SPEC S8). The route verifies the signature, calls Accept, answers 200, then
// dispatches the event and calls MarkProcessed. An event whose dispatch was cut short
// (a crash after the answer) is found again with Unprocessed.
//
// Store is required. Events are kept indefinitely: the ids must outlive the provider's
// retry window, and an event body holds provider references, never personal data the
// route has not already refused.
type Inbox struct {
	Store storage.Store
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// InboundEvent is one stored inbound webhook.
type InboundEvent struct {
	Env         veriland.Environment `json:"env"`
	Provider    string               `json:"provider"`
	MsgID       string               `json:"msgId"` // the webhook-id
	Type        string               `json:"type"`
	Body        []byte               `json:"body"` // the exact bytes received
	ReceivedAt  time.Time            `json:"receivedAt"`
	ProcessedAt time.Time            `json:"processedAt,omitzero"` // zero until MarkProcessed
}

func (in *Inbox) now() time.Time { return nowUTC(in.Now) }

// Accept stores an inbound event under (provider, msgID) unless one is stored there
// already, in which case it stores nothing and reports duplicate; the caller then
// answers 200 without processing it again. Concurrent Accepts of one id store it once
// and report duplicate to all but one.
//
// Errors: validation_failed *veriland.Error for a bad env, provider, id or event type;
// otherwise the storage error, wrapped.
func (in *Inbox) Accept(ctx context.Context, env veriland.Environment, provider, msgID, eventType string, body []byte) (duplicate bool, err error) {
	if err := checkInbound(env, provider, msgID); err != nil {
		return false, err
	}
	if eventType == "" || len(eventType) > 64 {
		return false, veriland.Invalid("/type", "event type must be 1..64 bytes")
	}
	ev := InboundEvent{Env: env, Provider: provider, MsgID: msgID, Type: eventType, Body: bytes.Clone(body), ReceivedAt: in.now()}
	raw, err := json.Marshal(ev)
	if err != nil {
		return false, err
	}
	err = in.Store.Update(ctx, func(tx storage.Tx) error {
		duplicate = false
		_, err := tx.Get(storage.Bucket(env, inboxBucket), inboxKey(provider, msgID))
		switch {
		case err == nil:
			duplicate = true
			return nil
		case !errors.Is(err, storage.ErrNotFound):
			return err
		}
		return tx.Put(storage.Bucket(env, inboxBucket), inboxKey(provider, msgID), raw)
	})
	if err != nil {
		return false, fmt.Errorf("webhook: storing inbound event: %w", err)
	}
	return duplicate, nil
}

// MarkProcessed records that the event (provider, msgID) was dispatched. Marking an
// event twice keeps the first time.
//
// Errors: validation_failed as Accept; not_found *veriland.Error for an event never
// accepted; otherwise the storage error, wrapped.
func (in *Inbox) MarkProcessed(ctx context.Context, env veriland.Environment, provider, msgID string) error {
	if err := checkInbound(env, provider, msgID); err != nil {
		return err
	}
	now := in.now()
	return in.Store.Update(ctx, func(tx storage.Tx) error {
		ev, err := getInbound(tx, env, provider, msgID)
		if err != nil {
			return err
		}
		if !ev.ProcessedAt.IsZero() {
			return nil
		}
		ev.ProcessedAt = now
		raw, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return tx.Put(storage.Bucket(env, inboxBucket), inboxKey(provider, msgID), raw)
	})
}

// Get returns the stored event (provider, msgID).
//
// Errors: as MarkProcessed.
func (in *Inbox) Get(ctx context.Context, env veriland.Environment, provider, msgID string) (InboundEvent, error) {
	if err := checkInbound(env, provider, msgID); err != nil {
		return InboundEvent{}, err
	}
	var ev InboundEvent
	err := in.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		ev, err = getInbound(tx, env, provider, msgID)
		return err
	})
	return ev, err
}

// Unprocessed returns up to limit (1..1000) of env's events that were accepted but never
// marked processed, for a dispatcher to retry after a restart. Dispatch must therefore
// be idempotent.
func (in *Inbox) Unprocessed(ctx context.Context, env veriland.Environment, limit int) ([]InboundEvent, error) {
	if !env.Valid() {
		return nil, veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	if limit < 1 || limit > 1000 {
		return nil, veriland.Invalid("/limit", "limit must be between 1 and 1000")
	}
	var out []InboundEvent
	err := in.Store.View(ctx, func(tx storage.Tx) error {
		out = nil
		return tx.Scan(storage.Bucket(env, inboxBucket), storage.Range{}, func(_, v []byte) error {
			var ev InboundEvent
			if err := json.Unmarshal(v, &ev); err != nil {
				return fmt.Errorf("webhook: unreadable inbound event: %w", err)
			}
			if ev.ProcessedAt.IsZero() {
				out = append(out, ev)
			}
			if len(out) == limit {
				return storage.ErrStop
			}
			return nil
		})
	})
	return out, err
}

func getInbound(tx storage.Tx, env veriland.Environment, provider, msgID string) (InboundEvent, error) {
	raw, err := tx.Get(storage.Bucket(env, inboxBucket), inboxKey(provider, msgID))
	if errors.Is(err, storage.ErrNotFound) {
		return InboundEvent{}, veriland.Errorf(veriland.CodeNotFound, "no such inbound webhook")
	}
	if err != nil {
		return InboundEvent{}, err
	}
	var ev InboundEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		return InboundEvent{}, fmt.Errorf("webhook: unreadable inbound event: %w", err)
	}
	return ev, nil
}

func inboxKey(provider, msgID string) []byte {
	return append(append([]byte(provider), 0), msgID...)
}

func checkInbound(env veriland.Environment, provider, msgID string) error {
	if !env.Valid() {
		return veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	if !providerName.MatchString(provider) {
		return veriland.Invalid("/provider", "unknown webhook provider")
	}
	return checkInboundID(msgID)
}

// checkInboundID checks a delivery id: 1..maxInboundIDLen bytes of printable ASCII.
func checkInboundID(msgID string) error {
	if msgID == "" || len(msgID) > maxInboundIDLen {
		return veriland.Invalid("/webhook-id", "webhook-id must be 1..%d bytes", maxInboundIDLen)
	}
	for i := 0; i < len(msgID); i++ {
		if msgID[i] < 0x21 || msgID[i] > 0x7e {
			return veriland.Invalid("/webhook-id", "webhook-id must be printable ASCII")
		}
	}
	return nil
}
