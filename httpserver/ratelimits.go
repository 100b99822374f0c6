package httpserver

import (
	"fmt"
	"math"
	"net/http"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/audit"
)

// RateLimits configures SPEC S2.5. Authenticated callers are limited per wallet
// (the token's wallet, else its sub), public routes per client IP. Groups overrides
// the policy of a route group by name ("consent", "identity", "platform", …).
type RateLimits struct {
	Disabled bool
	Wallet   ratelimit.Policy
	Public   ratelimit.Policy
	Groups   map[string]ratelimit.Policy
}

func (rl RateLimits) withDefaults() RateLimits {
	if rl.Wallet.Name == "" {
		rl.Wallet = ratelimit.WalletPolicy()
	}
	if rl.Public.Name == "" {
		rl.Public = ratelimit.IPPolicy()
	}
	return rl
}

// rateGroup names the route group whose policy applies; "" uses the defaults.
type rateGroup string

// limit applies the route's rate limit to the caller: per wallet or sub when
// authenticated, per client IP otherwise.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, group rateGroup) error {
	if s.limiter == nil || group == noRateLimit {
		return nil
	}
	if p, ok := veriland.PrincipalFrom(r.Context()); ok {
		key := p.Wallet
		if key == "" {
			key = "sub:" + p.Subject
		}
		return s.limitKey(w, r, p.Env, key, s.policy(group, s.cfg.RateLimits.Wallet))
	}
	return s.limitKey(w, r, veriland.Production, "ip:"+s.clientIP(r), s.policy(group, s.cfg.RateLimits.Public))
}

func (s *Server) policy(group rateGroup, fallback ratelimit.Policy) ratelimit.Policy {
	if p, ok := s.cfg.RateLimits.Groups[string(group)]; ok && group != "" {
		return p
	}
	return fallback
}

// limitKey counts one request against key under p and answers 429 when over. A
// storage failure lets the request through (fail open): a rate limiter must not turn
// a storage hiccup into an outage of every route; the failure is logged.
func (s *Server) limitKey(w http.ResponseWriter, r *http.Request, env veriland.Environment, key string, p ratelimit.Policy) error {
	if s.limiter == nil {
		return nil
	}
	d, err := s.limiter.Allow(r.Context(), env, key, p)
	if err != nil {
		s.log.WarnContext(r.Context(), "rate limit unavailable; allowing request", "err", err)
		return nil
	}
	ratelimit.Headers(w.Header(), p, d)
	if d.Allowed {
		return nil
	}
	s.coalesce(env, "rate_limited:"+p.Name+":"+key, audit.Entry{
		Env: env, Action: "request.rate_limited", Severity: audit.SeverityWarning, Outcome: audit.OutcomeFailure,
		Detail: map[string]any{"policy": p.Name, "route": r.Pattern},
	})
	retry := int(math.Ceil(d.RetryAfter.Seconds()))
	return veriland.Errorf(veriland.CodeRateLimited, "too many requests; retry after %d s", retry).
		WithMeta("retryAfterSeconds", retry).WithMeta("policy", fmt.Sprintf("%s %d/%s burst %d", p.Name, p.Limit, p.Window, p.Burst))
}
