package httpserver

import (
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/idempotency"
)

// idempotencyLease outlives the server's longest request (its write timeout), so a
// slow first request is never taken over by its own retry.
const idempotencyLease = 3 * time.Minute

func (s *Server) setupIdempotency() {
	s.idempotencyStore = &idempotency.Store{Store: s.cfg.Store, Now: s.cfg.Now, Lease: idempotencyLease, Logger: s.log, Fields: s.cfg.Fields,
		FingerprintKey: s.cfg.IdempotencyFingerprintKey}
	s.idempotency = idempotency.Middleware(s.idempotencyStore, s.idempotencyScope, s.writeError)
}

// idempotencyScope is (environment, token sub or client IP, method, path); public
// routes have no environment of their own and share the PRODUCTION namespace, which
// is safe because the scope also holds the client IP and the path.
func (s *Server) idempotencyScope(r *http.Request) (idempotency.Scope, bool) {
	sc := idempotency.Scope{Method: r.Method, Path: r.URL.Path}
	if p, ok := veriland.PrincipalFrom(r.Context()); ok {
		sc.Env, sc.Subject = p.Env, p.Subject
	} else {
		sc.Env, sc.ClientIP = veriland.Production, s.clientIP(r)
	}
	return sc, true
}

// idempotent runs a POST handler under SPEC S2.4 idempotency: with an
// Idempotency-Key the first response is stored for 24 hours and replayed byte for
// byte; without one the handler just runs.
func (s *Server) idempotent(w http.ResponseWriter, r *http.Request, h handlerFunc) error {
	s.idempotency(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})).ServeHTTP(w, r)
	return nil
}
