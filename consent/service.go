package consent

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// DefaultConsentValidity is how long a CONSENT attestation is valid when
// Service.ConsentValidity is zero.
const DefaultConsentValidity = 365 * 24 * time.Hour

// AttestationIssuer issues an attestation inside the caller's transaction, so that the
// request's transition and its CONSENT attestation commit (or roll back) together.
// attestation.Service implements it. Issue may run more than once for one decision
// (storage.Store.Update may retry), so it must have no effect outside tx.
type AttestationIssuer interface {
	Issue(ctx context.Context, tx storage.Tx, env veriland.Environment, d attestation.Draft) (*attestation.Attestation, error)
}

// PreSigner is an AttestationIssuer that can also sign a draft before the write
// transaction and store the result inside it (attestation.Service does): Decide then
// keeps the signature, the costliest step of an approval, out of the write lock.
type PreSigner interface {
	Sign(d attestation.Draft) (*attestation.Attestation, error)
	Put(ctx context.Context, tx storage.Tx, env veriland.Environment, att *attestation.Attestation) error
}

// Wallets resolves the wallet bound to an identity DID. The reference server adapts
// identity.Service (see IdentityWallets).
type Wallets interface {
	// WalletOf returns the 0x address bound to subject (any case), or "" when none is.
	// An unknown subject is a not_found *veriland.Error. Other *veriland.Error values
	// (an identity that may not consent, for one) are passed on to the caller of Decide.
	WalletOf(ctx context.Context, env veriland.Environment, subject string) (address string, err error)
}

// Service is the consent domain: verification requests and the holder's signed
// decisions on them (SPEC S5). All its methods are safe for concurrent use. The zero
// value is not usable: Store, ChainID, Wallets and Attestations are required.
type Service struct {
	// Store holds the requests and their expiry index, namespaced per environment.
	Store storage.Store
	// ChainID is the chainId of the consent domain (SPEC S1 -chain-id), and the only
	// chain a did:pkh subject may name.
	ChainID uint64
	// Wallets resolves the wallet bound to a did:veriland subject.
	Wallets Wallets
	// Attestations issues the CONSENT attestation of an approval.
	Attestations AttestationIssuer
	// Liveness checks the subject's liveness attestation for requests with
	// requireLiveness. Without it such requests cannot be created.
	Liveness LivenessGate
	// ValidateCallback checks a request's callbackUrl (nil: DefaultValidateCallback).
	// The reference server passes the SSRF-safe validator of httpserver/webhook.
	ValidateCallback func(env veriland.Environment, raw string) error
	// Identities reads a did:veriland subject's identity: Create checks that it exists
	// (unknown_subject) and an approval reads its derived claims (Facts). nil: the
	// Identities of Wallets when Wallets is an IdentityWallets or itself an
	// IdentityGetter; with neither, Create asks Wallets whether the subject exists and
	// approvals can answer only the liveness item.
	Identities IdentityGetter
	// ClaimNames lists the identity's stored derived claims that are scope items,
	// besides the computed identity, liveness and chip_bound (nil:
	// identity.DefaultClaimNames()). See Vocabulary.
	ClaimNames []string
	// LivenessAttestations lists a subject's LIVENESS attestations inside a
	// transaction, for the liveness scope item (nil: Attestations, when it implements
	// AttestationLookup, as attestation.Service does; with neither, liveness is never
	// answerable).
	LivenessAttestations AttestationLookup
	// ConsentValidity is the lifetime of CONSENT attestations (0:
	// DefaultConsentValidity; negative: no expiry).
	ConsentValidity time.Duration
	// OnEvent, when set, is called inside the transaction of every state change, for
	// the audit entry and the webhook outbox record.
	OnEvent EventHook
	// PrepareEvent, when set together with OnEvent, does OnEvent's work for a
	// decision's event before the write transaction (see EventPreparer). It must stand
	// for OnEvent: an embedder that sets its own OnEvent leaves it nil.
	PrepareEvent EventPreparer
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of request ids and nonces (nil: crypto/rand.Reader).
	Rand io.Reader
	// Logger receives operational messages (nil: slog.Default()). Never personal data.
	Logger *slog.Logger
}

// check refuses a misconfigured Service (plain errors: a bug, 500) and an unknown
// environment.
func (s *Service) check(env veriland.Environment) error {
	switch {
	case s.Store == nil:
		return errors.New("consent: Service.Store is nil")
	case s.ChainID == 0:
		return errors.New("consent: Service.ChainID is 0")
	case s.Wallets == nil:
		return errors.New("consent: Service.Wallets is nil")
	case s.Attestations == nil:
		return errors.New("consent: Service.Attestations is nil")
	case !env.Valid():
		return veriland.Errorf(veriland.CodeValidationFailed, "unknown environment %q", string(env))
	}
	return nil
}

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

func (s *Service) vocabulary() []string { return Vocabulary(s.ClaimNames) }

func (s *Service) identities() IdentityGetter {
	if s.Identities != nil {
		return s.Identities
	}
	switch w := s.Wallets.(type) {
	case IdentityWallets:
		return w.Identities
	case *IdentityWallets:
		if w != nil {
			return w.Identities
		}
	case IdentityGetter:
		return w
	}
	return nil
}

func (s *Service) livenessLookup() AttestationLookup {
	if s.LivenessAttestations != nil {
		return s.LivenessAttestations
	}
	l, _ := s.Attestations.(AttestationLookup)
	return l
}

func (s *Service) consentValidity() time.Duration {
	switch {
	case s.ConsentValidity == 0:
		return DefaultConsentValidity
	case s.ConsentValidity < 0:
		return 0
	}
	return s.ConsentValidity
}
