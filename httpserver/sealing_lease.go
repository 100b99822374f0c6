package httpserver

import (
	"context"
	"errors"

	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/lease"
)

// SealingLease names the lease (storage/lease) whose holder seals journaled audit
// entries into the chain while the replicas run.
//
// Sealing is correct on any number of replicas at once (storage/audit: Seal), but
// under load every sealer finds old entries at each look, so without the lease each
// replica sealed about as often as a lone one would, and sealers that overlapped
// conflicted on the chain head: the loser's transaction, up to audit.SealBatch
// entries decoded and hashed, was retried or thrown away. With the lease one replica
// seals, and a standby takes over within about lease.DefaultTTL when the holder dies
// (at once when it shuts down cleanly); entries wait in the journal meanwhile, as
// durable as when sealed.
const SealingLease = "audit-sealing"

// setupSealingLease prepares the sealing lease and the gauge that tells whether this
// replica holds it (veriland_audit_sealing_leader).
func (s *Server) setupSealingLease() error {
	if err := s.ensureReplicaID(); err != nil {
		return err
	}
	s.sealLease = &lease.Lease{Store: s.cfg.Store, Name: SealingLease, Holder: s.cfg.ReplicaID, Now: s.cfg.Now, Logger: s.log}
	s.metrics.leaderGauge("veriland_audit_sealing_leader",
		"1 while this replica holds the audit sealing lease and seals journaled entries, 0 on a standby.", &s.sealLeading)
	return nil
}

// ensureReplicaID gives the server a random replica id when Config names none.
func (s *Server) ensureReplicaID() error {
	if s.cfg.ReplicaID != "" {
		return nil
	}
	id, err := ids.New(s.cfg.Rand, "replica")
	if err != nil {
		return err
	}
	s.cfg.ReplicaID = id
	return nil
}

// runSealing seals journaled audit entries until ctx is done: while this replica
// holds the sealing lease, audit.Log.RunSealing runs (and seals once more on its way
// out); a replica that does not hold it when ctx ends seals once on its way out
// (audit.FinalSeal), so that what it journaled is sealed when Run returns, as on a
// lone replica (that seal is safe beside the holder's).
func (s *Server) runSealing(ctx context.Context) {
	held := false
	err := s.sealLease.Run(ctx, func(ctx context.Context) error {
		s.sealLeading.Store(true)
		defer s.sealLeading.Store(false)
		err := s.auditLog.RunSealing(ctx, s.cfg.Store, 0)
		held = !errors.Is(context.Cause(ctx), lease.ErrLost) // ended by shutdown, not by a loss
		return err
	})
	if err != nil && ctx.Err() == nil {
		s.log.ErrorContext(ctx, "audit sealing stopped", "err", err)
	}
	if held {
		return
	}
	if err := audit.FinalSeal(ctx, s.cfg.Store); err != nil {
		s.log.ErrorContext(ctx, "audit: sealing entries on shutdown", "err", err)
	}
}
