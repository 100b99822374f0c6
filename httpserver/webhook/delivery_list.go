package webhook

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Page sizes of Outbox.List (SPEC S2.1).
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// maxListScan bounds the deliveries one List call examines, so that a selective filter
// costs a bounded read per page.
const maxListScan = 5_000

// Filter selects deliveries for Outbox.List. Zero members select everything.
type Filter struct {
	Verifier string // only this verifier's deliveries (what a verifier token sees)
	Account  string // only this account's deliveries
	Status   Status // only deliveries in this state
	Cursor   string // from a previous List call; "" for the first page
	Limit    int    // 1..MaxListLimit; 0 means DefaultListLimit
}

// List returns env's deliveries that match f, newest first, and the cursor of the next
// page ("" when there is none). Attempts are included. A page may hold fewer than
// f.Limit deliveries, even none, while the cursor is not empty: List examines at most
// 5,000 deliveries per call. Cursors are opaque and stay valid: deliveries are never
// removed, and ones created later appear only on a fresh first page.
//
// Errors: validation_failed *veriland.Error (Meta "parameter" names the query
// parameter) for a bad env, limit, status or cursor; otherwise the storage error.
func (o *Outbox) List(ctx context.Context, env veriland.Environment, f Filter) ([]Delivery, string, error) {
	if !env.Valid() {
		return nil, "", veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION")
	}
	limit := f.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, "", listParamError("limit", "limit must be between 1 and %d", MaxListLimit)
	}
	if f.Verifier != "" {
		if err := checkOwner(env, f.Verifier); err != nil {
			return nil, "", err
		}
	}
	if f.Status != "" && !f.Status.Valid() {
		return nil, "", listParamError("status", "status must be PENDING, SUCCEEDED or FAILED")
	}
	var before []byte
	if f.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(f.Cursor)
		if err != nil || len(b) <= 8 {
			return nil, "", listParamError("cursor", "cursor is not one List returned")
		}
		before = b
	}

	bucket, prefix := storage.Bucket(env, byCreatedBucket), []byte(nil)
	if f.Verifier != "" {
		bucket, prefix = storage.Bucket(env, byVerifierBucket), verifierPrefix(f.Verifier)
	}
	r := storage.Range{Prefix: prefix, Reverse: true}
	if before != nil {
		r.End = append(append([]byte(nil), prefix...), before...)
	}

	var (
		out  []Delivery
		next string
	)
	err := o.Store.View(ctx, func(tx storage.Tx) error {
		out, next = nil, ""
		scanned := 0
		var last []byte
		err := tx.Scan(bucket, r, func(key, _ []byte) error {
			if len(out) == limit || scanned == maxListScan {
				next = base64.RawURLEncoding.EncodeToString(last)
				return storage.ErrStop
			}
			scanned++
			last = append(last[:0], key[len(prefix):]...)
			if len(last) <= 8 {
				return fmt.Errorf("webhook: malformed delivery index key")
			}
			rec, err := loadRecord(tx, env, string(last[8:]))
			if errors.Is(err, storage.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			if (f.Verifier == "" || rec.Verifier == f.Verifier) &&
				(f.Account == "" || rec.Account == f.Account) &&
				(f.Status == "" || rec.Status == f.Status) {
				out = append(out, rec.delivery())
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("webhook: listing deliveries: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return out, next, nil
}

func listParamError(param, format string, args ...any) *veriland.Error {
	return veriland.Errorf(veriland.CodeValidationFailed, format, args...).WithMeta("parameter", param)
}
