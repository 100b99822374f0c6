package liveness

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

// Defaults of the Service's optional settings.
const (
	DefaultSessionLifetime     = 120 * time.Second
	DefaultAttestationValidity = 365 * 24 * time.Hour
)

// AttestationIssuer signs and stores an attestation inside the caller's transaction,
// so that the attestation commits (or rolls back) with the verification that asked for
// it. The attestation package's storage-backed service satisfies it. Issue may run more
// than once for one verification (storage.Store.Update may retry) and must have no
// effect outside tx.
type AttestationIssuer interface {
	Issue(ctx context.Context, tx storage.Tx, env veriland.Environment, d attestation.Draft) (*attestation.Attestation, error)
}

// AttestationLister lists the attestations of one subject of env, of kind when kind is
// not "", whatever their status. The attestation package's storage-backed service
// satisfies it.
type AttestationLister interface {
	ListBySubject(ctx context.Context, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error)
}

// AttestationTxLister is AttestationLister inside the caller's transaction, for Gate:
// the decision the gate guards (a consent, a chip binding) must be judged on the same
// snapshot it commits in, and a second transaction on the same goroutine could
// deadlock a single-writer store.
type AttestationTxLister interface {
	ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error)
}

// Attestations is what the Service needs of the attestation store: issuing in the
// caller's transaction, and listing by subject.
type Attestations interface {
	AttestationIssuer
	AttestationLister
}

// Service is the liveness domain: device enrolment, liveness sessions, verification
// of the proofs devices sign, and the holder's LIVENESS attestations. Its methods are
// safe for concurrent use. Store, Verifiers and Attestations are required; every
// other field has a default.
//
// The holder argument of every method is the authenticated holder's DID (the token's
// sub); the caller (httpserver) has already checked the role.
type Service struct {
	// Store holds devices and sessions, namespaced per environment.
	Store storage.Store
	// Verifiers checks device attestations at enrolment. It refuses MOCK outside
	// SANDBOX whatever is registered for it.
	Verifiers deviceattest.Verifiers
	// Attestations issues LIVENESS attestations and lists them.
	Attestations Attestations
	// ChainID is the chainId of the "Identity Liveness" EIP-712 domain devices sign
	// under (configuration; 0 is treated as 1, the reference server's default).
	ChainID uint64
	// Policy is the table of thresholds per level (nil: DefaultPolicy()).
	Policy *Policy
	// SessionLifetime is how long a session may be verified after it starts
	// (0: DefaultSessionLifetime).
	SessionLifetime time.Duration
	// ClockSkew is how far frame timestamps may lie outside [session start, now],
	// for device clocks that run slightly off (0: none, as SPEC S4 says).
	ClockSkew time.Duration
	// AttestationValidity is how long an issued LIVENESS attestation is valid
	// (0: DefaultAttestationValidity).
	AttestationValidity time.Duration
	// OnEvent, when set, is called inside the transaction of every enrolment and
	// verification outcome (the server wires the audit log to it).
	OnEvent EventHook
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of ids, nonces and scripts (nil: crypto/rand.Reader).
	Rand io.Reader
	// Logger receives operational messages (nil: slog.Default()). Never evidence.
	Logger *slog.Logger
}

func (s *Service) check(env veriland.Environment, holder string) error {
	switch {
	case s.Store == nil:
		return errors.New("liveness: Service.Store is nil")
	case s.Attestations == nil:
		return errors.New("liveness: Service.Attestations is nil")
	case !env.Valid():
		return veriland.Errorf(veriland.CodeValidationFailed, "unknown environment %q", string(env))
	case holder == "" || len(holder) > maxHolderLen:
		return veriland.Errorf(veriland.CodeUnauthenticated, "no holder")
	}
	return nil
}

// maxHolderLen bounds the holder DID the service accepts from its caller.
const maxHolderLen = 256

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) chainID() uint64 {
	if s.ChainID == 0 {
		return 1
	}
	return s.ChainID
}

func (s *Service) policy() *Policy {
	if s.Policy != nil {
		return s.Policy
	}
	p := DefaultPolicy()
	return &p
}

func (s *Service) sessionLifetime() time.Duration {
	if s.SessionLifetime > 0 {
		return s.SessionLifetime
	}
	return DefaultSessionLifetime
}

func (s *Service) attestationValidity() time.Duration {
	if s.AttestationValidity > 0 {
		return s.AttestationValidity
	}
	return DefaultAttestationValidity
}

func (s *Service) emit(ctx context.Context, tx storage.Tx, ev Event) error {
	if s.OnEvent == nil {
		return nil
	}
	return s.OnEvent(ctx, tx, ev)
}
