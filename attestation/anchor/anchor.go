package anchor

import "github.com/veriland/veriland/attestation"

// Receipt says where a digest was anchored.
type Receipt = attestation.AnchorReceipt

// Anchor puts a digest on a chain; see attestation.Anchorer, which it is.
type Anchor = attestation.Anchorer

// ErrDisabled is returned by Disabled.Anchor.
var ErrDisabled = attestation.ErrAnchoringDisabled

// Disabled is the Anchor of a service that does not anchor.
type Disabled = attestation.NoAnchor

// IsDisabled reports whether a is nil or Disabled: a service then marks new records
// DISABLED instead of queueing them.
func IsDisabled(a Anchor) bool { return attestation.AnchoringDisabled(a) }
