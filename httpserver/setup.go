package httpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/chainjob"
	"github.com/veriland/veriland/storage/lease"
)

// setup builds the shared machinery the routes use.
func (s *Server) setup() error {
	s.auditLog = &audit.Log{Now: s.cfg.Now, Rand: s.cfg.Rand, Logger: s.log}
	s.coalescer = &audit.Coalescer{Log: s.auditLog, Now: s.cfg.Now, Logger: s.log}
	if !s.cfg.RateLimits.Disabled {
		for _, p := range append([]ratelimit.Policy{s.cfg.RateLimits.Wallet, s.cfg.RateLimits.Key, s.cfg.RateLimits.Public}, mapValues(s.cfg.RateLimits.Groups)...) {
			if err := p.Validate(); err != nil {
				return err
			}
		}
		s.limiter = &ratelimit.Limiter{Store: s.cfg.Store, Now: s.cfg.Now, Logger: s.log}
	}
	s.setupIdempotency()
	if err := s.setupSealingLease(); err != nil {
		return err
	}
	if err := s.setupAnchoringLease(); err != nil {
		return err
	}
	anchor, webhooks := "ok", "ok"
	if (s.cfg.Attestations == nil || len(s.cfg.Attestations.Anchors) == 0) && (s.cfg.Parcels == nil || len(s.cfg.Parcels.Titles) == 0) {
		anchor = "disabled"
	}
	if s.cfg.Outbox == nil {
		webhooks = "disabled"
	}
	s.probeDeadline.timeout = healthTimeout
	s.healthOK, s.healthDown = healthBodies(s.cfg.Version, map[string]string{"anchor": anchor, "webhooks": webhooks})
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

// Run runs the server's background work until ctx is done: sealing journaled audit
// entries into the chain, flushing coalesced audit entries, expiring verification
// requests past their deadline (so that their webhook goes out), delivering webhooks
// and anchoring attestations and parcel tokens. On cancellation it flushes what is
// pending, seals it and returns once every loop has stopped.
//
// Every replica sharing Store may run it. The sweeps (audit flush, expiry, pruning)
// and webhook delivery are safe on all of them at once: each change is one
// transaction that re-reads what it changes, and deliveries are claimed before they
// are sent. Sealing is safe on all of them too, but runs on the holder of the
// "audit-sealing" lease (SealingLease), so that replicas do not seal the same
// entries in overlapping transactions; every replica seals once when it stops.
// Anchoring runs on one replica at a time, the holder of the "anchoring"
// lease (AnchoringLease), because production anchoring sends transactions from one
// key whose nonce two senders would race on; it checks the lease again before each
// send, and moves to a standby within about 20 s (lease.DefaultTTL and one poll) when
// the leader dies, at once when it shuts down cleanly.
func (s *Server) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	// Audit entries are journaled by the transactions that make the changes and
	// chained here by the holder of the sealing lease (SealingLease). Sealing stops
	// last, after the final flush of coalesced entries, so that its final seal chains
	// those too.
	sealCtx, stopSealing := context.WithCancel(context.WithoutCancel(ctx))
	sealDone := make(chan struct{})
	go func() {
		defer close(sealDone)
		s.runSealing(sealCtx)
	}()
	if s.cfg.Outbox != nil {
		wg.Go(func() {
			if err := s.cfg.Outbox.Run(ctx); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "webhook delivery stopped", "err", err)
			}
		})
	}
	if s.anchorLease != nil {
		wg.Go(func() {
			if err := s.anchorLease.Run(ctx, s.runAnchoring); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "anchoring stopped", "err", err)
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
			err := s.coalescer.FlushAll(flushCtx, s.cfg.Store)
			stopSealing()
			<-sealDone
			return err
		case <-tick.C:
			s.sweep(ctx)
		}
	}
}

// AnchoringLease names the lease (storage/lease) whose holder runs the anchoring
// workers.
const AnchoringLease = "anchoring"

// setupAnchoringLease prepares the anchoring lease when there is anything to anchor,
// and fences both anchoring workers with it: a replica sends an anchor transaction
// only while it holds the lease in the term it acquired.
//
// With several replicas, SANDBOX anchors go to whatever chain each replica's
// Attestations.Anchors holds; the reference server's is an in-process simulated chain
// per replica, so a SANDBOX receipt names a block of the chain of the replica that led
// when it was anchored, and another replica's chain does not know it.
func (s *Server) setupAnchoringLease() error {
	if s.cfg.Attestations == nil && s.cfg.Parcels == nil {
		return nil
	}
	if err := s.ensureReplicaID(); err != nil {
		return err
	}
	s.anchorLease = &lease.Lease{Store: s.cfg.Store, Name: AnchoringLease, Holder: s.cfg.ReplicaID, Now: s.cfg.Now, Logger: s.log}
	policy := s.cfg.ChainJobs
	if policy.Fence == nil {
		policy.Fence = s.anchorLease.Check
	}
	s.chainJobs = &chainjob.Queue{Store: s.cfg.Store, Policy: policy, Now: s.cfg.Now, Logger: s.log,
		Observe: s.metrics.observeChainJob}
	if a := s.cfg.Attestations; a != nil {
		a.RegisterChainJobs(s.chainJobs)
	}
	if p := s.cfg.Parcels; p != nil {
		p.RegisterChainJobs(s.chainJobs)
	}
	s.metrics.chainJobGauges(s.chainJobs)
	s.metrics.leaderGauge("veriland_anchoring_leader",
		"1 while this replica holds the anchoring lease and runs the anchoring workers, 0 on a standby.", &s.anchorLeading)
	return nil
}

// runAnchoring runs the chain-job worker until ctx ends: while this replica holds
// the anchoring lease. It first moves the jobs of older versions into the shared
// queue and brings the land titles in line with this replica's chains
// (parcel.Service.StartTitles; fresh for Config.FreshChains).
func (s *Server) runAnchoring(ctx context.Context) error {
	s.anchorLeading.Store(true)
	defer s.anchorLeading.Store(false)
	if a := s.cfg.Attestations; a != nil {
		if n, err := a.MigrateAnchorQueue(ctx); err != nil {
			s.log.WarnContext(ctx, "moving anchoring jobs to the chain-job queue", "err", err)
		} else if n > 0 {
			s.log.InfoContext(ctx, "anchoring jobs moved to the chain-job queue", "jobs", n)
		}
	}
	if p := s.cfg.Parcels; p != nil {
		for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
			n, err := p.StartTitles(ctx, env, slices.Contains(s.cfg.FreshChains, env))
			if err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "bringing land titles in line with the chain", "env", env, "err", err)
			} else if n > 0 {
				s.log.InfoContext(ctx, "land titles queued for minting", "env", env, "tokens", n)
			}
		}
	}
	if err := s.chainJobs.Run(ctx); err != nil && ctx.Err() == nil {
		s.log.ErrorContext(ctx, "chain jobs stopped", "err", err)
	}
	return nil
}

// WakeChainJobs makes the chain-job worker start its next round now, when this
// replica leads: the routes call it after a change that queued chain work.
func (s *Server) WakeChainJobs() {
	if s.chainJobs != nil && s.anchorLeading.Load() {
		s.chainJobs.Wake()
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
	if s.cfg.Parcels != nil {
		// Transfers whose owner did not sign before the deadline (SPEC S13); like the
		// consent sweep, safe on every replica at once.
		n, err := s.cfg.Parcels.ExpireOwnerDeadlines(ctx, s.cfg.Now(), 500)
		if err != nil {
			s.log.WarnContext(ctx, "expiring transfers", "err", err)
		}
		if n > 0 {
			s.notifyWebhooks()
		}
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
