package httpserver

import (
	_ "embed"
	"net/http"
)

// openAPIDocument is the OpenAPI 3.1 description of every route, served as is.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPI returns the embedded OpenAPI 3.1 document.
func OpenAPI() []byte { return append([]byte(nil), openAPIDocument...) }

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	writeBody(w, http.StatusOK, "application/json", openAPIDocument)
	return nil
}
