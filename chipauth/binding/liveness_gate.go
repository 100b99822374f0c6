package binding

import (
	"context"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/storage"
)

// DefaultLivenessMaxAge is how old the liveness attestation of a binding may be
// when Service.LivenessMaxAge is zero (SPEC S6: 24 hours).
const DefaultLivenessMaxAge = 24 * time.Hour

// LivenessGate is an additional liveness policy consulted inside the binding's
// transaction once the attestation named in the request qualified; it must have no
// effect outside tx. liveness.Gate implements it. It returns nil when subject
// qualifies, liveness_required when not, and any other error when it cannot tell.
type LivenessGate interface {
	Check(ctx context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error
}

// checkLiveness accepts id when it is a VALID, unexpired LIVENESS attestation of
// subject in env, issued within the maximum age and, when a minimum level is set,
// at that level or higher. It reads through tx so that the binding commits against
// the snapshot it checked (a revocation cannot slip in between). Every refusal is
// the same liveness_required error, so that a holder learns nothing about
// attestations that are not theirs.
func (s *Service) checkLiveness(ctx context.Context, tx storage.Tx, env veriland.Environment, subject, id string, now time.Time) error {
	maxAge := s.livenessMaxAge()
	required := func() error {
		e := veriland.Errorf(veriland.CodeLivenessRequired,
			"livenessAttestationId must name a valid liveness attestation of yours, at most %s old", humanDuration(maxAge)).
			WithMeta("maxAgeSeconds", int64(maxAge/time.Second))
		e.Pointer = "/livenessAttestationId"
		if s.LivenessMinLevel != "" {
			e = e.WithMeta("minLevel", s.LivenessMinLevel)
		}
		return e
	}
	minLevel := liveness.L1
	if s.LivenessMinLevel != "" {
		l, err := liveness.ParseLevel(s.LivenessMinLevel)
		if err != nil {
			return veriland.Errorf(veriland.CodeInternal, "binding: Service.LivenessMinLevel is invalid").WithCause(err)
		}
		minLevel = l
	}
	// Listing by subject, not reading by id: an id of another holder is simply not
	// there.
	all, err := s.Attestations.ListBySubjectTx(tx, env, subject, attestation.KindLiveness)
	if err != nil {
		return err
	}
	var found *attestation.Attestation
	for _, a := range all {
		if a != nil && a.ID == id {
			found = a
			break
		}
	}
	switch {
	case found == nil,
		found.Kind != attestation.KindLiveness,
		found.Subject != subject,
		found.Status != attestation.StatusValid,
		found.Expired(now),
		found.IssuedAt.After(now),
		now.Sub(found.IssuedAt) > maxAge,
		s.LivenessMinLevel != "" && !liveness.LevelOf(found).AtLeast(minLevel):
		return required()
	}
	if s.Liveness != nil {
		return s.Liveness.Check(ctx, tx, env, subject, s.LivenessMinLevel, maxAge)
	}
	return nil
}

func (s *Service) livenessMaxAge() time.Duration {
	if s.LivenessMaxAge > 0 {
		return s.LivenessMaxAge
	}
	return DefaultLivenessMaxAge
}

// humanDuration writes whole hours as "24 hours", anything else as Go does.
func humanDuration(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "1 hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return d.String()
}
