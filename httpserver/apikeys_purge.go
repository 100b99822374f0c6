package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// purgeSandboxAPIKeys erases the SANDBOX API keys of account, for the sandbox reset
// (SPEC S10): each key record and its jti index entry. It returns how many stored keys
// it deleted (two per API key).
//
// A deleted key's token must stay refused, so its jti is written to the revocation
// list (revoked_jti, valued with the key's expiry, as DELETE /v1/api-keys/{id} does)
// in the same transaction: tokenRevoked keeps refusing it although the key record is
// gone. Keys whose token's jti is in keepJTIs are kept untouched: the reset passes the
// caller's own token's jti, so that a reset made from the dashboard with a sandbox
// API key does not sign its operator out.
//
// Account keys are few (an admin creates each one), so SANDBOX's keys bucket is
// scanned in full and everything is done in one storage transaction.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX or of another account (nothing is deleted);
// validation_failed for an empty account; otherwise the storage error.
func (s *Server) purgeSandboxAPIKeys(ctx context.Context, account string, keepJTIs ...string) (int, error) {
	if err := veriland.CheckSandboxErasure(ctx, account); err != nil {
		return 0, err
	}
	const env = veriland.Sandbox
	n := 0
	err := s.cfg.Store.Update(ctx, func(tx storage.Tx) error {
		n = 0
		var doomed []apiKeyRecord
		err := tx.Scan(apiKeysBucket(env), storage.Range{}, func(k, v []byte) error {
			var rec apiKeyRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return fmt.Errorf("httpserver: decoding API key %s: %w", k, err)
			}
			if rec.Account == account && !slices.Contains(keepJTIs, rec.JTI) {
				doomed = append(doomed, rec)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, rec := range doomed {
			if rec.JTI != "" {
				exp, err := rec.ExpiresAt.MarshalText()
				if err != nil {
					return err
				}
				if err := tx.Put(revokedJTIBucket(env), []byte(rec.JTI), exp); err != nil {
					return err
				}
				// The index entry, when it still names this key.
				id, err := tx.Get(apiKeyJTIBucket(env), []byte(rec.JTI))
				switch {
				case err == nil && string(id) == rec.ID:
					if err := tx.Delete(apiKeyJTIBucket(env), []byte(rec.JTI)); err != nil {
						return err
					}
					n++
				case err != nil && !errors.Is(err, storage.ErrNotFound):
					return err
				}
			}
			if err := tx.Delete(apiKeysBucket(env), []byte(rec.ID)); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
