package siwe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage"
)

// DefaultSkew is the clock difference tolerated when Service.Skew is zero.
const DefaultSkew = time.Minute

// Reasons a well-formed sign-in is refused. Each is the Cause of the unauthenticated
// *veriland.Error that Verify returns, so errors.Is(err, siwe.ErrExpired) works.
var (
	ErrDomainMismatch = errors.New("siwe: message domain is not this service's origin")
	ErrURIMismatch    = errors.New("siwe: message URI is not on this service's origin")
	ErrChainMismatch  = errors.New("siwe: message chain id is not the configured one")
	ErrIssuedInFuture = errors.New("siwe: message issued in the future")
	ErrExpired        = errors.New("siwe: message expired")
	ErrNotYetValid    = errors.New("siwe: message not valid yet")
	ErrBadSignature   = errors.New("siwe: signature refused")
	ErrSignerMismatch = errors.New("siwe: signature is not by the message's address")
	ErrUnknownNonce   = errors.New("siwe: unknown or already used nonce")
	ErrNonceExpired   = errors.New("siwe: nonce expired")
	ErrInvalidSigEnc  = errors.New("siwe: signature is not 0x and 130 hex digits")
)

// Service verifies EIP-4361 wallet logins (SPEC S2.3) and issues their nonces. It is
// safe for concurrent use.
type Service struct {
	// Store keeps the nonces, in global buckets shared by both environments.
	Store storage.Store
	// Origin is the server's public origin, "https://veriland.example" or
	// "http://127.0.0.1:8080": a message's domain and URI must be on it.
	Origin string
	// ChainID is the chain id messages must name.
	ChainID uint64
	// Skew is the tolerated clock difference for Issued At and Not Before in the future
	// (0: DefaultSkew). Expiration Time is enforced without tolerance.
	Skew time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of nonces (nil: crypto/rand.Reader).
	Rand io.Reader
}

// Login is a verified wallet sign-in. Minting the session token is the caller's.
type Login struct {
	Address   string    // the signer, lower-case 0x
	ChainID   uint64    // the chain the message names (the configured one)
	Nonce     string    // the consumed nonce
	IssuedAt  time.Time // the message's Issued At
	ExpiresAt time.Time // the message's Expiration Time; zero when it has none
	Message   *Message  // the whole parsed message
}

func (s *Service) checkEnv(env veriland.Environment) error {
	if s.Store == nil {
		return errors.New("siwe: Service.Store is nil")
	}
	if !env.Valid() {
		return veriland.Invalid("/environment", "environment must be SANDBOX or PRODUCTION")
	}
	return nil
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

func (s *Service) skew() time.Duration {
	if s.Skew > 0 {
		return s.Skew
	}
	return DefaultSkew
}

// Verify checks a signed sign-in message and consumes its nonce (POST /auth/siwe,
// public). In order: the message parses (Parse); its scheme, domain and URI are on
// Origin; its chain id is ChainID; Issued At and Not Before are not in the future
// beyond Skew and Expiration Time has not passed; the 65-byte signature (hex, v 0/1 or
// 27/28, low s) over the EIP-191 personal-sign digest of the exact message recovers to
// its address; and finally the nonce exists and has not expired — it is deleted in the
// same transaction, so a nonce serves exactly one login, into either environment (env
// is the environment the caller logs into; nonces are not tied to one).
//
// Errors: validation_failed (malformed message at /message or signature encoding at
// /signature, environment), unauthenticated (with one of the Err* reasons above as
// cause), storage failures. Never a panic, whatever the input.
func (s *Service) Verify(ctx context.Context, env veriland.Environment, message, signature string) (*Login, error) {
	if err := s.checkEnv(env); err != nil {
		return nil, err
	}
	origin, err := parseOrigin(s.Origin)
	if err != nil {
		return nil, err
	}
	if s.ChainID == 0 {
		return nil, errors.New("siwe: Service.ChainID is not set")
	}
	m, err := Parse(message)
	if err != nil {
		return nil, err
	}
	sig, err := decodeSignature(signature)
	if err != nil {
		return nil, err
	}
	if m.Scheme != "" && !strings.EqualFold(m.Scheme, origin.scheme) {
		return nil, unauthenticated(ErrDomainMismatch, "message scheme %q is not this service's", m.Scheme)
	}
	if d, ok := normalizeAuthority(origin.scheme, m.Domain); !ok || d != origin.authority {
		return nil, unauthenticated(ErrDomainMismatch, "message domain is not this service's origin")
	}
	if !origin.owns(m.URI) {
		return nil, unauthenticated(ErrURIMismatch, "message URI is not on this service's origin")
	}
	if m.ChainID != s.ChainID {
		return nil, unauthenticated(ErrChainMismatch, "message chain id %d is not %d", m.ChainID, s.ChainID)
	}
	now := s.now()
	if m.IssuedAt.After(now.Add(s.skew())) {
		return nil, unauthenticated(ErrIssuedInFuture, "message issued in the future")
	}
	if !m.NotBefore.IsZero() && m.NotBefore.After(now.Add(s.skew())) {
		return nil, unauthenticated(ErrNotYetValid, "message not valid before %s", m.NotBefore.UTC().Format(time.RFC3339))
	}
	if !m.ExpirationTime.IsZero() && !now.Before(m.ExpirationTime) {
		return nil, unauthenticated(ErrExpired, "message expired at %s", m.ExpirationTime.UTC().Format(time.RFC3339))
	}
	signer, err := ethsig.Recover(ethsig.PersonalDigest([]byte(message)), sig)
	if err != nil {
		return nil, unauthenticated(fmt.Errorf("%w: %w", ErrBadSignature, err), "signature refused")
	}
	if !strings.EqualFold(signer.Hex(), m.Address) {
		return nil, unauthenticated(ErrSignerMismatch, "signature is not by %s", m.Address)
	}
	if err := s.consumeNonce(ctx, m.Nonce, now); err != nil {
		return nil, err
	}
	return &Login{
		Address: strings.ToLower(m.Address), ChainID: m.ChainID, Nonce: m.Nonce,
		IssuedAt: m.IssuedAt, ExpiresAt: m.ExpirationTime, Message: m,
	}, nil
}

func unauthenticated(cause error, format string, args ...any) *veriland.Error {
	return veriland.Errorf(veriland.CodeUnauthenticated, format, args...).WithCause(cause)
}

// decodeSignature decodes "0x" + 130 hex digits (the 0x may be omitted).
func decodeSignature(s string) ([]byte, error) {
	h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if len(h) != 2*ethsig.SignatureLength {
		return nil, (&veriland.Error{Code: veriland.CodeValidationFailed, Pointer: "/signature",
			Message: "signature must be 0x and 130 hex digits (65 bytes)"}).WithCause(ErrInvalidSigEnc)
	}
	sig, err := hex.DecodeString(h)
	if err != nil {
		return nil, (&veriland.Error{Code: veriland.CodeValidationFailed, Pointer: "/signature",
			Message: "signature must be 0x and 130 hex digits (65 bytes)"}).WithCause(ErrInvalidSigEnc)
	}
	return sig, nil
}

// origin is a parsed Service.Origin.
type origin struct {
	scheme    string // lower case
	authority string // lower-case host, with the port only when not the scheme's default
}

func parseOrigin(s string) (origin, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return origin{}, fmt.Errorf("siwe: Service.Origin %q is not an http(s) origin", s)
	}
	a, ok := normalizeAuthority(u.Scheme, u.Host)
	if !ok {
		return origin{}, fmt.Errorf("siwe: Service.Origin %q is not an http(s) origin", s)
	}
	return origin{scheme: u.Scheme, authority: a}, nil
}

// normalizeAuthority lower-cases the host and drops the scheme's default port. An
// authority with userinfo never matches an origin.
func normalizeAuthority(scheme, authority string) (string, bool) {
	if strings.Contains(authority, "@") {
		return "", false
	}
	host, port := authority, ""
	if h, p, err := net.SplitHostPort(authority); err == nil {
		host, port = h, p
		if strings.Contains(h, ":") {
			host = "[" + h + "]"
		}
	}
	host = strings.ToLower(host)
	if port == "" || (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		return host, true
	}
	return host + ":" + port, true
}

// owns reports whether uri is an http(s) URI on the origin, with any path.
func (o origin) owns(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Scheme, o.scheme) {
		return false
	}
	a, ok := normalizeAuthority(o.scheme, u.Host)
	return ok && a == o.authority
}
