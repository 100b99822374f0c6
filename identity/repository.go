package identity

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Bucket names, each namespaced per environment with storage.Bucket.
const (
	bucketIdentities = "identities"        // DID → Identity JSON
	bucketSubjects   = "identity_subjects" // HMAC(pepper, env, subjectRef) → DID
	bucketWallets    = "identity_wallets"  // lower-case 0x address → DID
	bucketProvider   = "identity_kyc_refs" // KYC provider reference → DID
	bucketReviews    = "identity_reviews"  // review id → Review JSON
)

// repository is the typed view of one environment's identity buckets inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func repo(tx storage.Tx, env veriland.Environment) repository { return repository{tx: tx, env: env} }

func (r repository) bucket(name string) string { return storage.Bucket(r.env, name) }

func (r repository) identity(did string) (*Identity, error) {
	if !ValidDID(did) {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no identity %s", did)
	}
	b, err := r.tx.Get(r.bucket(bucketIdentities), []byte(did))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no identity %s", did)
	}
	if err != nil {
		return nil, fmt.Errorf("identity: reading %s: %w", did, err)
	}
	id, err := decodeIdentity(b)
	if err != nil {
		return nil, fmt.Errorf("identity: decoding %s: %w", did, err)
	}
	return id, nil
}

func (r repository) putIdentity(id *Identity) error {
	b, err := json.Marshal(id)
	if err != nil {
		return fmt.Errorf("identity: encoding %s: %w", id.DID, err)
	}
	return r.tx.Put(r.bucket(bucketIdentities), []byte(id.DID), b)
}

// lookup reads an index entry (index key → DID).
func (r repository) lookup(bucket string, key []byte) (string, bool, error) {
	b, err := r.tx.Get(r.bucket(bucket), key)
	if errors.Is(err, storage.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("identity: reading index %s: %w", bucket, err)
	}
	return string(b), true, nil
}

func (r repository) index(bucket string, key []byte, did string) error {
	return r.tx.Put(r.bucket(bucket), key, []byte(did))
}

func (r repository) unindex(bucket string, key []byte) error {
	return r.tx.Delete(r.bucket(bucket), key)
}

func (r repository) deleteIdentity(did string) error {
	return r.tx.Delete(r.bucket(bucketIdentities), []byte(did))
}

func (r repository) review(id string) (*Review, error) {
	b, err := r.tx.Get(r.bucket(bucketReviews), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no review %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("identity: reading review %s: %w", id, err)
	}
	var rv Review
	if err := json.Unmarshal(b, &rv); err != nil {
		return nil, fmt.Errorf("identity: decoding review %s: %w", id, err)
	}
	return &rv, nil
}

func (r repository) putReview(rv *Review) error {
	b, err := json.Marshal(rv)
	if err != nil {
		return fmt.Errorf("identity: encoding review %s: %w", rv.ID, err)
	}
	return r.tx.Put(r.bucket(bucketReviews), []byte(rv.ID), b)
}
