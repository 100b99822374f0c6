package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// PurgeSandboxSubject erases the SANDBOX identity issued for subjectRef, for the
// sandbox reset (SPEC S10): the identity record, its subject, wallet and KYC provider
// reference index entries and its manual reviews. It returns how many stored keys it
// deleted, index entries included, and the identity's DID ("" when subjectRef has no
// SANDBOX identity, with 0), so that the caller can erase what names it (its
// attestations: attestation.Service.PurgeSandboxSubject). The identity's events went
// to the audit log and the outbox, which keep them. No event is emitted.
//
// Everything is deleted in one storage transaction. The review bucket is not indexed
// by DID, so SANDBOX's reviews are scanned in full; the wallet and provider indexes
// are read at the identity's own keys and only entries naming its DID are deleted.
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX (nothing is deleted); validation_failed for a subjectRef
// IssueRequest would refuse; otherwise the storage error.
func (s *Service) PurgeSandboxSubject(ctx context.Context, subjectRef string) (int, string, error) {
	if err := veriland.CheckSandboxOnly(ctx); err != nil {
		return 0, "", err
	}
	if n := utf8.RuneCountInString(subjectRef); n < 1 || n > MaxSubjectRef || !utf8.ValidString(subjectRef) {
		return 0, "", veriland.Invalid("/subjectRef", "subjectRef must be 1 to %d characters of valid UTF-8", MaxSubjectRef)
	}
	if err := s.check(veriland.Sandbox); err != nil {
		return 0, "", err
	}
	subject := s.subjectKey(veriland.Sandbox, subjectRef)
	var (
		n   int
		did string
	)
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		n, did = 0, ""
		r := repo(tx, veriland.Sandbox)
		found, ok, err := r.lookup(bucketSubjects, subject)
		if err != nil || !ok {
			return err
		}
		did = found
		// del deletes key of bucket when it names did (index entries) or always (nil
		// want), counting the keys that existed.
		del := func(bucket string, key []byte, want *string) error {
			v, err := tx.Get(r.bucket(bucket), key)
			if errors.Is(err, storage.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			if want != nil && string(v) != *want {
				return nil
			}
			if err := tx.Delete(r.bucket(bucket), key); err != nil {
				return err
			}
			n++
			return nil
		}
		if err := del(bucketSubjects, subject, nil); err != nil {
			return err
		}
		id, err := r.identity(did)
		if veriland.IsCode(err, veriland.CodeNotFound) {
			return nil // a dangling subject entry: gone now
		}
		if err != nil {
			return err
		}
		if id.WalletAddress != "" {
			if err := del(bucketWallets, []byte(id.WalletAddress), &did); err != nil {
				return err
			}
		}
		if id.ProviderRef != "" {
			if err := del(bucketProvider, []byte(id.ProviderRef), &did); err != nil {
				return err
			}
		}
		var reviews []string
		err = tx.Scan(r.bucket(bucketReviews), storage.Range{}, func(k, v []byte) error {
			var rv Review
			if err := json.Unmarshal(v, &rv); err != nil {
				return fmt.Errorf("identity: decoding review %s: %w", k, err)
			}
			if rv.DID == did {
				reviews = append(reviews, string(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, rv := range reviews {
			if err := del(bucketReviews, []byte(rv), nil); err != nil {
				return err
			}
		}
		return del(bucketIdentities, []byte(did), nil)
	})
	if err != nil {
		return 0, "", err
	}
	return n, did, nil
}
