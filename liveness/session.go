package liveness

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// SessionIDPrefix is the prefix of session ids: "lvs_" + 26 random base32 characters.
const SessionIDPrefix = "lvs"

// SessionRequest is the body of POST /liveness/session. An empty RequestedLevel means
// DefaultLevel (L2).
type SessionRequest struct {
	RequestedLevel Level `json:"requestedLevel,omitempty"` // L1, L2, L3 or empty
}

// Validate checks the shape of r (validation_failed with a pointer).
func (r *SessionRequest) Validate() error {
	if r.RequestedLevel != "" && !r.RequestedLevel.Valid() {
		return veriland.Invalid("/requestedLevel", "requestedLevel must be L1, L2 or L3")
	}
	return nil
}

// Session is a started liveness session: the nonce the device's proof must carry, the
// level it is judged at and the script the holder performs. It can be verified once,
// until ExpiresAt.
type Session struct {
	ID        string    `json:"sessionId"` // "lvs_" + 26 base32 characters
	Nonce     string    `json:"nonce"`     // 0x + 64 hex digits: 32 random bytes
	Level     Level     `json:"level"`     // the level the proof is judged at
	Script    []Step    `json:"script"`    // the steps to perform, in order
	CreatedAt time.Time `json:"createdAt"` // start; no frame may be earlier
	ExpiresAt time.Time `json:"expiresAt"` // CreatedAt + SessionLifetime
}

// StartSession starts a liveness session for holder in env (POST /liveness/session,
// holder): a fresh id and nonce, a random script for the requested level, and an expiry
// SessionLifetime from now. Errors: validation_failed (400) for an unknown level.
func (s *Service) StartSession(ctx context.Context, env veriland.Environment, holder string, req SessionRequest) (*Session, error) {
	if err := s.check(env, holder); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	level := req.RequestedLevel
	if level == "" {
		level = DefaultLevel
	}
	rnd := s.rand()
	id, err := ids.New(rnd, SessionIDPrefix)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "cannot make a session id").WithCause(err)
	}
	var nonce [32]byte
	if _, err := io.ReadFull(rnd, nonce[:]); err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "cannot make a session nonce").WithCause(err)
	}
	script, err := NewScript(rnd, level)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "cannot make a session script").WithCause(err)
	}
	now := s.now().Truncate(time.Millisecond)
	rec := &sessionRecord{
		ID:        id,
		Holder:    holder,
		Nonce:     hexutil.Encode(nonce[:]),
		Level:     level,
		Script:    script,
		CreatedAt: now,
		ExpiresAt: now.Add(s.sessionLifetime()),
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		return repo(tx, env).putSession(rec)
	})
	if err != nil {
		return nil, err
	}
	return rec.public(), nil
}

func (rec *sessionRecord) public() *Session {
	return &Session{
		ID: rec.ID, Nonce: rec.Nonce, Level: rec.Level, Script: rec.Script,
		CreatedAt: rec.CreatedAt, ExpiresAt: rec.ExpiresAt,
	}
}

// PruneSessions deletes the sessions of env that expired before cutoff, used or not,
// and returns how many it deleted. A session is useless once expired; embedders call
// this from time to time (e.g. hourly with cutoff = now − 1 h) to keep storage small.
// It works in transactions of at most pruneChunk sessions, so that it never holds
// the write lock for long, and may run on several replicas at once: each session is
// deleted (and counted) by one of them. A session that does not decode is left alone.
func (s *Service) PruneSessions(ctx context.Context, env veriland.Environment, cutoff time.Time) (int, error) {
	if s.Store == nil {
		return 0, veriland.Errorf(veriland.CodeInternal, "liveness: Service.Store is nil")
	}
	if !env.Valid() {
		return 0, veriland.Errorf(veriland.CodeValidationFailed, "unknown environment %q", string(env))
	}
	return storage.DeleteWhere(ctx, s.Store, storage.Bucket(env, bucketSessions), pruneChunk, func(_, v []byte) bool {
		var rec struct {
			ExpiresAt time.Time `json:"expiresAt"`
		}
		return json.Unmarshal(v, &rec) == nil && !rec.ExpiresAt.IsZero() && rec.ExpiresAt.Before(cutoff)
	})
}

// pruneChunk bounds how many sessions one PruneSessions transaction examines.
const pruneChunk = 500
