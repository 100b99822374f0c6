package anchor

import (
	"context"
	"errors"
)

// Receipt says where a digest was anchored.
type Receipt struct {
	TxHash      string // "0x" + 64 hex
	BlockNumber uint64
}

// Anchor puts a digest on a chain.
type Anchor interface {
	// Anchor sends digest and waits until it is in a block, or ctx ends, or the
	// implementation's own timeout passes. It may be called concurrently.
	Anchor(ctx context.Context, digest [32]byte) (Receipt, error)
	// Name identifies the implementation in logs and health checks ("disabled",
	// "ethereum", "simulated").
	Name() string
}

// ErrDisabled is returned by Disabled.Anchor.
var ErrDisabled = errors.New("anchor: anchoring is disabled")

// Disabled is the Anchor of a service that does not anchor.
type Disabled struct{}

// Anchor returns ErrDisabled.
func (Disabled) Anchor(context.Context, [32]byte) (Receipt, error) { return Receipt{}, ErrDisabled }

// Name returns "disabled".
func (Disabled) Name() string { return "disabled" }

// IsDisabled reports whether a is nil or Disabled: a service then marks new records
// DISABLED instead of queueing them.
func IsDisabled(a Anchor) bool {
	switch a.(type) {
	case nil, Disabled, *Disabled:
		return true
	}
	return false
}
