package httpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"
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
	s.healthChecks = map[string]func() string{
		"anchor": func() string {
			if s.cfg.Attestations == nil || len(s.cfg.Attestations.Anchors) == 0 {
				return "disabled"
			}
			return "ok"
		},
		"webhooks": func() string {
			if s.cfg.Outbox == nil {
				return "disabled"
			}
			return "ok"
		},
	}
	if s.cfg.Outbox != nil {
		// Refreshed by Run every few seconds, never by a scrape (a scrape must not
		// scan the queue).
		s.metrics.cachedGauge("veriland_webhook_queue_depth", "Webhook deliveries waiting to be sent (refreshed every 5 s).",
			func(ctx context.Context) (float64, error) {
				n, err := s.cfg.Outbox.Pending(ctx)
				return float64(n), err
			})
	}
	return nil
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Run runs the server's background work until ctx is done: flushing coalesced audit
// entries, expiring verification requests past their deadline (so that their webhook
// goes out), delivering webhooks and anchoring attestations and parcel tokens. On cancellation it
// flushes what is pending and returns once every loop has stopped.
func (s *Server) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	if s.cfg.Outbox != nil {
		wg.Go(func() {
			if err := s.cfg.Outbox.Run(ctx); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "webhook delivery stopped", "err", err)
			}
		})
	}
	if s.cfg.Attestations != nil {
		wg.Go(func() {
			if err := s.cfg.Attestations.RunAnchoring(ctx); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "anchoring stopped", "err", err)
			}
		})
	}
	if s.cfg.Parcels != nil {
		wg.Go(func() {
			if err := s.cfg.Parcels.RunAnchoring(ctx); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "parcel token anchoring stopped", "err", err)
			}
		})
	}
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return s.coalescer.FlushAll(flushCtx, s.cfg.Store)
		case <-tick.C:
			s.sweep(ctx)
		}
	}
}

// sweep is the periodic housekeeping of Run.
func (s *Server) sweep(ctx context.Context) {
	if err := s.coalescer.Flush(ctx, s.cfg.Store); err != nil {
		s.log.WarnContext(ctx, "flushing coalesced audit entries", "err", err)
	}
	s.metrics.refresh(ctx)
	if now := s.cfg.Now(); now.Sub(s.lastPrune) >= pruneEvery {
		s.lastPrune = now
		s.prune(ctx, now)
	}
	if s.cfg.Consent != nil {
		n, err := s.cfg.Consent.ExpireDue(ctx, s.cfg.Now(), 500)
		if err != nil {
			s.log.WarnContext(ctx, "expiring verification requests", "err", err)
		}
		if n > 0 {
			s.notifyWebhooks()
		}
	}
}

// pruneEvery is how often Run deletes records that already behave as absent.
const pruneEvery = 10 * time.Minute

// prune deletes expired idempotency records, idle rate-limit keys and expired
// liveness sessions, so that storage does not grow with traffic.
func (s *Server) prune(ctx context.Context, now time.Time) {
	if _, err := s.idempotencyStore.Prune(ctx); err != nil {
		s.log.WarnContext(ctx, "pruning idempotency records", "err", err)
	}
	if s.limiter != nil {
		if _, err := s.limiter.Prune(ctx, now); err != nil {
			s.log.WarnContext(ctx, "pruning rate limit keys", "err", err)
		}
	}
	if s.cfg.Liveness != nil {
		for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
			if _, err := s.cfg.Liveness.PruneSessions(ctx, env, now.Add(-time.Hour)); err != nil {
				s.log.WarnContext(ctx, "pruning liveness sessions", "env", env, "err", err)
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
