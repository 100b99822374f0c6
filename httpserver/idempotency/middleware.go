package idempotency

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"

	"github.com/veriland/veriland"
)

// Middleware makes POST requests that carry an Idempotency-Key header idempotent
// (SPEC S2.4). Other requests pass through untouched.
//
// scopeOf returns the request's scope without its Key (the middleware sets it from the
// header), or false to exempt the request. It runs after authentication, so it may use
// veriland.PrincipalFrom(r.Context()). onError writes the error response for every
// failure: invalid_idempotency_key (400), payload_too_large (413) or invalid_json (400)
// when the body cannot be read, idempotency_key_in_flight (409),
// idempotency_key_reused (422), and the errors of Begin.
//
// The body is read whole to fingerprint it and restored for the handler; an outer
// middleware must already cap its size. The handler's response streams to the client
// as it is written (http.Flusher works) while a copy is kept; it is then stored with
// Complete, or released when the status is 5xx or 429 or the handler panics (the panic
// is re-raised after releasing). A replay writes the stored headers, status and body,
// byte for byte, with Idempotent-Replayed: true.
func Middleware(s *Store, scopeOf func(r *http.Request) (Scope, bool), onError func(w http.ResponseWriter, r *http.Request, err error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			values := r.Header.Values(HeaderKey)
			if r.Method != http.MethodPost || len(values) == 0 {
				next.ServeHTTP(w, r)
				return
			}
			if len(values) > 1 {
				onError(w, r, invalidKey("send one Idempotency-Key header"))
				return
			}
			key, err := ParseKey(values[0])
			if err != nil {
				onError(w, r, err)
				return
			}
			scope, ok := scopeOf(r)
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			scope.Key = key

			body, err := readBody(r)
			if err != nil {
				onError(w, r, err)
				return
			}
			out, err := s.Begin(r.Context(), scope, s.Fingerprint(body))
			if err != nil {
				onError(w, r, err)
				return
			}
			switch out.Kind {
			case Replay:
				replay(w, out.Response)
			case Proceed:
				s.run(next, w, r, scope)
			default:
				onError(w, r, out.Err())
			}
		})
	}
}

// readBody reads the whole body and puts an identical one back on r.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, (&veriland.Error{Code: veriland.CodePayloadTooLarge, Message: "request body too large"}).WithCause(err)
		}
		return nil, (&veriland.Error{Code: veriland.CodeInvalidJSON, Message: "request body could not be read"}).WithCause(err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return body, nil
}

// run runs the handler for a reserved scope and finishes the reservation. The
// reservation is finished with a context that outlives the request: a client that hangs
// up must not leave the key reserved until its lease runs out.
func (s *Store) run(next http.Handler, w http.ResponseWriter, r *http.Request, scope Scope) {
	ctx := context.WithoutCancel(r.Context())
	rec := &recorder{w: w, max: s.maxBody()}
	finished := false
	defer func() {
		if finished {
			return
		}
		v := recover()
		if err := s.Release(ctx, scope); err != nil {
			s.logger().ErrorContext(ctx, "idempotency: releasing key after the handler panicked", "err", err, "cause", errors.Unwrap(err))
		}
		if v != nil { // nil: runtime.Goexit, which carries on unwinding by itself
			panic(v)
		}
	}()
	next.ServeHTTP(rec, r)
	finished = true

	resp := rec.response()
	if rec.overflow {
		s.logger().WarnContext(ctx, "idempotency: response too large to store; key released",
			"path", scope.Path, "limit", s.maxBody())
		if err := s.Release(ctx, scope); err != nil {
			s.logger().ErrorContext(ctx, "idempotency: releasing key", "err", err, "cause", errors.Unwrap(err))
		}
		return
	}
	if err := s.Complete(ctx, scope, resp); err != nil {
		s.logger().ErrorContext(ctx, "idempotency: storing response", "err", err, "cause", errors.Unwrap(err))
	}
}

// replay writes a stored response over whatever headers outer middleware already set
// (request id, rate limit state), which are this request's own.
func replay(w http.ResponseWriter, resp Response) {
	h := w.Header()
	for name, values := range resp.Header {
		h[name] = append([]string(nil), values...)
	}
	h.Set(HeaderReplayed, "true")
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}

// Fingerprint returns the fingerprint Begin compares for body: SHA-256 of it, or its
// HMAC-SHA256 under FingerprintKey when one is set.
func (s *Store) Fingerprint(body []byte) [32]byte {
	if len(s.FingerprintKey) == 0 {
		return sha256.Sum256(body)
	}
	m := hmac.New(sha256.New, s.FingerprintKey)
	m.Write(body)
	return [32]byte(m.Sum(nil))
}
