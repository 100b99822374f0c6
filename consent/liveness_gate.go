package consent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// LivenessGate decides whether subject has proved liveness recently enough for an
// approval of a request with requireLiveness: a VALID, unexpired LIVENESS attestation of
// subject with level ≥ minLevel issued within maxAge. It runs inside the decision's
// transaction, so it reads through tx; it must have no effect outside tx.
//
// It returns nil when the subject qualifies, a liveness_required *veriland.Error when
// not (see LivenessRequired), and any other error when it cannot tell.
type LivenessGate interface {
	Check(ctx context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error
}

// LivenessGateFunc adapts a function to LivenessGate.
type LivenessGateFunc func(ctx context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error

// Check calls f.
func (f LivenessGateFunc) Check(ctx context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error {
	return f(ctx, tx, env, subject, minLevel, maxAge)
}

// LivenessRequired returns the liveness_required error of a subject without a
// qualifying liveness attestation, with the requirement in Meta.
func LivenessRequired(minLevel string, maxAge time.Duration) *veriland.Error {
	days := maxAge.Hours() / 24
	return veriland.Errorf(veriland.CodeLivenessRequired,
		"approving this request needs a valid liveness attestation of level %s or higher, at most %g days old", minLevel, days).
		WithMeta("minLevel", minLevel).WithMeta("maxAgeDays", days)
}

// AttestationLookup lists the attestations of one subject and kind inside a
// transaction (the attestation Service's in-transaction counterpart of ListBySubject,
// in the style of its GetTx).
type AttestationLookup interface {
	ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error)
}

// AttestationLivenessGate is a LivenessGate over stored attestations: it accepts a
// LIVENESS attestation of the subject that is VALID, unexpired, issued within maxAge and
// whose claims carry "level" ("L1", "L2" or "L3") at least minLevel.
type AttestationLivenessGate struct {
	Attestations AttestationLookup
	Now          func() time.Time // nil: time.Now
}

// Check implements LivenessGate.
func (g AttestationLivenessGate) Check(_ context.Context, tx storage.Tx, env veriland.Environment, subject string, minLevel string, maxAge time.Duration) error {
	now := time.Now()
	if g.Now != nil {
		now = g.Now()
	}
	atts, err := g.Attestations.ListBySubjectTx(tx, env, subject, attestation.KindLiveness)
	if err != nil {
		return err
	}
	want := LevelRank(minLevel)
	for _, a := range atts {
		if a == nil || a.Kind != attestation.KindLiveness || a.Subject != subject ||
			a.Status != attestation.StatusValid || a.Expired(now) ||
			a.IssuedAt.After(now) || now.Sub(a.IssuedAt) > maxAge {
			continue
		}
		var claims struct {
			Level string `json:"level"`
		}
		if json.Unmarshal(a.Claims, &claims) != nil {
			continue
		}
		if r := LevelRank(claims.Level); r > 0 && r >= want {
			return nil
		}
	}
	return LivenessRequired(minLevel, maxAge)
}
