package attestation_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOfflineVerifierDependencies checks that verifying attestations links no chain
// client: neither this package nor examples/verify-attestation may depend on
// attestation/anchor or go-ethereum's simulated backend and ethclient (issue 13,
// point 9). It runs `go list -deps` and is skipped without the go tool.
func TestOfflineVerifierDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH; skipping the dependency check of the offline verifier")
	}
	forbidden := []string{
		"github.com/veriland/veriland/attestation/anchor",
		"github.com/ethereum/go-ethereum/ethclient/simulated",
		"github.com/ethereum/go-ethereum/ethclient",
	}
	for _, pkg := range []string{
		"github.com/veriland/veriland/attestation",
		"github.com/veriland/veriland/examples/verify-attestation",
	} {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command(goTool, "list", "-deps", pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
			}
			deps := map[string]bool{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				deps[line] = true
			}
			for _, f := range forbidden {
				if deps[f] {
					t.Errorf("%s depends on %s: the offline verifier must not link a chain client", pkg, f)
				}
			}
		})
	}
}
