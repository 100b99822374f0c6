package idempotency

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/veriland/veriland"
)

// Scope is what a key is unique within (SPEC S2.4): the same key sent by two callers,
// to two routes or in two environments names two unrelated requests.
//
// Exactly one of Subject and ClientIP is set: Subject on authenticated routes,
// ClientIP on public ones. They are hashed as separate fields, so a subject that looks
// like an IP address never shares a scope with that IP.
type Scope struct {
	Env      veriland.Environment
	Subject  string // token "sub" of the caller on authenticated routes
	ClientIP string // client IP on public routes
	Method   string // e.g. "POST"
	Path     string // the request path, e.g. "/consent/vrq_…/approve"
	Key      string // the parsed Idempotency-Key
}

// validate reports a scope that cannot be stored: a programming error of the caller,
// except for the key, which comes from the client.
func (s Scope) validate() error {
	switch {
	case !s.Env.Valid():
		return veriland.Errorf(veriland.CodeInternal, "idempotency scope: invalid environment %q", string(s.Env))
	case (s.Subject == "") == (s.ClientIP == ""):
		return veriland.Errorf(veriland.CodeInternal, "idempotency scope: exactly one of Subject and ClientIP must be set")
	case s.Method == "" || s.Path == "":
		return veriland.Errorf(veriland.CodeInternal, "idempotency scope: method and path are required")
	}
	return validKey(s.Key)
}

// storageKey is SHA-256 over the length-prefixed scope parts, so that no two scopes
// share a key and no raw key, subject or IP is stored.
func (s Scope) storageKey() []byte {
	h := sha256.New()
	var n [4]byte
	for _, part := range []string{"veriland/idempotency/v1", string(s.Env), s.Subject, s.ClientIP, s.Method, s.Path, s.Key} {
		binary.BigEndian.PutUint32(n[:], uint32(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	return h.Sum(nil)
}
