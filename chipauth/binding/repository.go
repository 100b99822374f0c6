package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// bucketDocuments maps a document key (32 bytes, HMAC-SHA256(pepper, issuing
// state ‖ document number)) to the record of the identity it is bound to. It is
// namespaced per environment with storage.Bucket.
const bucketDocuments = "chip_documents"

// documentRecord is all that is kept about a bound document: whose it is and
// when. The key is the only trace of the document itself.
type documentRecord struct {
	Subject       string    `json:"subject"`       // the holder's DID
	BoundAt       time.Time `json:"boundAt"`       // first binding
	LastBoundAt   time.Time `json:"lastBoundAt"`   // latest binding (equal to BoundAt at first)
	AttestationID string    `json:"attestationId"` // CHIP_BINDING attestation of the latest binding
	Bindings      int       `json:"bindings"`      // how many times the holder bound it
}

// repository is the typed view of one environment's binding bucket inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func (r repository) bucket() string { return storage.Bucket(r.env, bucketDocuments) }

// document returns the record of key, or nil when the document is not bound.
func (r repository) document(key []byte) (*documentRecord, error) {
	b, err := r.tx.Get(r.bucket(), key)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("binding: reading a document record: %w", err)
	}
	var rec documentRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("binding: decoding a document record: %w", err)
	}
	return &rec, nil
}

func (r repository) putDocument(key []byte, rec *documentRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("binding: encoding a document record: %w", err)
	}
	return r.tx.Put(r.bucket(), key, b)
}
