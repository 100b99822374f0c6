package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
)

// ensureSandbox seeds the caller's sandbox on the first authenticated SANDBOX request
// of its account (SPEC S10), before the request runs, so that the request already sees
// the seeded records. A failed seeding is logged and the request goes on: the next
// request tries again.
func (s *Server) ensureSandbox(r *http.Request) {
	p, ok := veriland.PrincipalFrom(r.Context())
	if !ok || s.cfg.Sandbox == nil || p.Env != veriland.Sandbox || p.Account == "" || s.cfg.Sandbox.Seeded(p.Account) {
		return
	}
	if _, err := s.cfg.Sandbox.Ensure(r.Context(), p.Account); err != nil && r.Context().Err() == nil {
		s.log.WarnContext(r.Context(), "seeding the sandbox failed; the next request tries again", "account", p.Account, "err", err)
	}
}
