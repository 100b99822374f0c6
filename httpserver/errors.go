package httpserver

import (
	"context"
	"errors"
	"io"
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
	if r.Context().Err() != nil && (clientGone(r, err) || outage(err)) {
		// The request's own context ended (the client hung up or its deadline passed):
		// an error it caused is not an outage. Nobody reads the answer; it must not
		// say 503. An outage-class error that does not wrap the cancellation (a
		// driver that reports a dropped statement as a broken connection) is still
		// logged, at warning level, in case the dependency really failed.
		level := slog.LevelDebug
		if !clientGone(r, err) {
			level = slog.LevelWarn
		}
		s.log.Log(r.Context(), level, "client went away", "err", err,
			"request_id", veriland.RequestIDFrom(r.Context()))
		return veriland.Errors{veriland.Errorf(veriland.CodeValidationFailed,
			"the request was cancelled before it completed")}
	}
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
	var unreadable *bodyReadError
	if errors.As(err, &unreadable) {
		return veriland.Errors{unreadable.client()}
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

// clientGone reports whether err is the cancellation or deadline of the request's own
// context, which has ended: the client went away (or its deadline passed), so err says
// nothing about storage or any other dependency (issue 13: a half-closed connection
// once read "storage down").
func clientGone(r *http.Request, err error) bool {
	if r.Context().Err() == nil {
		return false
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// outage reports whether err would answer 503 unavailable: a storage outage or an
// error with the code unavailable.
func outage(err error) bool {
	return errors.Is(err, storage.ErrUnavailable) || veriland.CodeOf(err) == veriland.CodeUnavailable
}

// bodyReadError is a failure to read the request body other than its size limit:
// broken chunked framing (a bad or oversized chunk size, an overlong chunk
// extension) or a body shorter than its Content-Length. It is bad input, never an
// outage: it answers 400 invalid_json.
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading the request body: " + e.err.Error() }

func (e *bodyReadError) Unwrap() error { return e.err }

func (e *bodyReadError) client() *veriland.Error {
	return veriland.Errorf(veriland.CodeInvalidJSON,
		"the request body could not be read (malformed framing or a body shorter than its Content-Length)")
}

// framedBody marks every read error of a request body, except io.EOF, as a
// *bodyReadError. It sits under http.MaxBytesReader, so a body over the limit still
// reads as *http.MaxBytesError (413).
type framedBody struct{ io.ReadCloser }

func (b framedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		var tooLarge *http.MaxBytesError
		if !errors.As(err, &tooLarge) {
			err = &bodyReadError{err: err}
		}
	}
	return n, err
}
