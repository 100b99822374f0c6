package httpserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// errorObject is one member of a JSON:API error document (SPEC S2.2).
type errorObject struct {
	ID     string         `json:"id"`
	Status string         `json:"status"`
	Code   veriland.Code  `json:"code"`
	Title  string         `json:"title"`
	Detail string         `json:"detail,omitempty"`
	Source *errorSource   `json:"source,omitempty"`
	Meta   map[string]any `json:"meta"`
}

type errorSource struct {
	Pointer string `json:"pointer"`
}

type errorDocument struct {
	Errors []errorObject `json:"errors"`
}

// writeError answers err as a JSON:API error document. Errors that are not
// *veriland.Error (or a list of them) are bugs or outages: they are logged with the
// request id and answered 500 with nothing but that id.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	reqID := veriland.RequestIDFrom(r.Context())
	list := s.errorList(r, err)
	status := statusOf[list[0].Code]
	if status == 0 {
		s.log.ErrorContext(r.Context(), "error code has no status", "code", list[0].Code, "request_id", reqID)
		list = veriland.Errors{{Code: veriland.CodeInternal}}
		status = http.StatusInternalServerError
	}
	doc := errorDocument{Errors: make([]errorObject, 0, len(list))}
	for _, e := range list {
		o := errorObject{
			ID:     reqID,
			Status: strconv.Itoa(status),
			Code:   e.Code,
			Title:  titleOf[e.Code],
			Detail: e.Message,
			Meta:   e.Meta,
		}
		if o.Meta == nil {
			o.Meta = map[string]any{}
		}
		if e.Pointer != "" {
			o.Source = &errorSource{Pointer: e.Pointer}
		}
		doc.Errors = append(doc.Errors, o)
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="veriland"`)
	}
	s.writeJSON(w, r, status, doc)
}

func (s *Server) errorList(r *http.Request, err error) veriland.Errors {
	var list veriland.Errors
	if errors.As(err, &list) && len(list) > 0 {
		return list
	}
	var ve *veriland.Error
	if errors.As(err, &ve) {
		if ve.Code == veriland.CodeInternal || ve.Code == veriland.CodeUnavailable {
			s.log.ErrorContext(r.Context(), "request failed", "code", ve.Code, "err", err,
				"request_id", veriland.RequestIDFrom(r.Context()))
			// The message of an outage may name internals; show the code's own words.
			return veriland.Errors{{Code: ve.Code, Message: safeOutageMessage(ve)}}
		}
		return veriland.Errors{ve}
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return veriland.Errors{veriland.Errorf(veriland.CodePayloadTooLarge,
			"the request body exceeds the limit of %d bytes", tooLarge.Limit)}
	}
	if errors.Is(err, storage.ErrClosed) || errors.Is(err, storage.ErrUnavailable) {
		s.log.ErrorContext(r.Context(), "storage unavailable", "err", err, "request_id", veriland.RequestIDFrom(r.Context()))
		return veriland.Errors{{Code: veriland.CodeUnavailable, Message: "storage is unavailable; retry later"}}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		s.log.WarnContext(r.Context(), "request timed out", "err", err, "request_id", veriland.RequestIDFrom(r.Context()))
		return veriland.Errors{{Code: veriland.CodeUnavailable, Message: "the request timed out"}}
	}
	level := slog.LevelError
	if errors.Is(err, context.Canceled) {
		level = slog.LevelInfo // the client went away
	}
	s.log.Log(r.Context(), level, "internal error", "err", err, "request_id", veriland.RequestIDFrom(r.Context()))
	return veriland.Errors{{Code: veriland.CodeInternal}}
}

func safeOutageMessage(e *veriland.Error) string {
	if e.Code == veriland.CodeUnavailable && e.Message != "" && e.Cause == nil {
		return e.Message // a message written for the client (e.g. how to configure a transcriber)
	}
	if e.Code == veriland.CodeUnavailable {
		return "a dependency is unavailable; retry later"
	}
	return ""
}
