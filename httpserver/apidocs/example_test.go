package apidocs_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/veriland/veriland/httpserver/apidocs"
)

// The reference page loads the vendored renderer from its own origin, pinned by a
// Subresource Integrity hash.
func ExampleWritePage() {
	rec := httptest.NewRecorder()
	apidocs.WritePage(rec)
	fmt.Println(rec.Code, strings.Contains(rec.Body.String(), apidocs.Integrity()), strings.HasPrefix(apidocs.Integrity(), "sha"))
	// Output: 200 true true
}
