package main

import (
	"io"
	"os"
	"time"
)

// The command accepts the current version from its PDF, and reports the version a
// transfer replaced as SUPERSEDED from the issuer-signed status list, with no network.
func Example() {
	now := func() time.Time { return fixtureNow }
	run([]string{"-cert", fixture("v2.pdf"), "-issuer", issuer, "-statuses", fixture("statuses.json")}, os.Stdout, io.Discard, now)
	run([]string{"-cert", fixture("v1.json"), "-issuer", issuer, "-statuses", fixture("statuses.json")}, os.Stdout, io.Discard, now)
	// Output:
	// CURRENT
	// SUPERSEDED
}
