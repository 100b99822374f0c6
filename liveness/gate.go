package liveness

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// ListAttestations returns holder's VALID, unexpired LIVENESS attestations of env,
// newest first (GET /liveness/attestations/me, holder).
func (s *Service) ListAttestations(ctx context.Context, env veriland.Environment, holder string) ([]*attestation.Attestation, error) {
	if err := s.check(env, holder); err != nil {
		return nil, err
	}
	all, err := s.Attestations.ListBySubject(ctx, env, holder, attestation.KindLiveness)
	if err != nil {
		return nil, err
	}
	return currentLiveness(all, holder, s.now()), nil
}

// currentLiveness keeps the VALID, unexpired LIVENESS attestations of subject issued
// no later than now, newest first (ties by id, for a stable order).
func currentLiveness(all []*attestation.Attestation, subject string, now time.Time) []*attestation.Attestation {
	out := make([]*attestation.Attestation, 0, len(all))
	for _, a := range all {
		if a == nil || a.Kind != attestation.KindLiveness || a.Subject != subject ||
			a.Status != attestation.StatusValid || a.Expired(now) || a.IssuedAt.After(now) {
			continue
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b *attestation.Attestation) int {
		if c := b.IssuedAt.Compare(a.IssuedAt); c != 0 {
			return c
		}
		switch {
		case a.ID > b.ID:
			return -1
		case a.ID < b.ID:
			return 1
		}
		return 0
	})
	return out
}

// LevelOf returns the level in the claims of a LIVENESS attestation, or "" when the
// claims hold none.
func LevelOf(a *attestation.Attestation) Level {
	var c struct {
		Level Level `json:"level"`
	}
	if a == nil || json.Unmarshal(a.Claims, &c) != nil || !c.Level.Valid() {
		return ""
	}
	return c.Level
}

// Gate answers whether a subject has passed liveness recently enough at a high enough
// level. It implements consent's LivenessGate (consent with requireLiveness) and serves
// chip binding (24 hours). Attestations is required; Now defaults to time.Now.
type Gate struct {
	Attestations AttestationTxLister // required
	Now          func() time.Time    // nil: time.Now
}

// Check returns nil when subject of env holds a VALID, unexpired LIVENESS attestation
// whose level is at least minLevel ("L1", "L2" or "L3"; "" means L1) and which was
// issued within maxAge of now (maxAge ≤ 0: any age). It reads through tx, the caller's
// transaction, so that the decision it guards commits against the same snapshot.
// Errors: liveness_required (422) with Meta minLevel, maxAgeSeconds and maxAgeDays
// (as consent reports it) when there is
// no such attestation; validation_failed for an unknown minLevel.
func (g *Gate) Check(ctx context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error {
	if g == nil || g.Attestations == nil {
		return errors.New("liveness: Gate.Attestations is nil")
	}
	min := L1
	if minLevel != "" {
		l, err := ParseLevel(minLevel)
		if err != nil {
			return err
		}
		min = l
	}
	now := time.Now().UTC()
	if g.Now != nil {
		now = g.Now().UTC()
	}
	required := func() error {
		e := veriland.Errorf(veriland.CodeLivenessRequired,
			"a liveness verification at level %s or higher is required", min).WithMeta("minLevel", string(min))
		if maxAge > 0 { // days as consent reports them; seconds for shorter windows
			e = e.WithMeta("maxAgeSeconds", int64(maxAge/time.Second)).
				WithMeta("maxAgeDays", int(maxAge/(24*time.Hour)))
		}
		return e
	}
	if subject == "" || !env.Valid() {
		return required()
	}
	all, err := g.Attestations.ListBySubjectTx(tx, env, subject, attestation.KindLiveness)
	if err != nil {
		return err
	}
	for _, a := range currentLiveness(all, subject, now) {
		if maxAge > 0 && now.Sub(a.IssuedAt) > maxAge {
			break // newest first: every later one is older still
		}
		if LevelOf(a).AtLeast(min) {
			return nil
		}
	}
	return required()
}
