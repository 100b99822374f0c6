package assistant

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Session is a persistent conversation (POST /v1/assistant/sessions). It belongs to
// the (environment, account, sub) of the token that created it; nobody else can read,
// continue or delete it.
type Session struct {
	ID string `json:"id"`
	// Language is the session's language (ISO 639-1): set at creation or by the first
	// reliably detected message, and used for later messages too short to tell. null
	// until known.
	Language *string `json:"language"`
	// Title is the caller's label for the session, null when none was given.
	Title        *string   `json:"title"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
	MessageCount int       `json:"messageCount"`
}

// SessionRequest is the body of POST /v1/assistant/sessions; both members are
// optional.
type SessionRequest struct {
	// Language, when set, must be one of Languages.
	Language *string `json:"language,omitempty"`
	// Title is 1..200 characters when set.
	Title *string `json:"title,omitempty"`
}

// MaxTitleLength bounds a session title, in characters.
const MaxTitleLength = 200

// Validate checks the request, one error per offending member.
func (r SessionRequest) Validate() error {
	var errs veriland.Errors
	if r.Language != nil && !Supported(*r.Language) {
		errs = append(errs, veriland.Invalid("/language", "language must be one of %v", Languages).WithMeta("allowed", Languages))
	}
	if r.Title != nil {
		if n := utf8.RuneCountInString(*r.Title); n < 1 || n > MaxTitleLength || !utf8.ValidString(*r.Title) {
			errs = append(errs, veriland.Invalid("/title", "title must be 1 to %d characters", MaxTitleLength))
		}
	}
	return errs.Err()
}

// CreateSession stores a new empty session for p. Errors: validation_failed.
func (s *Service) CreateSession(ctx context.Context, p veriland.Principal, req SessionRequest) (*Session, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out *Session
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		rec, err := s.newSession(tx, p, req)
		if err != nil {
			return err
		}
		out, err = s.sessionView(p.Env, rec)
		return err
	})
	return out, err
}

// newSession stores a new session record for p inside tx.
func (s *Service) newSession(tx storage.Tx, p veriland.Principal, req SessionRequest) (*sessionRecord, error) {
	id, err := ids.New(s.rand(), "ses")
	if err != nil {
		return nil, err
	}
	now := s.now()
	rec := &sessionRecord{ID: id, Account: p.Account, Subject: p.Subject, CreatedAt: now, UpdatedAt: now}
	if req.Language != nil {
		rec.Language = *req.Language
	}
	if err := s.newSessionKey(p.Env, rec); err != nil {
		return nil, err
	}
	if req.Title != nil {
		if rec.Title, err = s.sealText(p.Env, rec, "title", []byte(*req.Title)); err != nil {
			return nil, err
		}
	}
	r := repo(tx, p.Env)
	if err := r.indexSession(rec); err != nil {
		return nil, err
	}
	return rec, r.putSession(rec)
}

// ListSessions returns up to limit of p's sessions after cursor ("" starts at the
// newest), newest first, without their messages, and the cursor of the next page (""
// at the end). Errors: validation_failed (a cursor this service did not issue).
func (s *Service) ListSessions(ctx context.Context, p veriland.Principal, cursor string, limit int) ([]*Session, string, error) {
	if err := s.check(p.Env); err != nil {
		return nil, "", err
	}
	var after []byte
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || !bytes.HasPrefix(b, ownerPrefix(p)) || len(b) > 1024 {
			return nil, "", veriland.Invalid("/cursor", "cursor is not one this server issued").WithMeta("parameter", "cursor")
		}
		after = b
	}
	limit = min(max(limit, 1), 100)
	var out []*Session
	var next []byte
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		recs, n, err := repo(tx, p.Env).ownedSessions(p, after, limit)
		if err != nil {
			return err
		}
		next = n
		for _, rec := range recs {
			v, err := s.sessionView(p.Env, rec)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	if err != nil || next == nil {
		return out, "", err
	}
	return out, base64.RawURLEncoding.EncodeToString(next), nil
}

// SessionPage is a session with one page of its messages, oldest first.
type SessionPage struct {
	*Session
	Messages []*Message `json:"messages"`
	// Next is the cursor of the following page, "" at the end.
	Next string `json:"-"`
}

// GetSession returns p's session id with up to limit messages after cursor (oldest
// first; cursor "" starts at the first message). Errors: not_found (unknown id, or a
// session of another account, sub or environment), validation_failed (a cursor this
// service did not issue).
func (s *Service) GetSession(ctx context.Context, p veriland.Principal, id, cursor string, limit int) (*SessionPage, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	after, err := parseCursor(cursor)
	if err != nil {
		return nil, err
	}
	limit = min(max(limit, 1), 100)
	var out *SessionPage
	err = s.Store.View(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := r.ownedSession(p, id)
		if err != nil {
			return err
		}
		view, err := s.sessionView(p.Env, rec)
		if err != nil {
			return err
		}
		msgs, more, err := r.messages(id, after, limit)
		if err != nil {
			return err
		}
		out = &SessionPage{Session: view, Messages: make([]*Message, 0, len(msgs))}
		for _, m := range msgs {
			view, err := s.messageView(p.Env, rec, m)
			if err != nil {
				return err
			}
			out.Messages = append(out.Messages, view)
		}
		if more && len(msgs) > 0 {
			out.Next = formatCursor(msgs[len(msgs)-1].Seq)
		}
		return nil
	})
	return out, err
}

// DeleteSession erases p's session id: the session record, its sealed data key and
// every message, in one transaction. Errors: not_found.
func (s *Service) DeleteSession(ctx context.Context, p veriland.Principal, id string) error {
	if err := s.check(p.Env); err != nil {
		return err
	}
	return s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		rec, err := r.ownedSession(p, id)
		if err != nil {
			return err
		}
		return r.deleteSession(rec)
	})
}

// sessionView is the caller's view of rec, its title opened.
func (s *Service) sessionView(env veriland.Environment, rec *sessionRecord) (*Session, error) {
	out := &Session{ID: rec.ID, CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, MessageCount: rec.MessageCount}
	if rec.Language != "" {
		l := rec.Language
		out.Language = &l
	}
	if !rec.Title.IsZero() {
		b, err := s.openText(env, rec, "title", rec.Title)
		if err != nil {
			return nil, err
		}
		t := string(b)
		out.Title = &t
	}
	return out, nil
}

// messageView opens a stored message.
func (s *Service) messageView(env veriland.Environment, sess *sessionRecord, m *messageRecord) (*Message, error) {
	b, err := s.openText(env, sess, m.ID, m.Body)
	if err != nil {
		return nil, err
	}
	var body messageBody
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, err
	}
	out := &Message{
		ID: m.ID, SessionID: sess.ID, Role: m.Role, Text: body.Text, Language: m.Language,
		DetectedLanguage: m.DetectedLanguage, Intent: Intent(m.Intent), Actions: body.Actions,
		References: body.References, Source: m.Source, CreatedAt: m.CreatedAt,
	}
	if m.Role == RoleAssistant {
		out.Actions, out.References = nonNil(out.Actions), nonNil(out.References)
	}
	return out, nil
}
