package identity

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// MinPepperSize is the smallest accepted Service.Pepper, in bytes.
const MinPepperSize = 16

// Service is the identity domain: it issues identities through a KYC provider, keeps
// their status, and decides manual reviews. All its methods are safe for concurrent
// use. The zero value is not usable: Store, Pepper and KYC are required.
type Service struct {
	// Store holds identities, reviews and their indexes, namespaced per environment.
	Store storage.Store
	// Pepper keys the HMAC-SHA256 under which subjectRefs are indexed. It is a secret
	// of at least MinPepperSize bytes; changing it orphans every existing index entry.
	Pepper []byte
	// KYC checks the payload of every new identity.
	KYC KYCProvider
	// ClaimNames is the allow-list of derived claims kept from KYC results (nil:
	// DefaultClaimNames). Claims with other names, or with non-scalar values, are dropped.
	ClaimNames []string
	// OnChange, when set, is called inside the transaction of every state change.
	OnChange ChangeHook
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of DIDs and review ids (nil: crypto/rand.Reader).
	Rand io.Reader
	// Logger receives operational messages (nil: slog.Default()). Never personal data.
	Logger *slog.Logger
}

func (s *Service) check(env veriland.Environment) error {
	switch {
	case s.Store == nil:
		return errors.New("identity: Service.Store is nil")
	case len(s.Pepper) < MinPepperSize:
		return fmt.Errorf("identity: Service.Pepper must be at least %d bytes", MinPepperSize)
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

// subjectKey is the index key of a subjectRef: HMAC-SHA256 under the pepper, with the
// environment mixed in so that the same subject's sandbox and production keys differ.
func (s *Service) subjectKey(env veriland.Environment, subjectRef string) []byte {
	m := hmac.New(sha256.New, s.Pepper)
	m.Write([]byte("veriland/identity/subject\x00"))
	m.Write([]byte(env))
	m.Write([]byte{0})
	m.Write([]byte(subjectRef))
	return m.Sum(nil)
}

func (s *Service) emit(ctx context.Context, tx storage.Tx, ev Event) error {
	if s.OnChange == nil {
		return nil
	}
	return s.OnChange(ctx, tx, ev)
}

// Get returns the identity did of environment env, for other domain packages (consent,
// liveness, chip binding). An unknown DID, or one of the other environment, is
// not_found.
func (s *Service) Get(ctx context.Context, env veriland.Environment, did string) (*Identity, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	var id *Identity
	err := storage.ViewOne(ctx, s.Store, func(tx storage.Tx) error {
		var err error
		id, err = repo(tx, env).identity(did)
		return err
	})
	if err != nil {
		return nil, err
	}
	return id, nil
}

// Status returns the public status of identity did (GET /identity/{did}/status, public).
// Errors: not_found.
func (s *Service) Status(ctx context.Context, env veriland.Environment, did string) (*StatusReport, error) {
	id, err := s.Get(ctx, env, did)
	if err != nil {
		return nil, err
	}
	return id.Report(), nil
}

// BySubject returns the identity issued for subjectRef in env, found through the keyed
// hash index (consent resolves a verification request's subject with it).
// Errors: not_found.
func (s *Service) BySubject(ctx context.Context, env veriland.Environment, subjectRef string) (*Identity, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	return s.byIndex(ctx, env, bucketSubjects, s.subjectKey(env, subjectRef), "no identity for this subject")
}

// byIndex returns the identity an index entry points to, or not_found with msg.
func (s *Service) byIndex(ctx context.Context, env veriland.Environment, bucket string, key []byte, msg string) (*Identity, error) {
	var id *Identity
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		did, ok, err := r.lookup(bucket, key)
		if err != nil {
			return err
		}
		if !ok {
			return veriland.Errorf(veriland.CodeNotFound, "%s", msg)
		}
		id, err = r.identity(did)
		return err
	})
	if err != nil {
		return nil, err
	}
	return id, nil
}
