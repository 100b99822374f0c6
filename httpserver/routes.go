package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
)

var (
	admin    = []veriland.Role{veriland.RoleAdmin}
	holder   = []veriland.Role{veriland.RoleHolder}
	verifier = []veriland.Role{veriland.RoleVerifier}
)

// noRateLimit marks routes that are never rate limited (probes and documents).
const noRateLimit rateGroup = "-"

// registerRoutes registers every route. The OpenAPI document must list exactly
// these (a test checks both directions).
func (s *Server) registerRoutes() {
	// Platform: health, documents, metrics.
	s.add(route{method: "GET", path: "/v1/health", rate: noRateLimit, handle: s.health})
	s.add(route{method: "GET", path: "/v1/openapi.json", rate: noRateLimit, handle: s.openAPI})
	s.add(route{method: "GET", path: "/metrics", rate: noRateLimit, handle: func(w http.ResponseWriter, r *http.Request) error {
		s.metrics.handler().ServeHTTP(w, r)
		return nil
	}})

	// Platform: API keys and audit (admin).
	s.add(route{method: "POST", path: "/v1/api-keys", roles: admin, handle: s.createAPIKey})
	s.add(route{method: "GET", path: "/v1/api-keys", roles: admin, handle: s.listAPIKeys})
	s.add(route{method: "DELETE", path: "/v1/api-keys/{id}", roles: admin, handle: s.revokeAPIKey})
	s.add(route{method: "GET", path: "/v1/audit", roles: admin, handle: s.listAudit})
	s.add(route{method: "GET", path: "/v1/audit/verify", roles: admin, handle: s.verifyAudit})

	if s.cfg.Identity != nil {
		s.add(route{method: "POST", path: "/identity/issue", handle: s.issueIdentity})
		s.add(route{method: "GET", path: "/identity/{first}/{second}", handle: s.identityRead,
			documents: []string{"/identity/{did}/status", "/identity/review/{id}"}})
		s.add(route{method: "POST", path: "/identity/review/{id}/decision", roles: admin, handle: s.decideReview})
	}
	if s.cfg.SIWE != nil && s.cfg.Identity != nil {
		s.add(route{method: "POST", path: "/auth/siwe/nonce", handle: s.siweNonce})
		s.add(route{method: "POST", path: "/auth/siwe", handle: s.siweLogin})
	}
}

func invalidParam(name, msg string) error {
	return veriland.Invalid("/"+name, "%s", msg).WithMeta("parameter", name)
}
