package main

import (
	"context"
	"os"
	"testing"
)

// replicaEnv, when set to "1" in a test binary's environment, makes the binary run
// the reference server with its arguments instead of the tests: TestReplicas starts
// its server processes that way, so that it needs no separate go build and the
// replicas run with the race detector when the test does.
const replicaEnv = "VERILAND_TEST_REPLICA"

func TestMain(m *testing.M) {
	if os.Getenv(replicaEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
