package ratelimit

import (
	"time"

	"github.com/veriland/veriland"
)

// Policy is one GCRA quota: Limit requests per Window on average, of which up to Burst
// may arrive back to back. Name identifies the policy in storage and in the
// RateLimit-Policy header, so two policies applied to the same key count separately.
type Policy struct {
	Name   string        // e.g. "wallet", "ip"; a token of letters, digits, '_', '-', '.'
	Limit  int           // requests per Window, > 0
	Window time.Duration // > 0
	Burst  int           // requests allowed at once from an idle key, > 0
}

// WalletPolicy returns the SPEC S2.5 default for holders and other wallet-carrying
// principals, keyed by wallet (else token sub): 120 requests a minute, burst 30.
func WalletPolicy() Policy {
	return Policy{Name: "wallet", Limit: 120, Window: time.Minute, Burst: 30}
}

// KeyPolicy returns the SPEC S15 default for tokens without a wallet (API keys and
// minted tokens of verifiers, notaries and admins), keyed by the token's jti (else
// its sub), like a server-to-server API: 100 requests a second, burst 200.
func KeyPolicy() Policy {
	return Policy{Name: "key", Limit: 100, Window: time.Second, Burst: 200}
}

// IPPolicy returns the SPEC S2.5 default for public routes, keyed by client IP:
// 600 requests a minute, burst 120.
func IPPolicy() Policy {
	return Policy{Name: "ip", Limit: 600, Window: time.Minute, Burst: 120}
}

// Validate returns a validation_failed *veriland.Error when p cannot be enforced.
func (p Policy) Validate() error {
	switch {
	case !validName(p.Name):
		return veriland.Errorf(veriland.CodeValidationFailed, "rate limit policy name %q must be 1..64 letters, digits, '_', '-' or '.'", p.Name)
	case p.Limit <= 0:
		return veriland.Errorf(veriland.CodeValidationFailed, "rate limit policy %q: limit must be positive", p.Name)
	case p.Window <= 0:
		return veriland.Errorf(veriland.CodeValidationFailed, "rate limit policy %q: window must be positive", p.Name)
	case p.Window/time.Duration(p.Limit) <= 0:
		return veriland.Errorf(veriland.CodeValidationFailed, "rate limit policy %q: window too short for the limit", p.Name)
	case p.Burst <= 0:
		return veriland.Errorf(veriland.CodeValidationFailed, "rate limit policy %q: burst must be positive", p.Name)
	}
	return nil
}

// interval is the GCRA emission interval: the steady-state gap between requests.
func (p Policy) interval() time.Duration { return p.Window / time.Duration(p.Limit) }

// tolerance is how far ahead of now the theoretical arrival time may run: Burst
// intervals, so that exactly Burst requests pass at once from an idle key.
func (p Policy) tolerance() time.Duration { return p.interval() * time.Duration(p.Burst) }

// validName keeps names safe to print inside a structured-field string without
// escaping and unambiguous in storage.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}
