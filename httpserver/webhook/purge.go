package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// PurgeSandboxAccount erases every SANDBOX delivery of account (every delivery
// carries the account of the verifier it belongs to), whatever its status, with its
// attempts (kept in the record), its two list index entries and its entry in the
// global due index, for the sandbox reset (SPEC S10). It returns how many stored keys
// it deleted, index entries included.
//
// Verifiers' signing secrets are kept: they are keyed by the verifier's sub alone,
// which several accounts' sandboxes may share (the sandbox seed verifier's sub is the
// same in every account), and a receiver configured with a secret must keep
// verifying the deliveries that follow a reset.
//
// Deliveries are not indexed by account, so SANDBOX's deliveries bucket is scanned in
// full; everything is deleted in that one storage transaction. An attempt in flight
// while its delivery is erased finds no record when it ends and records nothing.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX or of another account (nothing is deleted);
// validation_failed for an empty account; otherwise the storage error.
func (o *Outbox) PurgeSandboxAccount(ctx context.Context, account string) (int, error) {
	if err := veriland.CheckSandboxErasure(ctx, account); err != nil {
		return 0, err
	}
	if o.Store == nil {
		return 0, errors.New("webhook: Outbox.Store is nil")
	}
	const env = veriland.Sandbox
	n := 0
	err := o.Store.Update(ctx, func(tx storage.Tx) error {
		n = 0
		var doomed []*deliveryRecord
		err := tx.Scan(storage.Bucket(env, deliveriesBucket), storage.Range{}, func(k, v []byte) error {
			var r deliveryRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("webhook: delivery %s is unreadable: %w", k, err)
			}
			if r.Account == account {
				doomed = append(doomed, &r)
			}
			return nil
		})
		if err != nil {
			return err
		}
		del := func(bucket string, key []byte) error {
			if _, err := tx.Get(bucket, key); err != nil {
				if errors.Is(err, storage.ErrNotFound) {
					return nil
				}
				return err
			}
			if err := tx.Delete(bucket, key); err != nil {
				return err
			}
			n++
			return nil
		}
		for _, r := range doomed {
			lk := listKey(r.CreatedAt, r.ID)
			if err := del(storage.Bucket(env, byCreatedBucket), lk); err != nil {
				return err
			}
			if err := del(storage.Bucket(env, byVerifierBucket), append(verifierPrefix(r.Verifier), lk...)); err != nil {
				return err
			}
			if !r.DueAt.IsZero() {
				if err := del(storage.Global(dueBucket), dueKey(r.DueAt, env, r.ID)); err != nil {
					return err
				}
			}
			if err := del(storage.Bucket(env, deliveriesBucket), []byte(r.ID)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
