package idempotency

import (
	"encoding/json"
	"fmt"
	"net/http"
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

func (r record) response() Response {
	return Response{Status: r.Status, Header: r.Header, Body: r.Body}
}
