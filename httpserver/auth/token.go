package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/internal/jsonscan"
)

// Issuer is the only accepted "iss" claim.
const Issuer = "veriland"

// Leeway is the clock skew tolerated on exp, nbf and iat.
const Leeway = 60 * time.Second

// Secrets holds the two HS256 secrets; the token header "kid" selects one
// ("sandbox" or "production"), and the "env" claim must agree with it.
type Secrets struct {
	Sandbox    []byte
	Production []byte
}

func (s Secrets) forKeyID(kid string) (veriland.Environment, []byte, bool) {
	switch kid {
	case veriland.Sandbox.KeyID():
		return veriland.Sandbox, s.Sandbox, len(s.Sandbox) >= 32
	case veriland.Production.KeyID():
		return veriland.Production, s.Production, len(s.Production) >= 32
	}
	return "", nil, false
}

// Tokens mints and verifies veriland JWTs (SPEC S2.3): HS256 only, per-environment
// secrets, required exp, 60 s leeway.
type Tokens struct {
	Secrets Secrets
	Now     func() time.Time // defaults to time.Now
	Rand    io.Reader        // source of jti values; required for Mint
}

// Claims are the veriland token claims.
type Claims struct {
	jwt.RegisteredClaims
	Role   veriland.Role        `json:"role"`
	Env    veriland.Environment `json:"env"`
	Acct   string               `json:"acct,omitempty"`
	Wallet string               `json:"wallet,omitempty"`
}

func (t *Tokens) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Mint signs a token for p that lives ttl. p.TokenID is generated when empty. It
// returns the token and the principal as a verifier will see it.
func (t *Tokens) Mint(p veriland.Principal, ttl time.Duration) (string, veriland.Principal, error) {
	if !p.Env.Valid() {
		return "", p, veriland.Invalid("/env", "environment must be SANDBOX or PRODUCTION")
	}
	if !p.Role.Valid() {
		return "", p, veriland.Invalid("/role", "role must be holder, verifier, notary or admin")
	}
	if p.Subject == "" || len(p.Subject) > 256 {
		return "", p, veriland.Invalid("/sub", "subject must be 1..256 characters")
	}
	if ttl <= 0 {
		return "", p, veriland.Invalid("/ttl", "ttl must be positive")
	}
	_, secret, ok := t.Secrets.forKeyID(p.Env.KeyID())
	if !ok {
		return "", p, fmt.Errorf("auth: no secret configured for %s", p.Env)
	}
	if p.TokenID == "" {
		jti, err := ids.New(t.Rand, "jti")
		if err != nil {
			return "", p, err
		}
		p.TokenID = jti
	}
	now := t.now().UTC().Truncate(time.Second)
	p.ExpiresAt = now.Add(ttl)
	p.Wallet = strings.ToLower(p.Wallet)
	claims := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    Issuer,
			Subject:   p.Subject,
			ID:        p.TokenID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(p.ExpiresAt),
		},
		Role: p.Role, Env: p.Env, Acct: p.Account, Wallet: p.Wallet,
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	tok.Header["kid"] = p.Env.KeyID()
	signed, err := tok.SignedString(secret)
	if err != nil {
		return "", p, fmt.Errorf("auth: signing token: %w", err)
	}
	return signed, p, nil
}

// Sentinel causes of a refused token, wrapped in *veriland.Error.
var (
	ErrMalformed   = errors.New("auth: malformed token")
	ErrAlgorithm   = errors.New("auth: algorithm not allowed")
	ErrKeyID       = errors.New("auth: unknown key id")
	ErrSignature   = errors.New("auth: bad signature")
	ErrExpired     = errors.New("auth: token expired")
	ErrClaims      = errors.New("auth: invalid claims")
	ErrEnvMismatch = errors.New("auth: env claim disagrees with kid")
)

// Verify checks a raw token and returns its principal. Any algorithm other than HS256
// ("none" included), an unknown kid, an env claim that disagrees with the kid, a
// missing or past exp (beyond the leeway), an exp, iat or nbf that is not a JSON
// number (RFC 7519 NumericDate), a wrong iss or an invalid role is refused
// with code unauthenticated (token_expired for expiry). It does not check revocation;
// the caller looks the jti up.
func (t *Tokens) Verify(raw string) (veriland.Principal, error) {
	var kidEnv veriland.Environment
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithLeeway(Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuer(Issuer),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(t.now),
	)
	var claims Claims
	_, err := parser.ParseWithClaims(raw, &claims, func(tok *jwt.Token) (any, error) {
		kid, _ := tok.Header["kid"].(string)
		env, secret, ok := t.Secrets.forKeyID(kid)
		if !ok {
			return nil, ErrKeyID
		}
		kidEnv = env
		return secret, nil
	})
	if err != nil {
		return veriland.Principal{}, refusal(err)
	}
	if err := checkNumericDates(parser, raw); err != nil {
		return veriland.Principal{}, err
	}
	if claims.Env != kidEnv {
		return veriland.Principal{}, unauthenticated(ErrEnvMismatch, "the env claim does not match the key id")
	}
	if !claims.Role.Valid() || claims.Subject == "" || claims.ID == "" {
		return veriland.Principal{}, unauthenticated(ErrClaims, "the token lacks a valid role, sub or jti")
	}
	return veriland.Principal{
		Subject:   claims.Subject,
		Role:      claims.Role,
		Env:       claims.Env,
		Account:   claims.Acct,
		Wallet:    strings.ToLower(claims.Wallet),
		TokenID:   claims.ID,
		ExpiresAt: claims.ExpiresAt.UTC(),
	}, nil
}

// numericDateClaims are the claims that RFC 7519 section 2 defines as NumericDate.
var numericDateClaims = [...]string{"exp", "iat", "nbf"}

// checkNumericDates refuses a token whose exp, iat or nbf is present but not a JSON
// number. The JWT library decodes NumericDate through json.Number, which also takes a
// string such as "1999999999" and treats null as absent; RFC 7519 NumericDate is a
// JSON number and nothing else. raw has already been parsed and its signature
// verified, so its payload segment decodes.
func checkNumericDates(parser *jwt.Parser, raw string) error {
	refused := unauthenticated(ErrClaims, "the token's exp, iat and nbf must be JSON numbers")
	_, rest, _ := strings.Cut(raw, ".")
	segment, sig, ok := strings.Cut(rest, ".")
	if !ok || strings.Contains(sig, ".") {
		return refused
	}
	payload, err := parser.DecodeSegment(segment)
	if err != nil {
		return refused
	}
	numeric, scanned := scanNumericDates(payload)
	if !scanned {
		numeric = decodeNumericDates(payload)
	}
	if !numeric {
		return refused
	}
	return nil
}

// scanNumericDates is checkNumericDates' one pass over a payload whose member names
// have no escapes (every token this server issues): it reports whether the last
// exp, iat and nbf members present each start as a JSON number, and scanned false,
// with nothing decided, for a payload it does not read (an escaped name, nesting
// deeper than maxClaimDepth), which decodeNumericDates then decides.
func scanNumericDates(payload []byte) (numeric, scanned bool) {
	var first [len(numericDateClaims)]byte // the last value's first byte, 0 when absent
	s := jsonscan.New(payload)
	ok := s.Object(func(key []byte) bool {
		for i, name := range numericDateClaims {
			if string(key) == name {
				s.Space()
				first[i] = s.Peek()
			}
		}
		return s.Skip(maxClaimDepth)
	}) && s.End()
	if !ok {
		return false, false
	}
	for _, c := range first {
		if c != 0 && !numberStart(c) {
			return false, true
		}
	}
	return true, true
}

// maxClaimDepth is how deeply nested a claim value scanNumericDates reads; a deeper
// one goes to decodeNumericDates.
const maxClaimDepth = 32

// decodeNumericDates is scanNumericDates through encoding/json, for any payload: the
// last member of each name wins, escaped names included.
func decodeNumericDates(payload []byte) bool {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(payload, &members); err != nil {
		return false
	}
	for _, name := range numericDateClaims {
		v, ok := members[name]
		if !ok {
			continue
		}
		if v = bytes.TrimSpace(v); len(v) == 0 || !numberStart(v[0]) {
			return false
		}
	}
	return true
}

// numberStart reports whether a JSON value starting with c is a number.
func numberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

func refusal(err error) *veriland.Error {
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return &veriland.Error{Code: veriland.CodeTokenExpired, Message: "the token has expired", Cause: ErrExpired}
	case errors.Is(err, ErrKeyID):
		return unauthenticated(ErrKeyID, "the token's kid must be sandbox or production")
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		if strings.Contains(err.Error(), "signing method") {
			return unauthenticated(ErrAlgorithm, "only HS256 tokens are accepted")
		}
		return unauthenticated(ErrSignature, "the token signature is invalid")
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return unauthenticated(ErrAlgorithm, "only HS256 tokens are accepted")
	case errors.Is(err, jwt.ErrTokenMalformed):
		return unauthenticated(ErrMalformed, "the token is malformed")
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing), errors.Is(err, jwt.ErrTokenInvalidIssuer),
		errors.Is(err, jwt.ErrTokenUsedBeforeIssued), errors.Is(err, jwt.ErrTokenNotValidYet),
		errors.Is(err, jwt.ErrTokenInvalidClaims):
		return unauthenticated(ErrClaims, "the token's claims are invalid")
	}
	return unauthenticated(ErrMalformed, "the token is invalid")
}

func unauthenticated(cause error, msg string) *veriland.Error {
	return &veriland.Error{Code: veriland.CodeUnauthenticated, Message: msg, Cause: cause}
}

// BearerToken extracts the token from an Authorization header value.
func BearerToken(header string) (string, bool) {
	scheme, tok, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
