package ratelimit

import (
	"errors"
	"net/http"

	"github.com/veriland/veriland"
)

// Middleware limits the requests for which pick returns ok, under the policy and key it
// returns, setting the rate limit headers on every such response. A denied request is
// handed to onDenied, which writes the 429 error (this package never formats errors);
// the headers, Retry-After included, are already set when it is called.
//
// A nil or Disabled Limiter makes Middleware return next unchanged.
//
// The limit fails open: when the store fails, the request proceeds without rate limit
// headers and the failure is logged at error level. A storage outage then surfaces as
// the handlers' own 503s rather than as 429s that would tell clients to back off from
// a server whose limiter, not whose quota, is at fault.
//
// pick runs before the handler; if it reads the body (to find a holderAddress, say)
// it must restore it.
func Middleware(l *Limiter, pick func(r *http.Request) (env veriland.Environment, key string, p Policy, ok bool), onDenied func(w http.ResponseWriter, r *http.Request, d Decision)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if l == nil || l.Disabled {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			env, key, p, ok := pick(r)
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			d, err := l.Allow(r.Context(), env, key, p)
			if err != nil {
				if r.Context().Err() == nil {
					l.logger().ErrorContext(r.Context(), "rate limit check failed; admitting request",
						"policy", p.Name, "env", string(env), "err", err, "cause", errors.Unwrap(err))
				}
				next.ServeHTTP(w, r)
				return
			}
			Headers(w.Header(), p, d)
			if !d.Allowed {
				onDenied(w, r, d)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
