package httpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/audit"
)

// setup builds the shared machinery the routes use.
func (s *Server) setup() error {
	s.auditLog = &audit.Log{Now: s.cfg.Now, Rand: s.cfg.Rand}
	s.coalescer = &audit.Coalescer{Log: s.auditLog, Now: s.cfg.Now, Logger: s.log}
	if !s.cfg.RateLimits.Disabled {
		for _, p := range append([]ratelimit.Policy{s.cfg.RateLimits.Wallet, s.cfg.RateLimits.Public}, mapValues(s.cfg.RateLimits.Groups)...) {
			if err := p.Validate(); err != nil {
				return err
			}
		}
		s.limiter = &ratelimit.Limiter{Store: s.cfg.Store, Now: s.cfg.Now, Logger: s.log}
	}
	s.setupIdempotency()
	s.healthChecks = map[string]func() string{}
	return nil
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Run runs the server's background work (flushing coalesced audit entries, pruning
// expired records) until ctx is done, then flushes what is pending.
func (s *Server) Run(ctx context.Context) error {
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return s.coalescer.FlushAll(flushCtx, s.cfg.Store)
		case <-tick.C:
			if err := s.coalescer.Flush(ctx, s.cfg.Store); err != nil {
				s.log.WarnContext(ctx, "flushing coalesced audit entries", "err", err)
			}
		}
	}
}

// coalesce records a failure an outsider can trigger at will: one audit entry per
// key and minute, with a count. The key is hashed so that raw IPs and wallets are not
// written to the log.
func (s *Server) coalesce(env veriland.Environment, key string, e audit.Entry) {
	sum := sha256.Sum256([]byte(key))
	if err := s.coalescer.Record(env, hex.EncodeToString(sum[:8]), e); err != nil {
		s.log.Warn("coalescing audit entry", "err", err)
	}
}

// recordAuthFailure coalesces a refused token into the audit log.
func (s *Server) recordAuthFailure(r *http.Request, reason string) {
	s.coalesce(veriland.Production, "auth:"+reason+":"+s.clientIP(r), audit.Entry{
		Env: veriland.Production, Action: "auth.token_refused", Severity: audit.SeverityWarning,
		Outcome: audit.OutcomeFailure, Detail: map[string]any{"reason": reason},
	})
}

// auditFailure is the entry of a refused request that an outsider can repeat at will.
func auditFailure(env veriland.Environment, action, reason string) audit.Entry {
	return audit.Entry{Env: env, Action: action, Severity: audit.SeverityWarning, Outcome: audit.OutcomeFailure,
		Detail: map[string]any{"reason": reason}}
}
