package sandbox_test

import (
	"fmt"

	"github.com/veriland/veriland/httpserver/sandbox"
)

// Every scenario names the request that triggers it and what it answers; the
// account's seeded ids are filled in where a scenario needs one.
func ExampleScenarios() {
	seeded := sandbox.Seeded{}
	seeded.Parcels.Pending = "prc_cccccccccccccccccccccccccc"
	var families []string
	seen := map[string]bool{}
	for _, sc := range sandbox.Scenarios("http://127.0.0.1:8080", seeded) {
		if !seen[sc.Family] {
			seen[sc.Family] = true
			families = append(families, sc.Family)
		}
	}
	fmt.Println(families)
	// Output: [kyc liveness consent chip parcels owners webhooks ratelimit]
}
