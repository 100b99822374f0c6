package attestation

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
)

// PurgeSandbox erases the SANDBOX attestations ids, for the sandbox reset (SPEC S10):
// each record with its subject index entry, its revocation-list entry and its pending
// anchoring jobs (issue and revocation). Unknown ids are skipped. It returns how many
// stored keys it deleted, index entries included. Revocation hooks do not run: an
// erased attestation is not revoked, it no longer exists.
//
// Everything is deleted in one storage transaction; the anchoring queue is keyed by
// due time, so SANDBOX's queue is scanned in full. An anchoring in flight while its
// attestation is erased finds no record when it settles and changes nothing.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX (nothing is deleted); otherwise the storage error.
func (s *Service) PurgeSandbox(ctx context.Context, ids []string) (int, error) {
	if err := veriland.CheckSandboxOnly(ctx); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	if s.Store == nil {
		return 0, errors.New("attestation: Service.Store is nil")
	}
	n := 0
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		var err error
		n, err = purge(tx, veriland.Sandbox, ids)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// PurgeSandboxSubject erases every SANDBOX attestation whose subject is subject (a
// DID or a subject reference), of every kind and status, as PurgeSandbox does, in one
// storage transaction. It returns how many stored keys it deleted.
//
// Errors: forbidden as PurgeSandbox; validation_failed for an empty subject or one
// holding NUL; otherwise the storage error.
func (s *Service) PurgeSandboxSubject(ctx context.Context, subject string) (int, error) {
	if err := veriland.CheckSandboxOnly(ctx); err != nil {
		return 0, err
	}
	if subject == "" || strings.IndexByte(subject, 0) >= 0 {
		return 0, veriland.Invalid("/subject", "subject must be a non-empty DID or subject reference")
	}
	if s.Store == nil {
		return 0, errors.New("attestation: Service.Store is nil")
	}
	n := 0
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		var ids []string
		prefix := subjectPrefix(subject, "")
		err := tx.Scan(storage.Bucket(veriland.Sandbox, bucketBySubject), storage.Range{Prefix: prefix}, func(k, _ []byte) error {
			// subject 0 kind 0 issuedAt(8) id
			rest := k[len(prefix):]
			if i := bytes.IndexByte(rest, 0); i >= 0 && len(rest) > i+1+8 {
				ids = append(ids, string(rest[i+1+8:]))
			}
			return nil
		})
		if err != nil {
			return err
		}
		n, err = purge(tx, veriland.Sandbox, ids)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// purge deletes attestations ids of env in tx with their index, revocation and
// anchoring entries, and returns how many keys it deleted.
func purge(tx storage.Tx, env veriland.Environment, ids []string) (int, error) {
	n := 0
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
	doomed := map[string]bool{}
	for _, id := range ids {
		if id == "" || len(id) > maxTextLen || doomed[id] {
			continue
		}
		r, err := loadRecord(tx, env, id)
		if veriland.IsCode(err, veriland.CodeNotFound) {
			continue
		}
		if err != nil {
			return 0, err
		}
		doomed[id] = true
		att := r.Attestation
		if err := del(storage.Bucket(env, bucketBySubject), subjectKey(att)); err != nil {
			return 0, err
		}
		if att.RevokedAt != nil {
			if err := del(storage.Bucket(env, bucketRevocations), revocationKey(*att.RevokedAt, id)); err != nil {
				return 0, err
			}
		}
		if err := del(storage.Bucket(env, bucketAttestations), []byte(id)); err != nil {
			return 0, err
		}
	}
	if len(doomed) == 0 {
		return n, nil
	}
	jobs, err := chainjob.DeleteWhere(tx, env, func(kind, ref string) bool {
		return (kind == JobIssue || kind == JobRevoke) && doomed[ref]
	})
	if err != nil {
		return 0, err
	}
	n += jobs
	return n, nil
}
