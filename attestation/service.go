package attestation

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
)

// Service keeps attestations in storage: it issues them inside the caller's
// transaction, reads them, revokes them and serves the signed revocation list. Records
// of one environment live in that environment's buckets and are never visible from
// the other.
//
// Set Store and Issuer; every other field is optional.
type Service struct {
	Store  storage.Store
	Issuer *Issuer
	// Anchors anchors each environment's digests (implementations in package
	// attestation/anchor); an environment without one (or with NoAnchor) marks its
	// attestations DISABLED and queues nothing.
	Anchors map[veriland.Environment]Anchorer
	// Anchoring tunes the anchoring worker (RunAnchoring, AnchorPending).
	Anchoring AnchoringPolicy
	// OnRevoke runs inside the revocation's transaction, after the record is updated,
	// the first time an attestation is revoked; its error rolls the revocation back.
	// The server wires the audit entry and the attestation.revoked webhook here. Like
	// every storage.Update function it may run more than once.
	OnRevoke func(ctx context.Context, tx storage.Tx, env veriland.Environment, att *Attestation) error
	// Now is the clock for revocations and anchoring (time.Now when nil).
	Now func() time.Time
	// Logger receives anchoring failures (slog.Default when nil).
	Logger *slog.Logger

	queueOnce sync.Once
	queue     *chainjob.Queue // RunAnchoring's and AnchorPending's own queue
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) anchorFor(env veriland.Environment) Anchorer {
	return s.Anchors[env]
}

// NewAnchorState is the anchor state Put gives a new attestation of env, and Revoke
// its revocation: PENDING when env anchors, else DISABLED.
func (s *Service) NewAnchorState(env veriland.Environment) AnchorState {
	if AnchoringDisabled(s.anchorFor(env)) {
		return AnchorState{Status: AnchorDisabled}
	}
	return AnchorState{Status: AnchorPending}
}

func checkEnv(env veriland.Environment) error {
	if !env.Valid() {
		return veriland.Errorf(veriland.CodeInternal, "invalid environment %q", string(env))
	}
	return nil
}

// Issue signs d and stores the attestation in tx, in env's namespace, together with
// its subject index entry and, when env anchors, a pending anchoring job. Call it from
// the caller's own storage.Update so that the attestation commits (or not) with the
// state change it records. Invalid drafts return validation_failed.
func (s *Service) Issue(ctx context.Context, tx storage.Tx, env veriland.Environment, d Draft) (*Attestation, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	att, err := s.Sign(d)
	if err != nil {
		return nil, err
	}
	if err := s.Put(ctx, tx, env, att); err != nil {
		return nil, err
	}
	return att, nil
}

// Sign signs d without storing anything: the costly half of Issue, for callers that
// keep it out of their write transaction (a signature does not depend on stored
// state) and then store the result with Put inside it.
func (s *Service) Sign(d Draft) (*Attestation, error) {
	return s.Issuer.Sign(d)
}

// Put stores att, as Sign returned it, in tx: the record, its subject index entry
// and, when env anchors, a pending anchoring job. It is the cheap half of Issue.
func (s *Service) Put(ctx context.Context, tx storage.Tx, env veriland.Environment, att *Attestation) error {
	if err := checkEnv(env); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	att.Anchor = s.NewAnchorState(env)
	if att.Anchor.Status == AnchorPending {
		m, err := att.Message()
		if err != nil {
			return err
		}
		if err := enqueueAnchor(tx, env, JobIssue, att.ID, m.Digest(att.Issuer.ChainID), s.now()); err != nil {
			return err
		}
	}
	if err := saveRecord(tx, env, &record{Attestation: att}); err != nil {
		return err
	}
	return tx.Put(storage.Bucket(env, bucketBySubject), subjectKey(att), []byte{})
}

// Get returns attestation id of env, or not_found. Callers decide who may read it
// (CanRead).
func (s *Service) Get(ctx context.Context, env veriland.Environment, id string) (*Attestation, error) {
	var att *Attestation
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		att, err = s.GetTx(tx, env, id)
		return err
	})
	return att, err
}

// GetTx is Get inside the caller's transaction.
func (s *Service) GetTx(tx storage.Tx, env veriland.Environment, id string) (*Attestation, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	if id == "" || len(id) > maxTextLen {
		return nil, notFound()
	}
	r, err := loadRecord(tx, env, id)
	if err != nil {
		return nil, err
	}
	return r.Attestation, nil
}

// CanRead reports whether p may read att in full: its subject, its verifier, or an
// admin (SPEC S7).
func CanRead(p veriland.Principal, att *Attestation) bool {
	switch {
	case p.Role == veriland.RoleAdmin:
		return true
	case p.Subject == "":
		return false
	case p.Subject == att.Subject:
		return true
	case p.Role == veriland.RoleVerifier && p.Subject == att.Verifier:
		return true
	}
	return false
}

// StatusView is the public status of an attestation (GET /attestation/{id}/status).
type StatusView struct {
	ID        string     `json:"id"`
	Status    Status     `json:"status"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// Status returns the public status of attestation id of env, or not_found.
func (s *Service) Status(ctx context.Context, env veriland.Environment, id string) (*StatusView, error) {
	att, err := s.Get(ctx, env, id)
	if err != nil {
		return nil, err
	}
	return &StatusView{ID: att.ID, Status: att.Status, RevokedAt: att.RevokedAt}, nil
}

// Revoke revokes attestation id of env on behalf of by, who must be its subject or an
// admin (forbidden otherwise; not_found for an unknown id or a principal of the other
// environment). Revoking a revoked attestation changes nothing and returns it. The
// first revocation records reason (at most 500 characters, never shown in the
// attestation), queues the revocation for anchoring and runs OnRevoke, all in one
// transaction.
func (s *Service) Revoke(ctx context.Context, env veriland.Environment, id, reason string, by veriland.Principal) (*Attestation, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	if by.Env != "" && by.Env != env {
		return nil, notFound()
	}
	if utf8.RuneCountInString(reason) > 500 || !utf8.ValidString(reason) {
		return nil, veriland.Invalid("/reason", "reason must be at most 500 characters of UTF-8")
	}
	var out *Attestation
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		if id == "" || len(id) > maxTextLen {
			return notFound()
		}
		r, err := loadRecord(tx, env, id)
		if err != nil {
			return err
		}
		att := r.Attestation
		if by.Role != veriland.RoleAdmin && (by.Subject == "" || by.Subject != att.Subject) {
			return veriland.Errorf(veriland.CodeForbidden, "only the attestation's subject or an admin may revoke it")
		}
		out = att
		if att.Status == StatusRevoked {
			return nil
		}
		now := s.now().UTC().Truncate(time.Second)
		att.Status = StatusRevoked
		att.RevokedAt = &now
		r.RevocationReason = strings.TrimSpace(reason)
		r.RevokedBy = string(by.Role) + ":" + by.Subject
		state := s.NewAnchorState(env)
		att.RevocationAnchor = &state
		if state.Status == AnchorPending {
			digest, err := RevocationDigest(att)
			if err != nil {
				return err
			}
			if err := enqueueAnchor(tx, env, JobRevoke, att.ID, digest, now); err != nil {
				return err
			}
		}
		if err := saveRecord(tx, env, r); err != nil {
			return err
		}
		if err := tx.Put(storage.Bucket(env, bucketRevocations), revocationKey(now, att.ID), []byte{}); err != nil {
			return err
		}
		if s.OnRevoke != nil {
			return s.OnRevoke(ctx, tx, env, att)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// maxList caps ListBySubject.
const maxList = 1000

// ListBySubject returns subject's attestations in env, of kind when kind is not "",
// newest first, whatever their status (at most 1000).
func (s *Service) ListBySubject(ctx context.Context, env veriland.Environment, subject string, kind Kind) ([]*Attestation, error) {
	var out []*Attestation
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		out, err = s.ListBySubjectTx(tx, env, subject, kind)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListBySubjectTx is ListBySubject inside the caller's transaction, so that a
// decision (a consent that needs a liveness attestation, say) reads the attestations
// of the same snapshot it writes in.
func (s *Service) ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind Kind) ([]*Attestation, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	out := []*Attestation{}
	if subject == "" || strings.IndexByte(subject, 0) >= 0 || strings.IndexByte(string(kind), 0) >= 0 {
		return out, nil
	}
	prefix := subjectPrefix(subject, kind)
	err := tx.Scan(storage.Bucket(env, bucketBySubject), storage.Range{Prefix: prefix, Reverse: true}, func(key, _ []byte) error {
		if len(key) < len(prefix)+8 {
			return nil
		}
		id := key[len(prefix)+8:]
		if kind == "" { // the key holds the kind too: skip it
			rest := key[len(prefix):]
			i := strings.IndexByte(string(rest), 0)
			if i < 0 || len(rest) < i+1+8 {
				return nil
			}
			id = rest[i+1+8:]
		}
		r, err := loadRecord(tx, env, string(id))
		if err != nil {
			return err
		}
		out = append(out, r.Attestation)
		if len(out) >= maxList {
			return storage.ErrStop
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if kind == "" {
		sortNewestFirst(out)
	}
	return out, nil
}

// Revocations returns the list of env's attestations revoked at or after since (all
// of them for the zero time), signed by the issuer key (SPEC S7).
func (s *Service) Revocations(ctx context.Context, env veriland.Environment, since time.Time) (*RevocationList, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	l := &RevocationList{ChainID: s.Issuer.ChainID, IssuedAt: s.now(), Revocations: []Revocation{}}
	if !since.IsZero() {
		l.Since = &since
	}
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		r := storage.Range{}
		if !since.IsZero() {
			r.Start = revocationKey(since, "")
		}
		return tx.Scan(storage.Bucket(env, bucketRevocations), r, func(key, _ []byte) error {
			if len(key) < 8 {
				return nil
			}
			at := time.Unix(int64(beUint64(key[:8])), 0).UTC()
			l.Revocations = append(l.Revocations, Revocation{ID: string(key[8:]), RevokedAt: at})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if err := SignRevocationList(l, s.Issuer.Key); err != nil {
		return nil, err
	}
	return l, nil
}
