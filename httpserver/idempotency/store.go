package idempotency

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// bucketName is the storage bucket, namespaced per environment with storage.Bucket.
const bucketName = "idempotency"

// Defaults for the zero values of Store's fields.
const (
	DefaultTTL     = 24 * time.Hour
	DefaultLease   = 60 * time.Second
	DefaultMaxBody = 4 << 20
)

// Store keeps idempotency records: a reservation while the first request with a key
// runs, then its response for TTL. Each call is one storage transaction, so the
// guarantees hold across replicas sharing the storage.Store. A Store is safe for
// concurrent use.
type Store struct {
	Store storage.Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TTL is how long a finished response is kept for replay (default 24 h).
	TTL time.Duration
	// Lease is how long a reservation holds without completing before it counts as
	// abandoned (the server crashed) and the next request may take the key over
	// (default 60 s). It must exceed the longest a handler may run — the server's write
	// timeout — or a slow first request and its retry may both run.
	Lease time.Duration
	// Headers lists response headers stored and replayed in addition to Content-Type
	// and Location. Set-Cookie, rate limit headers, Retry-After, X-Request-Id and
	// framing headers are never stored.
	Headers []string
	// MaxBody caps a stored response body (default 4 MiB). A larger response is not
	// stored: the reservation is released and a retry runs again.
	MaxBody int
	// Fields, when set, encrypts every stored response (status, headers and body) at
	// rest (SPEC S2.4: responses may hold personal data), bound to its record. Records
	// stored in clear before a keyring was configured still replay. Use the keyring of
	// the records the responses describe, so that erasing a key erases both.
	Fields *fieldcrypt.Keyring
	// FingerprintKey, when set, keys the request fingerprint: HMAC-SHA256(key, body)
	// instead of SHA-256(body), so that a stored fingerprint cannot confirm a guessed
	// body (a parcel request holds an owner's name and id_doc). Changing it makes the
	// retries of requests in flight across the change answer idempotency_key_reused.
	FingerprintKey []byte
	// Logger receives failures the middleware cannot report to the client, which has
	// its response already; nil means slog.Default().
	Logger *slog.Logger
}

// Begin looks the scope up and reserves it when the request may run. fingerprint is
// the SHA-256 of the request body. The outcomes:
//
//   - no record, an expired one or an abandoned reservation (its lease ran out): the
//     key is reserved and Begin returns Proceed; the caller must later call Complete
//     or Release;
//   - a finished record or a live reservation with another fingerprint: Reused;
//   - a finished record: Replay, with the stored response;
//   - a live reservation: InFlight.
//
// Errors: invalid_idempotency_key for an invalid scope.Key, internal for an otherwise
// invalid scope or a corrupt record, unavailable when the store fails.
func (s *Store) Begin(ctx context.Context, scope Scope, fingerprint [32]byte) (Outcome, error) {
	if err := scope.validate(); err != nil {
		return Outcome{}, err
	}
	bucket, id := storage.Bucket(scope.Env, bucketName), scope.storageKey()
	var out Outcome
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		out = Outcome{}
		now := s.now().UnixNano()
		rec, found, err := get(tx, bucket, id)
		if err != nil {
			return err
		}
		// An expired record, or an abandoned reservation, holds no outcome: like a
		// released one, the key is free again whatever the body.
		live := found && rec.Expires > now && (rec.State == stateComplete || rec.LeaseUntil > now)
		if live {
			switch {
			case !bytes.Equal(rec.Fingerprint, fingerprint[:]):
				out.Kind = Reused
			case rec.State == stateComplete:
				resp, err := rec.response(s.Fields, bucket, id)
				if err != nil {
					return &veriland.Error{Code: veriland.CodeInternal, Message: "stored idempotent response cannot be read", Cause: err}
				}
				out = Outcome{Kind: Replay, Response: resp}
			default:
				out.Kind = InFlight
			}
			return nil
		}
		out.Kind = Proceed
		return put(tx, bucket, id, record{
			State:       stateInFlight,
			Fingerprint: fingerprint[:],
			LeaseUntil:  now + int64(s.lease()),
			Expires:     now + int64(s.ttl()),
		})
	})
	if err != nil {
		return Outcome{}, storeError(err)
	}
	return out, nil
}

// Complete stores resp as the outcome of the reserved scope, to be replayed for TTL.
// Only the headers that matter are kept (see Headers). A 5xx or 429 status is not an
// outcome worth keeping: Complete then releases the reservation instead, so the client
// may retry. A scope already completed keeps its first response, so replays never
// change.
//
// Errors: invalid_state when the scope holds no reservation (never begun, released or
// expired), and as for Begin.
func (s *Store) Complete(ctx context.Context, scope Scope, resp Response) error {
	if !storable(resp.Status) {
		return s.Release(ctx, scope)
	}
	if err := scope.validate(); err != nil {
		return err
	}
	header := keepHeaders(resp.Header, s.Headers)
	bucket, id := storage.Bucket(scope.Env, bucketName), scope.storageKey()
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		now := s.now().UnixNano()
		rec, found, err := get(tx, bucket, id)
		if err != nil {
			return err
		}
		if !found || rec.Expires <= now {
			return veriland.Errorf(veriland.CodeInvalidState, "no reservation for this idempotency key")
		}
		if rec.State == stateComplete {
			return nil
		}
		done := record{
			State:       stateComplete,
			Fingerprint: rec.Fingerprint,
			Expires:     now + int64(s.ttl()),
			Status:      resp.Status,
			Header:      header,
			Body:        resp.Body,
		}
		if s.Fields != nil {
			if err := done.seal(s.Fields, bucket, id); err != nil {
				return &veriland.Error{Code: veriland.CodeInternal, Message: "sealing the idempotent response", Cause: err}
			}
		}
		return put(tx, bucket, id, done)
	})
	return storeError(err)
}

// Release drops the reservation of scope without storing a response, so that the
// next request with the key runs again (for 5xx outcomes, panics and responses too
// large to store). A finished record is left alone; releasing nothing is not an error.
func (s *Store) Release(ctx context.Context, scope Scope) error {
	if err := scope.validate(); err != nil {
		return err
	}
	bucket, id := storage.Bucket(scope.Env, bucketName), scope.storageKey()
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		rec, found, err := get(tx, bucket, id)
		if err != nil || !found || rec.State != stateInFlight {
			return err
		}
		return tx.Delete(bucket, id)
	})
	return storeError(err)
}

// storable reports whether a response with this status is kept for replay.
func storable(status int) bool {
	return status < 500 && status != 429
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Store) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultTTL
}

func (s *Store) lease() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLease
}

func (s *Store) maxBody() int {
	if s.MaxBody > 0 {
		return s.MaxBody
	}
	return DefaultMaxBody
}

func (s *Store) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func get(tx storage.Tx, bucket string, id []byte) (record, bool, error) {
	v, err := tx.Get(bucket, id)
	if errors.Is(err, storage.ErrNotFound) {
		return record{}, false, nil
	}
	if err != nil {
		return record{}, false, err
	}
	rec, err := decodeRecord(v)
	if err != nil {
		return record{}, false, &veriland.Error{Code: veriland.CodeInternal, Message: "corrupt idempotency record", Cause: err}
	}
	return rec, true, nil
}

func put(tx storage.Tx, bucket string, id []byte, rec record) error {
	rec.Version = recordVersion
	v, err := rec.encode()
	if err != nil {
		return err
	}
	return tx.Put(bucket, id, v)
}

// storeError passes *veriland.Error through and reports anything else, a storage
// failure, as unavailable.
func storeError(err error) error {
	if err == nil {
		return nil
	}
	var verr *veriland.Error
	if errors.As(err, &verr) {
		return err
	}
	return &veriland.Error{Code: veriland.CodeUnavailable, Message: "idempotency store unavailable", Cause: err}
}
