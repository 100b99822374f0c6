package consent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// PurgeSandboxAccount erases every SANDBOX verification request of account (the
// requests whose verifier token carried that acct), whatever their status, with their
// expiry index entries, for the sandbox reset (SPEC S10). It returns how many stored
// keys it deleted, index entries included, and the ids of the CONSENT attestations the
// erased requests issued (APPROVED ones), for the caller to erase them with
// attestation.Service.PurgeSandbox. No event is emitted: the caller audits the reset.
//
// Requests are not indexed by account, so SANDBOX's requests bucket is scanned in
// full; everything is deleted in that one storage transaction.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX or of another account (nothing is deleted);
// validation_failed for an empty account; otherwise the storage error.
func (s *Service) PurgeSandboxAccount(ctx context.Context, account string) (int, []string, error) {
	if err := veriland.CheckSandboxErasure(ctx, account); err != nil {
		return 0, nil, err
	}
	if s.Store == nil {
		return 0, nil, errors.New("consent: Service.Store is nil")
	}
	var (
		n    int
		atts []string
	)
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		n, atts = 0, nil
		r := repo(tx, veriland.Sandbox)
		var doomed []*Request
		err := tx.Scan(r.bucket(bucketRequests), storage.Range{}, func(_, v []byte) error {
			var req Request
			if err := json.Unmarshal(v, &req); err != nil {
				return fmt.Errorf("consent: decoding a request: %w", err)
			}
			if req.Account == account {
				doomed = append(doomed, &req)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, req := range doomed {
			key := expiryKey(req.ExpiresAt, req.ID)
			if _, err := tx.Get(r.bucket(bucketExpiry), key); err == nil {
				n++ // a PENDING request's entry
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			if err := tx.Delete(r.bucket(bucketExpiry), key); err != nil {
				return err
			}
			if err := tx.Delete(r.bucket(bucketRequests), []byte(req.ID)); err != nil {
				return err
			}
			n++
			if req.AttestationID != "" {
				atts = append(atts, req.AttestationID)
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return n, atts, nil
}
