package idempotency

import "github.com/veriland/veriland"

// Kind is what Begin found for a key.
type Kind int

// The four outcomes of Begin.
const (
	// Proceed: the key is now reserved for this request, which must run and then be
	// finished with Complete or Release.
	Proceed Kind = iota + 1
	// Replay: the request already finished; Outcome.Response is what to send again.
	Replay
	// InFlight: the first request with this key is still running (409).
	InFlight
	// Reused: the key was used with a different request body (422).
	Reused
)

// String returns the outcome's name.
func (k Kind) String() string {
	switch k {
	case Proceed:
		return "proceed"
	case Replay:
		return "replay"
	case InFlight:
		return "in_flight"
	case Reused:
		return "reused"
	}
	return "unknown"
}

// Outcome is the result of Begin.
type Outcome struct {
	Kind     Kind
	Response Response // the stored response, when Kind is Replay
}

// Err returns the error to answer for InFlight (idempotency_key_in_flight) and Reused
// (idempotency_key_reused), and nil for Proceed and Replay.
func (o Outcome) Err() error {
	switch o.Kind {
	case InFlight:
		return veriland.Errorf(veriland.CodeIdempotencyInFlight, "a request with this Idempotency-Key is still being processed; retry later")
	case Reused:
		return veriland.Errorf(veriland.CodeIdempotencyKeyReused, "this Idempotency-Key was already used with a different request body")
	}
	return nil
}
