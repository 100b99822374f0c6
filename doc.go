// Package veriland holds the vocabulary every veriland package shares: the error type
// with its SPEC S2.2 codes, the two environments and the authenticated principal.
//
// veriland proves who someone is without keeping their personal data, and certifies
// land. The domain lives in its sub-packages (identity, consent, attestation, liveness,
// chipauth, parcel, assistant), storage in storage and its backends, and HTTP in
// httpserver; examples/server wires them into the reference server.
//
// Every domain package returns *Error (or Errors, for several invalid members) for
// failures a caller can act on; only httpserver turns codes into HTTP statuses.
package veriland
