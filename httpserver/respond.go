package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
)

const (
	mediaJSON    = "application/json"
	mediaJSONAPI = "application/vnd.api+json"
)

// writeJSON writes v with the content type of the route family: JSON:API for /v1,
// plain JSON for the identity routes.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.log.ErrorContext(r.Context(), "encoding response", "err", err)
		status, body = http.StatusInternalServerError, []byte(`{"errors":[{"status":"500","code":"internal","title":"Internal error","meta":{}}]}`)
	}
	ct := mediaJSON
	if isPlatformPath(r.URL.Path) {
		ct = mediaJSONAPI
	}
	writeBody(w, status, ct, body)
}

// writeJSONAs writes v with an explicit content type.
func (s *Server) writeJSONAs(w http.ResponseWriter, status int, ct string, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"errors":[{"status":"500","code":"internal","title":"Internal error","meta":{}}]}`)
	}
	writeBody(w, status, ct, body)
}

func writeBody(w http.ResponseWriter, status int, ct string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

func isPlatformPath(path string) bool {
	return path == "/v1" || strings.HasPrefix(path, "/v1/")
}

// resource is a JSON:API resource object.
type resource struct {
	Type       string         `json:"type"`
	ID         string         `json:"id"`
	Attributes any            `json:"attributes"`
	Links      *resourceLinks `json:"links,omitempty"`
}

type resourceLinks struct {
	Self string `json:"self,omitempty"`
}

type document struct {
	Data  any            `json:"data"`
	Links *documentLinks `json:"links,omitempty"`
	Meta  map[string]any `json:"meta,omitempty"`
}

type documentLinks struct {
	Self string `json:"self,omitempty"`
	Next string `json:"next,omitempty"`
}

// writeResource answers one JSON:API resource.
func (s *Server) writeResource(w http.ResponseWriter, r *http.Request, status int, typ, id string, attrs any, self string) {
	if self != "" {
		w.Header().Set("Location", self)
	}
	s.writeJSON(w, r, status, document{Data: newResource(typ, id, attrs, self)})
}

func newResource(typ, id string, attrs any, self string) resource {
	res := resource{Type: typ, ID: id, Attributes: attrs}
	if self != "" {
		res.Links = &resourceLinks{Self: self}
	}
	return res
}

// writeCollection answers a JSON:API list with its opaque next-page link, and says in
// the top-level meta.has_more whether that link leads to more items.
func (s *Server) writeCollection(w http.ResponseWriter, r *http.Request, items []resource, next string) {
	doc := document{Data: items, Links: &documentLinks{Self: r.URL.RequestURI()},
		Meta: map[string]any{"has_more": next != ""}}
	if items == nil {
		doc.Data = []resource{}
	}
	if next != "" {
		q := r.URL.Query()
		q.Set("cursor", next)
		doc.Links.Next = r.URL.Path + "?" + q.Encode()
	}
	s.writeJSON(w, r, http.StatusOK, doc)
}
