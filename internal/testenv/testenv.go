package testenv

import (
	"os"
	"testing"
)

// InCI reports whether the tests run under continuous integration (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Require stops t because the component what is missing: under CI=true the test
// fails (t.Fatalf), elsewhere it is skipped (t.Skipf). how tells the reader how to
// provide the component, e.g. "set VERILAND_TEST_POSTGRES_URL".
func Require(t testing.TB, what, how string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s is required under CI=true but is not available: %s", what, how)
		return
	}
	t.Skipf("%s not available (%s); skipping (under CI=true this fails)", what, how)
}
