package idempotency

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/veriland/veriland/storage/fieldcrypt"
)

// recordVersion is written into every record so that the format can change later.
const recordVersion = 1

// Record states.
const (
	stateInFlight = "in_flight"
	stateComplete = "complete"
)

// record is the stored value of one scope.
type record struct {
	Version     int         `json:"v"`
	State       string      `json:"state"`
	Fingerprint []byte      `json:"fp"`
	LeaseUntil  int64       `json:"lease,omitempty"` // unix ns; in-flight only
	Expires     int64       `json:"exp"`             // unix ns
	Status      int         `json:"status,omitempty"`
	Header      http.Header `json:"header,omitempty"`
	Body        []byte      `json:"body,omitempty"`
	// Sealed replaces Status, Header and Body when the Store has a keyring: the
	// response, as JSON, sealed with AAD = sealAAD(bucket, id).
	Sealed *fieldcrypt.Sealed `json:"sealed,omitempty"`
}

// sealedResponse is the plaintext of record.Sealed.
type sealedResponse struct {
	Status int         `json:"status"`
	Header http.Header `json:"header,omitempty"`
	Body   []byte      `json:"body,omitempty"`
}

// sealAAD binds a sealed response to its record: the environment's bucket and the
// record key, so that it opens neither under another scope nor in another
// environment.
func sealAAD(bucket string, id []byte) []byte {
	out := make([]byte, 0, len("idempotency:")+len(bucket)+1+len(id))
	out = append(out, "idempotency:"...)
	out = append(out, bucket...)
	out = append(out, 0)
	return append(out, id...)
}

func (r record) encode() ([]byte, error) { return json.Marshal(r) }

func decodeRecord(v []byte) (record, error) {
	var r record
	if err := json.Unmarshal(v, &r); err != nil {
		return record{}, fmt.Errorf("idempotency: malformed record: %w", err)
	}
	if r.Version != recordVersion {
		return record{}, fmt.Errorf("idempotency: record version %d unsupported", r.Version)
	}
	return r, nil
}

// response returns the stored response, opening it with fields when it is sealed.
// A sealed response with no keyring, or one that does not open (its key erased, the
// record tampered with), is an error: replaying anything else would be wrong, and
// running the request again would break idempotency.
func (r record) response(fields *fieldcrypt.Keyring, bucket string, id []byte) (Response, error) {
	if r.Sealed == nil {
		return Response{Status: r.Status, Header: r.Header, Body: r.Body}, nil
	}
	if fields == nil {
		return Response{}, fmt.Errorf("idempotency: response sealed under key %q but the store has no keyring", r.Sealed.KeyID)
	}
	plain, err := fields.Open(*r.Sealed, sealAAD(bucket, id))
	if err != nil {
		return Response{}, fmt.Errorf("idempotency: opening the stored response: %w", err)
	}
	var sr sealedResponse
	if err := json.Unmarshal(plain, &sr); err != nil {
		return Response{}, fmt.Errorf("idempotency: malformed sealed response: %w", err)
	}
	return Response{Status: sr.Status, Header: sr.Header, Body: sr.Body}, nil
}

// seal moves the response of r into r.Sealed.
func (r *record) seal(fields *fieldcrypt.Keyring, bucket string, id []byte) error {
	plain, err := json.Marshal(sealedResponse{Status: r.Status, Header: r.Header, Body: r.Body})
	if err != nil {
		return err
	}
	s, err := fields.Seal(plain, sealAAD(bucket, id))
	if err != nil {
		return err
	}
	r.Status, r.Header, r.Body, r.Sealed = 0, nil, nil, &s
	return nil
}
