package binding

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/storage"
)

// Defaults of the Service's optional settings.
const (
	// DefaultBindingValidity is the lifetime of CHIP_BINDING attestations when
	// Service.BindingValidity is zero.
	DefaultBindingValidity = 365 * 24 * time.Hour
	// MinPepperSize is the shortest pepper the Service accepts.
	MinPepperSize = 16
)

// ScopeChipBinding is the scope of every CHIP_BINDING attestation.
const ScopeChipBinding = "chip_binding"

// Attestations is what the Service needs of the attestation store: issuing inside
// the caller's transaction, and listing a subject's attestations inside one.
// *attestation.Service implements it. Issue may run more than once for one binding
// (storage.Store.Update may retry), so it must have no effect outside tx.
type Attestations interface {
	Issue(ctx context.Context, tx storage.Tx, env veriland.Environment, d attestation.Draft) (*attestation.Attestation, error)
	ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error)
}

// Service binds passport and ID-card chips to identities (SPEC S6). It is safe for
// concurrent use. Store, Trust, Pepper and Attestations are required; the other
// fields are optional.
type Service struct {
	// Store holds the document records, namespaced per environment.
	Store storage.Store
	// Trust returns the CSCA trust store of env. The reference server passes the
	// -trust-dir store for PRODUCTION and, for SANDBOX, one that also holds the
	// sandbox test CSCA (LoadOrCreateSandboxPKI). A nil store trusts nothing.
	Trust func(env veriland.Environment) *chipauth.TrustStore
	// Pepper keys the document key HMAC-SHA256(Pepper, issuing state ‖ document
	// number); at least MinPepperSize bytes. Changing it makes every bound document
	// bindable again, so keep it with the database.
	Pepper []byte
	// Attestations issues the CHIP_BINDING attestations and lists the holder's
	// LIVENESS ones.
	Attestations Attestations
	// Identities, when set, receives the claims derived from each bound document's
	// DG1 (nationality, document_country, document_type, age predicates,
	// chip_bound), recorded on the holder's identity in the binding's transaction.
	// nil records none. The reference server passes its *identity.Service.
	Identities Identities
	// Liveness, when set, is consulted after the liveness attestation named in the
	// request qualified, with LivenessMinLevel and the maximum age.
	Liveness LivenessGate
	// LivenessMaxAge is how old the liveness attestation may be (0:
	// DefaultLivenessMaxAge, 24 hours).
	LivenessMaxAge time.Duration
	// LivenessMinLevel, when set ("L1", "L2" or "L3"), is the lowest liveness level
	// accepted; "" accepts any level.
	LivenessMinLevel string
	// FaceThreshold is the cosine similarity from which two face templates match
	// (0: DefaultFaceThreshold, 0.62).
	FaceThreshold float64
	// AllowExpiredDocuments accepts documents whose MRZ date of expiry has passed
	// and DS certificates that were not valid at signing time. The attestation is
	// issued either way with the same claims.
	AllowExpiredDocuments bool
	// BindingValidity is the lifetime of CHIP_BINDING attestations (0:
	// DefaultBindingValidity; negative: no expiry).
	BindingValidity time.Duration
	// OnEvent, when set, is called inside the transaction of every binding and of
	// every rejection, for the audit entry and the webhook outbox record.
	OnEvent EventHook
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) faceThreshold() float64 {
	if s.FaceThreshold > 0 {
		return s.FaceThreshold
	}
	return DefaultFaceThreshold
}

func (s *Service) bindingValidity() time.Duration {
	switch {
	case s.BindingValidity < 0:
		return 0
	case s.BindingValidity == 0:
		return DefaultBindingValidity
	}
	return s.BindingValidity
}

// check refuses a misconfigured Service (plain errors: a bug, 500), an invalid
// environment and a caller who is not a holder of env.
func (s *Service) check(env veriland.Environment, holder veriland.Principal) error {
	switch {
	case s.Store == nil:
		return errors.New("binding: Service.Store is nil")
	case s.Trust == nil:
		return errors.New("binding: Service.Trust is nil")
	case len(s.Pepper) < MinPepperSize:
		return fmt.Errorf("binding: Service.Pepper must be at least %d bytes", MinPepperSize)
	case s.Attestations == nil:
		return errors.New("binding: Service.Attestations is nil")
	case !env.Valid():
		return fmt.Errorf("binding: invalid environment %q", string(env))
	case holder.Subject == "":
		return veriland.Errorf(veriland.CodeUnauthenticated, "a holder token is required")
	case holder.Role != veriland.RoleHolder || (holder.Env != "" && holder.Env != env):
		return veriland.Errorf(veriland.CodeForbidden, "only holders bind documents to themselves")
	}
	return nil
}

// Bind verifies a chip read by the holder and binds the document to the holder's
// identity (POST /identity/chip-verify, holder). In order:
//
//  1. the request's shape (validation_failed, 400, one error per member with its
//     JSON pointer; see Request);
//  2. passive authentication against env's trust store (passive_auth_failed, 422,
//     Meta["step"] naming the failed step, e.g. "digest_mismatch:DG1",
//     "csca_not_found" or StepDocumentExpired);
//  3. inside one transaction: the liveness gate — livenessAttestationId must be a
//     VALID, unexpired LIVENESS attestation of holder, at most LivenessMaxAge old
//     (liveness_required, 422); the face match when both templates were sent —
//     cosine similarity at least FaceThreshold (face_mismatch, 422, with Meta
//     score and threshold); the document record — a document bound to another
//     identity is document_already_bound (409); then the CHIP_BINDING attestation,
//     the record, the claims derived from DG1 on the holder's identity
//     (Identities) and OnEvent commit together.
//
// Binding a document the holder bound before succeeds again with a new
// attestation (the earlier ones stay VALID). Caller errors: unauthenticated (no
// subject) and forbidden (not a holder of env).
func (s *Service) Bind(ctx context.Context, env veriland.Environment, holder veriland.Principal, req Request) (*Result, error) {
	if err := s.check(env, holder); err != nil {
		return nil, err
	}
	in, err := req.decode()
	if err != nil {
		return nil, err
	}
	now := s.now()
	doc, err := s.authenticate(env, in, now)
	if err != nil {
		return nil, s.rejected(ctx, env, holder.Subject, now, err)
	}
	mode, score := ModePAOnly, (*float64)(nil)
	var similarity float64
	if in.face != nil {
		similarity = CosineSimilarity(in.face, in.chipFace)
		rounded := faceScore(similarity)
		mode, score = ModePAFace, &rounded
	}

	var res *Result
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		res = nil
		if err := s.checkLiveness(ctx, tx, env, holder.Subject, in.livenessID, now); err != nil {
			return err
		}
		if mode == ModePAFace && similarity < s.faceThreshold() {
			return veriland.Errorf(veriland.CodeFaceMismatch, "the live face does not match the chip's face").
				WithMeta("score", *score).WithMeta("threshold", s.faceThreshold())
		}
		repo := repository{tx: tx, env: env}
		rec, err := repo.document(doc.key)
		if err != nil {
			return err
		}
		if rec != nil && rec.Subject != holder.Subject {
			return veriland.Errorf(veriland.CodeDocumentAlreadyBound, "this document is already bound to another identity")
		}
		att, err := s.Attestations.Issue(ctx, tx, env, attestation.Draft{
			Kind:         attestation.KindChipBinding,
			Subject:      holder.Subject,
			Scope:        []string{ScopeChipBinding},
			Claims:       doc.claims(mode, score, in.livenessID),
			EvidenceHash: doc.evidenceHash,
			ValidFor:     s.bindingValidity(),
		})
		if err != nil {
			return err
		}
		rebound := rec != nil
		if rec == nil {
			rec = &documentRecord{Subject: holder.Subject, BoundAt: now}
		}
		rec.LastBoundAt, rec.AttestationID, rec.Bindings = now, att.ID, rec.Bindings+1
		if err := repo.putDocument(doc.key, rec); err != nil {
			return err
		}
		if s.Identities != nil {
			// A did:pkh holder has no identity record: the binding stands without claims.
			if _, err := s.Identities.SetChipClaims(ctx, tx, env, holder.Subject, doc.holderClaims()); err != nil {
				return err
			}
		}
		if s.OnEvent != nil {
			ev := Event{Env: env, Action: ActionBound, Holder: holder.Subject, AttestationID: att.ID,
				Mode: mode, Rebound: rebound, At: now}
			if err := s.OnEvent(ctx, tx, ev); err != nil {
				return err
			}
		}
		res = &Result{Status: StatusVerified, Mode: mode, Attestation: att}
		return nil
	})
	if err != nil {
		return nil, s.rejected(ctx, env, holder.Subject, now, err)
	}
	return res, nil
}

// rejected reports err to OnEvent, in a transaction of its own, when it is a
// verification or business-rule refusal, and returns it. When the report cannot be
// written, that error is returned instead: every refusal must leave its trace.
func (s *Service) rejected(ctx context.Context, env veriland.Environment, holder string, now time.Time, err error) error {
	code := veriland.CodeOf(err)
	switch code {
	case veriland.CodePassiveAuthFailed, veriland.CodeLivenessRequired, veriland.CodeFaceMismatch,
		veriland.CodeDocumentAlreadyBound:
	default:
		return err
	}
	if s.OnEvent == nil {
		return err
	}
	ev := Event{Env: env, Action: ActionRejected, Holder: holder, Code: code, At: now}
	var ve *veriland.Error
	if errors.As(err, &ve) && code == veriland.CodePassiveAuthFailed {
		ev.Step, _ = ve.Meta["step"].(string)
	}
	if rerr := s.Store.Update(ctx, func(tx storage.Tx) error { return s.OnEvent(ctx, tx, ev) }); rerr != nil {
		return fmt.Errorf("binding: recording a rejection: %w", rerr)
	}
	return err
}

// ListBindings returns holder's VALID, unexpired CHIP_BINDING attestations in env,
// newest first (GET /identity/chip-bindings/me, holder, answered as {"items": […]}).
// It never returns nil. Caller errors as for Bind.
func (s *Service) ListBindings(ctx context.Context, env veriland.Environment, holder veriland.Principal) ([]*attestation.Attestation, error) {
	if err := s.check(env, holder); err != nil {
		return nil, err
	}
	now := s.now()
	out := []*attestation.Attestation{}
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		all, err := s.Attestations.ListBySubjectTx(tx, env, holder.Subject, attestation.KindChipBinding)
		if err != nil {
			return err
		}
		out = out[:0]
		for _, a := range all {
			if a != nil && a.Kind == attestation.KindChipBinding && a.Subject == holder.Subject &&
				a.Status == attestation.StatusValid && !a.Expired(now) {
				out = append(out, a)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
