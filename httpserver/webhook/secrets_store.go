package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// RotationOverlap is how long a rotated-out secret keeps signing beside its successor
// (SPEC S8), so that receivers can switch keys without missing a delivery.
const RotationOverlap = 24 * time.Hour

// secretsBucket holds one secretRecord per verifier, keyed by the verifier's id, in
// each environment's namespace.
const secretsBucket = "webhook_secrets"

// maxVerifierLen bounds verifier ids, which are used in storage keys.
const maxVerifierLen = 256

// SecretStore keeps each verifier's signing secret, and its predecessor during a
// rotation, in storage.Bucket(env, "webhook_secrets").
//
// The secrets are stored in clear: the outbox needs them to sign, so a hash would not
// do. Whoever can read the data file can forge webhooks to every verifier; the file must
// stay mode 0600 (as storage/bolt creates it) and its backups be guarded alike.
//
// Store is required; the other members have defaults. A SecretStore holds no state, so
// it may be shared and copied.
type SecretStore struct {
	Store storage.Store
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of new secrets (nil: crypto/rand.Reader).
	Rand io.Reader
	// Audit, when set, records each rotation (action "webhook.secret_rotated") in the
	// rotation's transaction.
	Audit *audit.Log
}

// VerifierSecrets are a verifier's signing secrets at one moment.
type VerifierSecrets struct {
	// Current signs every delivery.
	Current Secret
	// CreatedAt is when Current was made.
	CreatedAt time.Time
	// Previous is the rotated-out secret while it still signs beside Current, until
	// PreviousUntil; nil otherwise.
	Previous      *Secret
	PreviousUntil time.Time
}

// Signing returns the secrets a delivery is signed with: Current, then Previous while
// it is still valid.
func (v VerifierSecrets) Signing() []Secret {
	if v.Current.IsZero() {
		return nil
	}
	if v.Previous != nil {
		return []Secret{v.Current, *v.Previous}
	}
	return []Secret{v.Current}
}

// secretRecord is the stored form.
type secretRecord struct {
	Current       string    `json:"current"`
	CreatedAt     time.Time `json:"createdAt"`
	Previous      string    `json:"previous,omitempty"`
	PreviousUntil time.Time `json:"previousUntil,omitzero"`
}

func (r secretRecord) secrets(now time.Time) (VerifierSecrets, error) {
	cur, err := ParseSecret(r.Current)
	if err != nil {
		return VerifierSecrets{}, fmt.Errorf("webhook: stored secret is unreadable: %w", err)
	}
	v := VerifierSecrets{Current: cur, CreatedAt: r.CreatedAt}
	if r.Previous != "" && now.Before(r.PreviousUntil) {
		prev, err := ParseSecret(r.Previous)
		if err != nil {
			return VerifierSecrets{}, fmt.Errorf("webhook: stored secret is unreadable: %w", err)
		}
		v.Previous, v.PreviousUntil = &prev, r.PreviousUntil
	}
	return v, nil
}

func (s *SecretStore) now() time.Time { return nowUTC(s.Now) }

func (s *SecretStore) rand() io.Reader { return randOrSystem(s.Rand) }

// Secrets returns verifier's secrets in env, creating the verifier's first secret when it
// has none. It is what GET /v1/webhooks/secret shows; the caller checks that the
// principal is that verifier.
//
// Errors: validation_failed *veriland.Error for a bad env or verifier id; otherwise the
// storage or randomness error, wrapped.
func (s *SecretStore) Secrets(ctx context.Context, env veriland.Environment, verifier string) (VerifierSecrets, error) {
	if err := checkOwner(env, verifier); err != nil {
		return VerifierSecrets{}, err
	}
	var (
		out   VerifierSecrets
		found bool
	)
	now := s.now()
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		rec, ok, err := getSecretRecord(tx, env, verifier)
		if err != nil || !ok {
			found = false
			return err
		}
		found = true
		out, err = rec.secrets(now)
		return err
	})
	if err != nil || found {
		return out, err
	}
	// The new secret is drawn outside the transaction so that the transaction function
	// stays a pure function of tx (the store may run it twice).
	fresh, err := NewSecret(s.rand())
	if err != nil {
		return VerifierSecrets{}, err
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		rec, err := ensureSecret(tx, env, verifier, fresh, now)
		if err != nil {
			return err
		}
		out, err = rec.secrets(now)
		return err
	})
	return out, err
}

// Rotate makes a new current secret for verifier in env. The old one keeps signing
// beside it for RotationOverlap, so deliveries in that time carry two signatures. A
// secret rotated out earlier that is still within its overlap is dropped at once: at
// most two secrets sign. Rotating a verifier without a secret just creates one.
//
// Errors: as Secrets.
func (s *SecretStore) Rotate(ctx context.Context, env veriland.Environment, verifier string) (VerifierSecrets, error) {
	if err := checkOwner(env, verifier); err != nil {
		return VerifierSecrets{}, err
	}
	fresh, err := NewSecret(s.rand())
	if err != nil {
		return VerifierSecrets{}, err
	}
	now := s.now()
	var out VerifierSecrets
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		rec, ok, err := getSecretRecord(tx, env, verifier)
		if err != nil {
			return err
		}
		next := secretRecord{Current: fresh.String(), CreatedAt: now}
		if ok {
			next.Previous, next.PreviousUntil = rec.Current, now.Add(RotationOverlap)
		}
		if err := putSecretRecord(tx, env, verifier, next); err != nil {
			return err
		}
		if s.Audit != nil {
			_, err := s.Audit.Append(ctx, tx, audit.Entry{
				Env: env, Action: "webhook.secret_rotated", Severity: audit.SeverityNotice,
				Outcome: audit.OutcomeSuccess, ResourceType: "webhook_secret", ResourceID: verifier,
			})
			if err != nil {
				return err
			}
		}
		out, err = next.secrets(now)
		return err
	})
	return out, err
}

// SigningSecrets returns the secrets a delivery for verifier is signed with at now,
// inside the caller's transaction: the current secret, and the previous one during a
// rotation's overlap. A verifier without a secret gets one (drawn from s.Rand), so tx
// must then be read-write.
func (s *SecretStore) SigningSecrets(ctx context.Context, tx storage.Tx, env veriland.Environment, verifier string, now time.Time) ([]Secret, error) {
	if err := checkOwner(env, verifier); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, ok, err := getSecretRecord(tx, env, verifier)
	if err != nil {
		return nil, err
	}
	if !ok {
		fresh, err := NewSecret(s.rand())
		if err != nil {
			return nil, err
		}
		if rec, err = ensureSecret(tx, env, verifier, fresh, now); err != nil {
			return nil, err
		}
	}
	v, err := rec.secrets(now)
	if err != nil {
		return nil, err
	}
	return v.Signing(), nil
}

// ensureSecret returns verifier's record, storing fresh as its first secret if it has
// none.
func ensureSecret(tx storage.Tx, env veriland.Environment, verifier string, fresh Secret, now time.Time) (secretRecord, error) {
	rec, ok, err := getSecretRecord(tx, env, verifier)
	if err != nil || ok {
		return rec, err
	}
	rec = secretRecord{Current: fresh.String(), CreatedAt: now}
	return rec, putSecretRecord(tx, env, verifier, rec)
}

func getSecretRecord(tx storage.Tx, env veriland.Environment, verifier string) (secretRecord, bool, error) {
	raw, err := tx.Get(storage.Bucket(env, secretsBucket), []byte(verifier))
	if errors.Is(err, storage.ErrNotFound) {
		return secretRecord{}, false, nil
	}
	if err != nil {
		return secretRecord{}, false, fmt.Errorf("webhook: reading secret: %w", err)
	}
	var rec secretRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return secretRecord{}, false, fmt.Errorf("webhook: stored secret is unreadable: %w", err)
	}
	return rec, true, nil
}

func putSecretRecord(tx storage.Tx, env veriland.Environment, verifier string, rec secretRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return tx.Put(storage.Bucket(env, secretsBucket), []byte(verifier), raw)
}

// checkOwner validates the environment and verifier id that key secrets and deliveries.
func checkOwner(env veriland.Environment, verifier string) error {
	if !env.Valid() {
		return veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	if verifier == "" || len(verifier) > maxVerifierLen || strings.ContainsRune(verifier, 0) {
		return veriland.Invalid("/verifier", "verifier must be 1..%d bytes without NUL", maxVerifierLen)
	}
	return nil
}
