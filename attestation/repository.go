package attestation

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/jsonappend"
	"github.com/veriland/veriland/storage"
)

// Bucket names, inside each environment's namespace (storage.Bucket).
const (
	bucketAttestations     = "attestations"             // id → record
	bucketBySubject        = "attestations_by_subject"  // subject 0 kind 0 issuedAt id → ""
	bucketRevocations      = "attestation_revocations"  // revokedAt id → ""
	bucketLegacyAnchorJobs = "attestation_anchor_queue" // before storage/chainjob: due id 0 purpose → job; drained by MigrateAnchorQueue
)

// record is what the attestations bucket holds. The typed data is not stored: it is
// rebuilt from the fields on load, so that it always has the shape Sign gives it.
type record struct {
	Attestation      *Attestation `json:"attestation"`
	RevocationReason string       `json:"revocationReason,omitempty"`
	RevokedBy        string       `json:"revokedBy,omitempty"`
}

// appendJSON encodes r with stored as its attestation, exactly as json.Marshal
// writes a record (the stored form does not change), through Attestation.AppendJSON.
func (r *record) appendJSON(stored *Attestation) ([]byte, error) {
	b, err := stored.AppendJSON(append(make([]byte, 0, 1024), `{"attestation":`...))
	if err != nil {
		return nil, err
	}
	if r.RevocationReason != "" {
		b = jsonappend.String(append(b, `,"revocationReason":`...), r.RevocationReason)
	}
	if r.RevokedBy != "" {
		b = jsonappend.String(append(b, `,"revokedBy":`...), r.RevokedBy)
	}
	return append(b, '}'), nil
}

func notFound() *veriland.Error {
	return veriland.Errorf(veriland.CodeNotFound, "attestation not found")
}

func loadRecord(tx storage.Tx, env veriland.Environment, id string) (*record, error) {
	b, err := tx.Get(storage.Bucket(env, bucketAttestations), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, notFound()
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil || r.Attestation == nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "corrupt attestation record").WithCause(err)
	}
	m, err := r.Attestation.Message()
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "corrupt attestation claims").WithCause(err)
	}
	r.Attestation.TypedData = m.TypedData(r.Attestation.Issuer.ChainID)
	return &r, nil
}

func saveRecord(tx storage.Tx, env veriland.Environment, r *record) error {
	stored := *r.Attestation
	stored.TypedData = TypedData{}
	b, err := r.appendJSON(&stored)
	if err != nil {
		return veriland.Errorf(veriland.CodeInternal, "cannot encode attestation").WithCause(err)
	}
	return tx.Put(storage.Bucket(env, bucketAttestations), []byte(r.Attestation.ID), b)
}

// subjectPrefix is the index prefix of subject's attestations, of one kind when kind
// is not "". Subjects and kinds never contain NUL (Draft validation).
func subjectPrefix(subject string, kind Kind) []byte {
	p := append([]byte(subject), 0)
	if kind != "" {
		p = append(append(p, kind...), 0)
	}
	return p
}

func subjectKey(att *Attestation) []byte {
	k := subjectPrefix(att.Subject, att.Kind)
	k = binary.BigEndian.AppendUint64(k, unixSeconds(att.IssuedAt))
	return append(k, att.ID...)
}

func revocationKey(at time.Time, id string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, unixSeconds(at)), id...)
}
