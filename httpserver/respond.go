package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/veriland/veriland/internal/jsonappend"
)

const (
	mediaJSON    = "application/json"
	mediaJSONAPI = "application/vnd.api+json"
)

// internalBody is the error document written when a response cannot be encoded.
const internalBody = `{"errors":[{"status":"500","code":"internal","title":"Internal error","meta":{}}]}` + "\n"

// writeJSON writes v with the content type of the route family: JSON:API for /v1,
// plain JSON for the identity routes.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	ct := mediaJSON
	if isPlatformPath(r.URL.Path) {
		ct = mediaJSONAPI
	}
	if !writeValue(w, status, ct, v) {
		s.log.ErrorContext(r.Context(), "encoding response", "err", encodeError(v))
	}
}

// writeJSONAs writes v with an explicit content type.
func (s *Server) writeJSONAs(w http.ResponseWriter, status int, ct string, v any) {
	writeValue(w, status, ct, v)
}

// writeValue writes v, encoded, with status and content type ct; when v cannot be
// encoded it writes the internal error document with status 500 instead, and
// returns false.
func writeValue(w http.ResponseWriter, status int, ct string, v any) bool {
	buf := encodeJSON(v)
	if buf == nil {
		writeEncoded(w, http.StatusInternalServerError, ct, []byte(internalBody))
		return false
	}
	defer releaseBuffer(buf)
	writeEncoded(w, status, ct, buf.Bytes())
	return true
}

// buffers holds the buffers responses are encoded into: an answer costs no copy of
// its body and no allocation for it once the pool is warm.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer kept for reuse; a rare large answer (a long
// list) must not pin its memory in the pool.
const maxPooledBuffer = 64 << 10

// encodeJSON encodes v followed by a newline, the bytes json.Marshal(v) + "\n", into
// a pooled buffer; nil when v cannot be encoded (encodeError then says why). A value
// with a hand-written encoder that writes exactly what json.Marshal writes
// (jsonappend.Appender: consent.DecisionResult and liveness.VerifyResult, which carry
// an attestation) writes itself, without encoding/json's reflection and its second
// pass over MarshalJSON output.
func encodeJSON(v any) *bytes.Buffer {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	if a, ok := v.(jsonappend.Appender); ok {
		b, err := a.AppendJSON(buf.AvailableBuffer())
		if err != nil {
			releaseBuffer(buf)
			return nil
		}
		buf.Write(append(b, '\n'))
		return buf
	}
	if json.NewEncoder(buf).Encode(v) != nil {
		releaseBuffer(buf)
		return nil
	}
	return buf
}

// encodeError is the error json.Marshal gives for v (the slow path of a failure).
func encodeError(v any) error {
	_, err := json.Marshal(v)
	return err
}

func releaseBuffer(buf *bytes.Buffer) {
	if buf != nil && buf.Cap() <= maxPooledBuffer {
		buffers.Put(buf)
	}
}

func writeBody(w http.ResponseWriter, status int, ct string, body []byte) {
	writeEncoded(w, status, ct, append(body, '\n'))
}

// writeEncoded writes body, which ends with its newline, with the headers every JSON
// answer carries: three header values from one allocation.
func writeEncoded(w http.ResponseWriter, status int, ct string, body []byte) {
	h := w.Header()
	vals := [...]string{ct, "no-store", "nosniff"}
	v := vals[:]
	h["Content-Type"] = v[0:1:1]
	h["Cache-Control"] = v[1:2:2]
	h["X-Content-Type-Options"] = v[2:3:3]
	w.WriteHeader(status)
	_, _ = w.Write(body)
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
	// OwnerConsent is the owner's page of a transfer that waits for the owner's
	// signature (GET /v1/me/parcels).
	OwnerConsent string `json:"ownerConsent,omitempty"`
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
