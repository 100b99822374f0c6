package parcel

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Service is the parcel domain (SPEC S9). All its methods are safe for concurrent
// use. Store, Issuer (with its Key and ChainID), Fields and Pepper are required.
type Service struct {
	// Store holds parcels, certificate versions, tokens and transfers, namespaced per
	// environment.
	Store storage.Store
	// Issuer signs certificates and status lists with the attestation issuer key,
	// over the certificate domain of Issuer.ChainID.
	Issuer *attestation.Issuer
	// Fields seals owner names at rest (AES-256-GCM; the key id is kept per record).
	Fields *fieldcrypt.Keyring
	// Pepper is the HMAC-SHA256 key of id_doc hashes (at least 16 bytes).
	Pepper []byte
	// Titles is each environment's LandTitle contract (SPEC S14): a certified
	// version's token is minted there, and burned when the version is closed, by the
	// chain-job worker. An environment without one records its tokens as DISABLED.
	Titles map[veriland.Environment]TitleChain
	// ChainJobs tunes the worker of RunChainJobs and ChainJobsOnce.
	ChainJobs ChainPolicy
	// OnEvent, when set, is called inside the transaction of every state change, for
	// the audit entry and the outbox record.
	// ValidateCallback checks a parcel's optional callbackUrl (the reference server
	// passes httpserver/webhook's SSRF-safe validator). nil: callbackUrl is refused,
	// because nothing would deliver the events.
	ValidateCallback func(env veriland.Environment, raw string) error
	OnEvent          EventHook
	// Identities resolves an owner's wallet to its ACTIVE identity, for the
	// IDENTITY_VERIFIED binding and the owner's liveness gate (nil: owners are at most
	// NOTARY_VERIFIED, and a transfer cannot require liveness).
	Identities IdentityLookup
	// Liveness checks a transfer's requireLiveness against the identity of the owner's
	// wallet (the liveness package's Gate; nil: requireLiveness is refused).
	Liveness consent.LivenessGate
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of ids (nil: crypto/rand.Reader).
	Rand io.Reader
	// Logger receives operational messages (nil: slog.Default()). Never personal data.
	Logger *slog.Logger

	queueOnce sync.Once
	queue     *chainjob.Queue // RunChainJobs's own queue
}

// check refuses a misconfigured Service (plain errors: a bug, 500) and an unknown
// environment.
func (s *Service) check(env veriland.Environment) error {
	switch {
	case s.Store == nil:
		return errors.New("parcel: Service.Store is nil")
	case s.Issuer == nil || s.Issuer.Key == nil || s.Issuer.ChainID == 0:
		return errors.New("parcel: Service.Issuer needs a Key and a ChainID")
	case s.Fields == nil:
		return errors.New("parcel: Service.Fields is nil")
	case len(s.Pepper) < 16:
		return errors.New("parcel: Service.Pepper is shorter than 16 bytes")
	case !env.Valid():
		return veriland.Errorf(veriland.CodeValidationFailed, "unknown environment %q", string(env))
	}
	return nil
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Second)
	}
	return time.Now().UTC().Truncate(time.Second)
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

// IDDocHash returns the stored form of an id_doc: "0x" + hex HMAC-SHA256(pepper, id_doc).
func (s *Service) IDDocHash(idDoc string) string {
	m := hmac.New(sha256.New, s.Pepper)
	m.Write([]byte(idDoc))
	return hexutil.Encode(m.Sum(nil))
}

func last4(s string) string {
	r := []rune(s)
	return string(r[max(len(r)-4, 0):])
}

// ownerAAD binds a sealed owner name to its parcel: every owner of a parcel (its
// transfers' new owners included) is sealed under the same associated data, so that a
// completed transfer moves the sealed name without opening it.
func ownerAAD(env veriland.Environment, parcelID string) []byte {
	return []byte("parcel:" + string(env) + ":" + parcelID + ":owner.fullName")
}

func (s *Service) seal(env veriland.Environment, parcelID, name string) (fieldcrypt.Sealed, error) {
	sealed, err := s.Fields.Seal([]byte(name), ownerAAD(env, parcelID))
	if err != nil {
		return fieldcrypt.Sealed{}, veriland.Errorf(veriland.CodeInternal, "cannot seal the owner's name").WithCause(err)
	}
	return sealed, nil
}

// open returns a sealed owner name, or "" and false when it cannot be opened (its key
// was erased).
func (s *Service) open(env veriland.Environment, parcelID string, sealed fieldcrypt.Sealed) (string, bool) {
	b, err := s.Fields.Open(sealed, ownerAAD(env, parcelID))
	if err != nil {
		s.logger().Warn("parcel owner name cannot be opened", "env", env, "parcel", parcelID, "kid", sealed.KeyID, "err", err)
		return "", false
	}
	return string(b), true
}

func uitoa(v uint64) string { return strconv.FormatUint(v, 10) }

// Action names a state change, for the audit log and the outbox.
type Action string

// The state changes the Service reports.
const (
	ActionCreated               Action = "parcel.created"
	ActionCertified             Action = "parcel.certified"
	ActionRejected              Action = "parcel.rejected"
	ActionRevoked               Action = "parcel.revoked"
	ActionTransferRequested     Action = "transfer.requested"
	ActionTransferOwnerApproved Action = "transfer.owner_approved"
	ActionTransferOwnerRejected Action = "transfer.owner_rejected"
	ActionTransferCompleted     Action = "transfer.completed"
	ActionTransferRejected      Action = "transfer.rejected"
	ActionTransferCancelled     Action = "transfer.cancelled"
	ActionTransferExpired       Action = "transfer.expired"
)

// ActorSystem is the Event.Actor of changes nobody asked for (an owner's deadline
// passing).
const ActorSystem = "system"

// Event describes one state change. It carries identifiers and states only, never
// personal data, so it may go into the audit log and an outbox payload as is.
type Event struct {
	Env        veriland.Environment
	Action     Action
	ParcelID   string
	TransferID string // transfer events only
	// Actor is the sub of the caller (or the sandbox notary that answered at once);
	// Role its role; Account the parcel's account.
	Actor   string
	Role    veriland.Role
	Account string
	// Status is the parcel's (or, for transfer events, the transfer's) status after
	// the change.
	Status string
	// Version, CertificateHash and TokenID name the certificate version and token
	// created (certified, transfer.completed) or closed (revoked).
	Version         uint64
	CertificateHash string
	TokenID         string
	// BurnedTokenID is the token burned by a completed transfer or a revocation.
	BurnedTokenID string
	// OwnerConsent is how the owner consents to a transfer (transfer events):
	// OWNER_SIGNATURE or NOTARY_WITNESSED. OwnerWallet is the owner's bound wallet
	// (a public address) on the owner's own decisions and on certified or completed
	// changes that bind one.
	OwnerConsent string
	OwnerWallet  string
	At           time.Time
	// CreatedBy is the sub of the token that created the parcel, and CallbackURL the
	// URL it asked its events to be sent to ("" for none): the owner and the address of
	// the event's webhook. Filled in by the Service from the parcel's record.
	CreatedBy   string
	CallbackURL string
}

// EventHook is called inside the storage transaction of every state change, after the
// records were written, so that an audit entry or outbox record commits (or rolls
// back) with it. It may run more than once for one change (storage.Store.Update may
// retry), so it must have no effect outside tx. A non-nil error rolls the change back.
type EventHook func(ctx context.Context, tx storage.Tx, ev Event) error

func (s *Service) emit(ctx context.Context, tx storage.Tx, ev Event) error {
	if s.OnEvent == nil {
		return nil
	}
	rec, err := repo(tx, ev.Env).parcel(ev.ParcelID)
	if err != nil {
		return fmt.Errorf("parcel: reading %s for its event: %w", ev.ParcelID, err)
	}
	ev.CreatedBy, ev.CallbackURL = rec.CreatedBy, rec.CallbackURL
	return s.OnEvent(ctx, tx, ev)
}

// actor is who performs a change: the caller, or a sandbox notary.
type actor struct {
	sub  string
	role veriland.Role
}

func actorOf(p veriland.Principal) actor { return actor{sub: p.Subject, role: p.Role} }

func notFound(kind, id string) *veriland.Error {
	return veriland.Errorf(veriland.CodeNotFound, "no %s %s", kind, id)
}

func forbidden(format string, args ...any) *veriland.Error {
	return veriland.Errorf(veriland.CodeForbidden, format, args...)
}

func invalidState(kind, id string, status string, action string) *veriland.Error {
	return veriland.Errorf(veriland.CodeInvalidState, "%s %s is %s: cannot %s", kind, id, status, action).WithMeta("status", status)
}
