package dashboard_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/veriland/veriland/httpserver/dashboard"
)

// The dashboard is one page, served with a policy that allows its own inline script
// and style by hash and nothing from elsewhere.
func ExampleHandler() {
	rec := httptest.NewRecorder()
	dashboard.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/dashboard", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(strings.Contains(csp, "default-src 'none'"), strings.Contains(csp, "'sha256-"), strings.Contains(csp, "unsafe-inline"))
	// Output:
	// 200 text/html; charset=utf-8
	// true true false
}
