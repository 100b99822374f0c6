package attestation

import (
	"context"
	"errors"
)

// AnchorReceipt says where a digest was anchored.
type AnchorReceipt struct {
	TxHash      string // "0x" + 64 hex
	BlockNumber uint64
}

// Anchorer puts a digest on a chain. It is declared here, and implemented in
// attestation/anchor, so that verifying attestations never links a chain client:
// only the wiring that builds a Service imports an implementation.
type Anchorer interface {
	// Anchor sends digest and waits until it is in a block, or ctx ends, or the
	// implementation's own timeout passes. It may be called concurrently.
	Anchor(ctx context.Context, digest [32]byte) (AnchorReceipt, error)
	// Name identifies the implementation in logs and health checks ("disabled",
	// "ethereum", "simulated").
	Name() string
}

// ErrAnchoringDisabled is returned by NoAnchor.Anchor.
var ErrAnchoringDisabled = errors.New("anchor: anchoring is disabled")

// NoAnchor is the Anchorer of a service that does not anchor.
type NoAnchor struct{}

// Anchor returns ErrAnchoringDisabled.
func (NoAnchor) Anchor(context.Context, [32]byte) (AnchorReceipt, error) {
	return AnchorReceipt{}, ErrAnchoringDisabled
}

// Name returns "disabled".
func (NoAnchor) Name() string { return "disabled" }

// AnchoringDisabled reports whether a is nil or NoAnchor: a service then marks new
// records DISABLED instead of queueing them.
func AnchoringDisabled(a Anchorer) bool {
	switch a.(type) {
	case nil, NoAnchor, *NoAnchor:
		return true
	}
	return false
}
