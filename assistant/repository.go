package assistant

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Bucket names, each namespaced per environment with storage.Bucket.
const (
	bucketSessions = "assistant_sessions" // session id → sessionRecord JSON
	bucketMessages = "assistant_messages" // session id ‖ 0x00 ‖ uint64 seq → messageRecord JSON
	bucketOwners   = "assistant_owners"   // account ‖ 0x00 ‖ sub ‖ 0x00 ‖ ^createdAt ns ‖ session id → empty
)

// sessionRecord is a session as stored. Key is the session's own AES-256 data key,
// sealed by Service.Fields; the title and every message body are sealed under it.
type sessionRecord struct {
	ID           string            `json:"id"`
	Account      string            `json:"account"`
	Subject      string            `json:"sub"`
	Language     string            `json:"language,omitempty"`
	Title        fieldcrypt.Sealed `json:"title"`
	Key          fieldcrypt.Sealed `json:"key"`
	CreatedAt    time.Time         `json:"createdAt"`
	UpdatedAt    time.Time         `json:"updatedAt"`
	MessageCount int               `json:"messageCount"`
	// Seq is the sequence number of the last message.
	Seq uint64 `json:"seq"`
	// Topic is the entity of the last answer (a parcel, certificate, request or
	// attestation id), so that "and its certificate?" can follow it. Ids only.
	Topic string `json:"topic,omitempty"`
}

// messageRecord is a message as stored: its text, actions and references sealed,
// the routing facts in clear.
type messageRecord struct {
	ID               string            `json:"id"`
	Seq              uint64            `json:"seq"`
	Role             string            `json:"role"`
	Body             fieldcrypt.Sealed `json:"body"`
	Language         string            `json:"language"`
	DetectedLanguage string            `json:"detectedLanguage,omitempty"`
	Intent           string            `json:"intent,omitempty"`
	Source           string            `json:"source,omitempty"`
	CreatedAt        time.Time         `json:"createdAt"`
}

// messageBody is the sealed part of a message.
type messageBody struct {
	Text       string      `json:"text"`
	Actions    []Action    `json:"actions,omitempty"`
	References []Reference `json:"references,omitempty"`
}

// repository is the typed view of one environment's assistant buckets inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func repo(tx storage.Tx, env veriland.Environment) repository { return repository{tx: tx, env: env} }

func (r repository) bucket(name string) string { return storage.Bucket(r.env, name) }

func sessionNotFound(id string) error {
	return veriland.Errorf(veriland.CodeNotFound, "no assistant session %s", id).WithMeta("sessionId", id)
}

// ownedSession returns session id when p owns it: same account and same sub. Any
// other session is not_found, never forbidden, so that ids cannot be probed.
func (r repository) ownedSession(p veriland.Principal, id string) (*sessionRecord, error) {
	b, err := r.tx.Get(r.bucket(bucketSessions), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, sessionNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	var rec sessionRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	if rec.Account != p.Account || rec.Subject != p.Subject {
		return nil, sessionNotFound(id)
	}
	return &rec, nil
}

// ownerPrefix is the index prefix of one (account, sub)'s sessions. Account ids and
// subs cannot hold 0x00 (they come from JWT claims, which are JSON strings checked by
// the token layer), so the prefix is unambiguous.
func ownerPrefix(p veriland.Principal) []byte {
	return []byte(p.Account + "\x00" + p.Subject + "\x00")
}

// ownerKey sorts an owner's sessions newest first.
func ownerKey(rec *sessionRecord) []byte {
	k := []byte(rec.Account + "\x00" + rec.Subject + "\x00")
	k = binary.BigEndian.AppendUint64(k, ^uint64(rec.CreatedAt.UnixNano()))
	return append(k, rec.ID...)
}

// indexSession records a new session under its owner.
func (r repository) indexSession(rec *sessionRecord) error {
	return r.tx.Put(r.bucket(bucketOwners), ownerKey(rec), nil)
}

// ownedSessions returns up to limit of p's sessions after the index key after (nil:
// from the newest), newest first, and the index key of the last one when more follow.
func (r repository) ownedSessions(p veriland.Principal, after []byte, limit int) ([]*sessionRecord, []byte, error) {
	prefix := ownerPrefix(p)
	rg := storage.Range{Prefix: prefix}
	if after != nil {
		rg.Start = append(append([]byte{}, after...), 0)
	}
	var out []*sessionRecord
	var last, next []byte
	err := r.tx.Scan(r.bucket(bucketOwners), rg, func(k, _ []byte) error {
		if len(out) == limit {
			next = last
			return storage.ErrStop
		}
		id := string(k[len(prefix)+8:])
		rec, err := r.ownedSession(p, id)
		if err != nil {
			return err
		}
		out = append(out, rec)
		last = append([]byte{}, k...)
		return nil
	})
	return out, next, err
}

func (r repository) putSession(rec *sessionRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return r.tx.Put(r.bucket(bucketSessions), []byte(rec.ID), b)
}

func messageKey(sessionID string, seq uint64) []byte {
	k := append([]byte(sessionID), 0)
	return binary.BigEndian.AppendUint64(k, seq)
}

func (r repository) putMessage(sessionID string, m *messageRecord) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return r.tx.Put(r.bucket(bucketMessages), messageKey(sessionID, m.Seq), b)
}

// messages returns up to limit messages of the session after sequence number after,
// oldest first, and whether more follow.
func (r repository) messages(sessionID string, after uint64, limit int) ([]*messageRecord, bool, error) {
	var out []*messageRecord
	more := false
	rg := storage.Range{Prefix: append([]byte(sessionID), 0), Start: messageKey(sessionID, after+1)}
	err := r.tx.Scan(r.bucket(bucketMessages), rg, func(_, v []byte) error {
		if len(out) == limit {
			more = true
			return storage.ErrStop
		}
		var m messageRecord
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		out = append(out, &m)
		return nil
	})
	return out, more, err
}

// deleteSession deletes the session record, its index entry and all its messages.
func (r repository) deleteSession(rec *sessionRecord) error {
	id := rec.ID
	var keys [][]byte
	err := r.tx.Scan(r.bucket(bucketMessages), storage.Range{Prefix: append([]byte(id), 0)}, func(k, _ []byte) error {
		keys = append(keys, k)
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := r.tx.Delete(r.bucket(bucketMessages), k); err != nil {
			return err
		}
	}
	if err := r.tx.Delete(r.bucket(bucketOwners), ownerKey(rec)); err != nil {
		return err
	}
	return r.tx.Delete(r.bucket(bucketSessions), []byte(rec.ID))
}

// Cursors of a session's messages are the base64url of the last sequence number.
func formatCursor(seq uint64) string {
	return base64.RawURLEncoding.EncodeToString(binary.BigEndian.AppendUint64(nil, seq))
}

func parseCursor(c string) (uint64, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) != 8 {
		return 0, veriland.Invalid("/cursor", "cursor is not one this server issued").WithMeta("parameter", "cursor")
	}
	return binary.BigEndian.Uint64(b), nil
}

// Per-session keys. The session key is sealed by the service keyring (so that key
// rotation and erasure of the keyring apply to it); text is sealed under the session
// key with associated data naming the environment, the session and the field.

func keyAAD(env veriland.Environment, sessionID string) []byte {
	return []byte("assistant:" + string(env) + ":" + sessionID + ":key")
}

func textAAD(env veriland.Environment, sessionID, field string) []byte {
	return []byte("assistant:" + string(env) + ":" + sessionID + ":" + field)
}

// newSessionKey makes rec's data key and seals it into rec.Key.
func (s *Service) newSessionKey(env veriland.Environment, rec *sessionRecord) error {
	key := make([]byte, 32)
	if _, err := io.ReadFull(s.rand(), key); err != nil {
		return err
	}
	sealed, err := s.Fields.Seal(key, keyAAD(env, rec.ID))
	if err != nil {
		return veriland.Errorf(veriland.CodeInternal, "cannot seal the session key").WithCause(err)
	}
	rec.Key = sealed
	return nil
}

// sessionKeyring opens rec's data key as a one-key keyring.
func (s *Service) sessionKeyring(env veriland.Environment, rec *sessionRecord) (*fieldcrypt.Keyring, error) {
	key, err := s.Fields.Open(rec.Key, keyAAD(env, rec.ID))
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "the session key cannot be opened").WithCause(err)
	}
	// Nonces come from the system source even when Rand is a test's deterministic
	// reader: a repeated AES-GCM nonce under one key would leak the plaintexts.
	return fieldcrypt.NewKeyring("s", map[string][]byte{"s": key}, rand.Reader)
}

func (s *Service) sealText(env veriland.Environment, rec *sessionRecord, field string, text []byte) (fieldcrypt.Sealed, error) {
	k, err := s.sessionKeyring(env, rec)
	if err != nil {
		return fieldcrypt.Sealed{}, err
	}
	return k.Seal(text, textAAD(env, rec.ID, field))
}

func (s *Service) openText(env veriland.Environment, rec *sessionRecord, field string, sealed fieldcrypt.Sealed) ([]byte, error) {
	k, err := s.sessionKeyring(env, rec)
	if err != nil {
		return nil, err
	}
	b, err := k.Open(sealed, textAAD(env, rec.ID, field))
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "a message of session %s cannot be opened", rec.ID).WithCause(err)
	}
	return b, nil
}
