package httpserver

import (
	"fmt"
	"math"
	"net/http"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/audit"
)

// RateLimits configures SPEC S2.5 and its S15 amendment. Holders and other
// wallet-carrying principals are limited under Wallet per wallet (the token's wallet,
// else its sub); a token without a wallet (API keys and minted tokens of verifiers,
// notaries and admins) under Key per key (its jti, else its sub); public routes under
// Public per client IP. A zero policy takes its default (ratelimit.WalletPolicy,
// KeyPolicy, IPPolicy). Groups overrides the policy of a route group by name
// ("assistant", …) for every authenticated caller of that group. The name of the
// policy applied is the one RateLimit-Policy shows.
type RateLimits struct {
	Disabled bool
	Wallet   ratelimit.Policy
	Key      ratelimit.Policy
	Public   ratelimit.Policy
	Groups   map[string]ratelimit.Policy
}

func (rl RateLimits) withDefaults() RateLimits {
	if rl.Wallet.Name == "" {
		rl.Wallet = ratelimit.WalletPolicy()
	}
	if rl.Key.Name == "" {
		rl.Key = ratelimit.KeyPolicy()
	}
	if rl.Public.Name == "" {
		rl.Public = ratelimit.IPPolicy()
	}
	return rl
}

// rateGroup names the route group whose policy applies; "" uses the defaults.
type rateGroup string

// limit applies the route's rate limit to the caller: per wallet (or holder sub) or
// per key when authenticated (principalLimit), per client IP otherwise.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, group rateGroup) error {
	if s.limiter == nil || group == noRateLimit {
		return nil
	}
	if p, ok := veriland.PrincipalFrom(r.Context()); ok {
		key, wallet := principalLimit(p)
		fallback := s.cfg.RateLimits.Key
		if wallet {
			fallback = s.cfg.RateLimits.Wallet
		}
		return s.limitKey(w, r, p.Env, key, s.policy(group, fallback))
	}
	return s.limitKey(w, r, veriland.Production, "ip:"+s.clientIP(r), s.policy(group, s.cfg.RateLimits.Public))
}

// principalLimit returns the key an authenticated principal is counted under and
// whether it takes the wallet policy (SPEC S15): a token with a wallet, or a holder's
// (keyed by its sub when it has none), does; any other token (an API key, a minted
// verifier, notary or admin token) is a server-to-server key counted by its jti, else
// its sub. The prefixes keep the three kinds of key apart in storage.
func principalLimit(p veriland.Principal) (key string, wallet bool) {
	switch {
	case p.Wallet != "":
		return p.Wallet, true
	case p.Role == veriland.RoleHolder:
		return "sub:" + p.Subject, true
	case p.TokenID != "":
		return "jti:" + p.TokenID, false
	default:
		return "sub:" + p.Subject, false
	}
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
