package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/httpserver/apidocs"
)

// registerDocs registers the human API reference (GET /docs) and the renderer it
// loads, both embedded in the binary (package apidocs). Public and never rate
// limited, like the OpenAPI document they render.
func (s *Server) registerDocs() {
	s.add(route{method: "GET", path: apidocs.PagePath, rate: noRateLimit, handle: func(w http.ResponseWriter, _ *http.Request) error {
		apidocs.WritePage(w)
		return nil
	}})
	s.add(route{method: "GET", path: apidocs.RendererPath, rate: noRateLimit, handle: func(w http.ResponseWriter, _ *http.Request) error {
		apidocs.WriteRenderer(w)
		return nil
	}})
}
