package httpserver

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// withRequestID echoes a safe client-supplied X-Request-Id (1..128 characters of
// [A-Za-z0-9._:-]) or generates one, and puts it in the context.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !safeRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(veriland.WithRequestID(r.Context(), id)))
	})
}

// newRequestID is "req_" and 24 hex digits of 96 random bits, in one allocation.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	var id [len("req_") + 2*len(b)]byte
	copy(id[:], "req_")
	hex.Encode(id[len("req_"):], b[:])
	return string(id[:])
}

func safeRequestID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// withRecovery turns a panic into a 500 that carries only the request id; the panic
// and its stack go to the log.
func (s *Server) withRecovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic serving request", "panic", fmt.Sprint(v),
				"request_id", veriland.RequestIDFrom(r.Context()), "stack", string(debug.Stack()))
			if rec, ok := w.(*statusRecorder); ok && rec.wrote {
				return // too late for an error document
			}
			s.writeError(w, r, &veriland.Error{Code: veriland.CodeInternal})
		}()
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status a handler wrote, for metrics and logs.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// withObservation records metrics for the route pattern and logs the request.
func (s *Server) withObservation(pattern string, next http.Handler) http.Handler {
	method, _, _ := strings.Cut(pattern, " ")
	rm := s.metrics.forRoute(pattern, method)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = framedBody{r.Body} // broken framing reads as bad input (400), not 500
		}
		next.ServeHTTP(rec, r)
		elapsed := time.Since(start)
		rm.observe(rec.status, elapsed)
		if rec.status >= 500 {
			s.log.WarnContext(r.Context(), "request", "route", pattern, "status", rec.status,
				"duration_ms", elapsed.Milliseconds(), "request_id", veriland.RequestIDFrom(r.Context()))
		}
	})
}

// clientIP is the address rate limits and coalesced audit entries key on: the peer's,
// or, with Config.TrustForwardedFor, the one the proxies in front recorded.
//
// X-Forwarded-For is read from the right: each proxy appends the address it received
// the request from, so the rightmost entries are written by our own proxies and the
// leftmost ones by whoever sent the request (a client can put anything there). The
// answer is the rightmost address that is not one of Config.TrustedProxies (with none
// configured: the rightmost, one proxy in front). A request that did not come from a
// trusted proxy (when some are configured), or whose header holds no usable address,
// is keyed on its peer address.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if !s.cfg.TrustForwardedFor {
		return host
	}
	trusted := func(a netip.Addr) bool {
		for _, p := range s.cfg.TrustedProxies {
			if p.Contains(a.Unmap()) {
				return true
			}
		}
		return false
	}
	if peer, err := netip.ParseAddr(host); len(s.cfg.TrustedProxies) > 0 && (err != nil || !trusted(peer)) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return host // a hop we cannot read: do not guess past it
		}
		if !trusted(a) {
			return a.Unmap().String()
		}
	}
	return host
}
