package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// PurgeSandboxAccount erases every SANDBOX assistant session of account, whichever
// sub opened it, with all its messages and its owner index entry, for the sandbox
// reset (SPEC S10). It returns how many stored keys it deleted (sessions, messages
// and index entries).
//
// The sessions are found through the owner index (account ‖ 0x00 ‖ …), and each is
// checked to belong to account before it is deleted; index entries of the account
// whose session is already gone are deleted too. Everything is deleted in one storage
// transaction: a session holds at most a few hundred messages.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX or of another account (nothing is deleted);
// validation_failed for an empty account; otherwise the storage error.
func (s *Service) PurgeSandboxAccount(ctx context.Context, account string) (int, error) {
	if err := veriland.CheckSandboxErasure(ctx, account); err != nil {
		return 0, err
	}
	if s == nil || s.Store == nil {
		return 0, errors.New("assistant: Service needs Store")
	}
	n := 0
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		n = 0
		r := repo(tx, veriland.Sandbox)
		prefix := []byte(account + "\x00")
		var keys [][]byte
		err := tx.Scan(r.bucket(bucketOwners), storage.Range{Prefix: prefix}, func(k, _ []byte) error {
			keys = append(keys, append([]byte(nil), k...))
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			// account 0 sub 0 ^createdAt(8) id
			rest := k[len(prefix):]
			i := strings.IndexByte(string(rest), 0)
			if i >= 0 && len(rest) > i+1+8 {
				id := string(rest[i+1+8:])
				deleted, err := r.purgeSession(id, account)
				if err != nil {
					return err
				}
				n += deleted
			}
			// The entry itself (a dangling one, or one whose key the record no longer
			// computes to).
			if _, err := tx.Get(r.bucket(bucketOwners), k); err == nil {
				if err := tx.Delete(r.bucket(bucketOwners), k); err != nil {
					return err
				}
				n++
			} else if !errors.Is(err, storage.ErrNotFound) {
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

// purgeSession deletes session id with its messages and owner entry when it belongs
// to account, and returns how many keys it deleted.
func (r repository) purgeSession(id, account string) (int, error) {
	b, err := r.tx.Get(r.bucket(bucketSessions), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var rec sessionRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return 0, fmt.Errorf("assistant: decoding session %s: %w", id, err)
	}
	if rec.Account != account {
		return 0, nil
	}
	n := 2 // the record and its owner entry
	if _, err := r.tx.Get(r.bucket(bucketOwners), ownerKey(&rec)); errors.Is(err, storage.ErrNotFound) {
		n = 1
	} else if err != nil {
		return 0, err
	}
	err = r.tx.Scan(r.bucket(bucketMessages), storage.Range{Prefix: append([]byte(id), 0)}, func(_, _ []byte) error {
		n++
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := r.deleteSession(&rec); err != nil {
		return 0, err
	}
	return n, nil
}
