package testenv_test

import (
	"os"
	"testing"

	"github.com/veriland/veriland/internal/testenv"
)

// A test that needs a PostgreSQL server fails under CI=true without one, and skips
// elsewhere.
func ExampleRequire() {
	_ = func(t *testing.T) {
		if os.Getenv("VERILAND_TEST_POSTGRES_URL") == "" {
			testenv.Require(t, "PostgreSQL", "set VERILAND_TEST_POSTGRES_URL")
		}
	}
}
