package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/httpserver/dashboard"
)

// registerDashboard registers GET /dashboard, the operator dashboard of SPEC S10: a
// static page, the same for everyone who reads it in the same language (it carries
// no data and no key); it signs in with an API key in the browser and calls the
// public API only. It is public and never rate limited, like the OpenAPI document.
func (s *Server) registerDashboard() {
	s.add(route{method: "GET", path: "/dashboard", rate: noRateLimit, handle: s.dashboard})
}

// dashboard serves the page in the reader's language (the ?lang= of its language
// switcher, else Accept-Language, else English) with its hash-based
// Content-Security-Policy.
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) error {
	dashboard.Write(w, dashboard.Language(r))
	return nil
}
