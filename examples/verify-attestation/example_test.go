package main

import (
	"os"
	"time"
)

// The command checks an attestation with nothing but the trusted issuer address, and
// refuses it once a signed revocation list lists it.
func Example() {
	at := func() time.Time { return time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC) }
	run([]string{"-att", "testdata/attestation_liveness.json", "-issuer", "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}, os.Stdout, os.Stdout, at)
	run([]string{"-att", "testdata/attestation_liveness.json", "-issuer", "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23",
		"-revocations", "testdata/revocations.json"}, os.Stdout, os.Stdout, at)
	// Output:
	// VALID
	// INVALID: attestation: revoked: revoked at 2026-11-21T12:50:00Z
}
