package consent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Limits and defaults of a verification request (SPEC S5 and the package doc).
const (
	DefaultExpiresIn  = 3600    // expiresInSeconds when absent
	MinExpiresIn      = 60      // smallest expiresInSeconds
	MaxExpiresIn      = 604800  // largest expiresInSeconds (7 days)
	DefaultMaxAgeDays = 365     // maxAgeDays when absent
	MaxMaxAgeDays     = 365     // largest maxAgeDays: liveness attestations live 365 days (SPEC S4)
	DefaultMinLevel   = LevelL2 // minLevel when absent
	MaxScopeItems     = 32      // most items in scope and disclosedScope
	MaxScopeItemLen   = 64      // longest scope item, in bytes
	MaxReasonLen      = 500     // longest reason, in characters
	MaxVerifierName   = 100     // longest verifierName, in characters
	MaxCallbackURLLen = 2048    // longest callbackUrl DefaultValidateCallback accepts, in bytes
)

// CreateRequest is the body of POST /verify/request. Optional members are nil or "".
type CreateRequest struct {
	// SubjectRef is the holder asked: an identity DID or a did:pkh on Service.ChainID.
	SubjectRef string   `json:"subjectRef"`
	Scope      []string `json:"scope"`
	// Mode is FULL (default) or SELECTIVE.
	Mode   Mode   `json:"mode,omitempty"`
	Reason string `json:"reason"`
	// CallbackURL, when set, receives the request's webhooks.
	CallbackURL     string `json:"callbackUrl,omitempty"`
	RequireLiveness bool   `json:"requireLiveness,omitempty"`
	// MinLevel is L1, L2 or L3 (default L2); meaningful with RequireLiveness.
	MinLevel string `json:"minLevel,omitempty"`
	// MaxAgeDays bounds the liveness attestation's age, 1..365 (default 365).
	MaxAgeDays *int `json:"maxAgeDays,omitempty"`
	// ExpiresInSeconds is the request's lifetime, 60..604800 (default 3600).
	ExpiresInSeconds *int `json:"expiresInSeconds,omitempty"`
	// VerifierName is shown to the holder (the server may fill it from the API key's
	// name); 0..100 characters.
	VerifierName string `json:"verifierName,omitempty"`
}

// validate checks every member of c and returns its normalised form: defaults
// applied, a did:pkh subject in lower case. Every offending member gets its own error
// with its JSON pointer.
func (s *Service) validate(env veriland.Environment, c CreateRequest) (CreateRequest, error) {
	var errs veriland.Errors
	add := func(e *veriland.Error) { errs = append(errs, e) }

	subject, err := s.parseSubject(c.SubjectRef)
	if err != nil {
		add(err)
	}
	c.SubjectRef = subject

	if c.Mode == "" {
		c.Mode = ModeFull
	}
	if c.Mode != ModeFull && c.Mode != ModeSelective {
		add(veriland.Invalid("/mode", "mode must be FULL or SELECTIVE"))
	}
	errs = append(errs, s.validateScope(c.Scope, c.Mode)...)

	if n := utf8.RuneCountInString(c.Reason); n == 0 || n > MaxReasonLen || !printable(c.Reason, true) {
		add(veriland.Invalid("/reason", "reason must be 1..%d printable characters", MaxReasonLen))
	}
	if n := utf8.RuneCountInString(c.VerifierName); n > MaxVerifierName || !printable(c.VerifierName, false) {
		add(veriland.Invalid("/verifierName", "verifierName must be at most %d printable characters", MaxVerifierName))
	}
	if c.CallbackURL != "" {
		if e := s.validateCallback(env, c.CallbackURL); e != nil {
			add(e)
		}
	}

	if c.MinLevel == "" {
		c.MinLevel = DefaultMinLevel
	}
	if LevelRank(c.MinLevel) == 0 {
		add(veriland.Invalid("/minLevel", "minLevel must be L1, L2 or L3"))
	}
	if c.MaxAgeDays == nil {
		c.MaxAgeDays = ptr(DefaultMaxAgeDays)
	}
	if d := *c.MaxAgeDays; d < 1 || d > MaxMaxAgeDays {
		add(veriland.Invalid("/maxAgeDays", "maxAgeDays must be 1..%d", MaxMaxAgeDays))
	}
	if c.RequireLiveness && s.Liveness == nil {
		add(veriland.Invalid("/requireLiveness", "this service cannot check liveness"))
	}
	if c.ExpiresInSeconds == nil {
		c.ExpiresInSeconds = ptr(DefaultExpiresIn)
	}
	if e := *c.ExpiresInSeconds; e < MinExpiresIn || e > MaxExpiresIn {
		add(veriland.Invalid("/expiresInSeconds", "expiresInSeconds must be %d..%d", MinExpiresIn, MaxExpiresIn))
	}
	return c, errs.Err()
}

// parseSubject accepts an identity DID or a did:pkh:eip155 on the configured chain,
// returned in canonical form (lower-case address).
func (s *Service) parseSubject(ref string) (string, *veriland.Error) {
	if identity.ValidDID(ref) {
		return ref, nil
	}
	if chain, addr, ok := identity.ParsePKHDID(ref); ok {
		if chain != s.ChainID {
			return ref, veriland.Invalid("/subjectRef", "a did:pkh subject must be on chain %d", s.ChainID)
		}
		return identity.PKHDID(chain, addr), nil
	}
	return ref, veriland.Invalid("/subjectRef", "subjectRef must be a did:veriland DID or a did:pkh:eip155:%d:0x… account", s.ChainID)
}

// validateScope checks a request's scope: 1..MaxScopeItems distinct items of the
// scope item syntax, each one in SelectiveScope for SELECTIVE requests.
func (s *Service) validateScope(scope []string, mode Mode) veriland.Errors {
	if len(scope) == 0 || len(scope) > MaxScopeItems {
		return veriland.Errors{veriland.Invalid("/scope", "scope must have 1..%d items", MaxScopeItems)}
	}
	var errs veriland.Errors
	allowed := s.selectiveScope()
	for i, it := range scope {
		p := "/scope/" + strconv.Itoa(i)
		switch {
		case !validScopeItem(it):
			errs = append(errs, veriland.Invalid(p, "scope items are 1..%d characters of A-Z a-z 0-9 _ . : -", MaxScopeItemLen))
		case slices.Index(scope, it) < i:
			errs = append(errs, veriland.Invalid(p, "scope item %q is repeated", it))
		case mode == ModeSelective && !slices.Contains(allowed, it):
			errs = append(errs, veriland.Invalid(p, "scope item %q cannot be disclosed selectively", it).
				WithMeta("selectiveScope", slices.Clone(allowed)))
		}
	}
	return errs
}

// validScopeItem reports whether it has the scope item syntax: 1..MaxScopeItemLen
// characters of A-Z a-z 0-9 _ . : -.
func validScopeItem(it string) bool {
	if it == "" || len(it) > MaxScopeItemLen {
		return false
	}
	for i := 0; i < len(it); i++ {
		c := it[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// printable reports whether t is valid UTF-8 without control characters (newlines
// allowed when multiline).
func printable(t string, multiline bool) bool {
	if !utf8.ValidString(t) {
		return false
	}
	for _, r := range t {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t')) {
			return false
		}
	}
	return true
}

func (s *Service) validateCallback(env veriland.Environment, raw string) *veriland.Error {
	validate := s.ValidateCallback
	if validate == nil {
		validate = DefaultValidateCallback
	}
	err := validate(env, raw)
	if err == nil {
		return nil
	}
	if e := (*veriland.Error)(nil); errors.As(err, &e) {
		return &veriland.Error{Code: veriland.CodeValidationFailed, Message: e.Message, Pointer: "/callbackUrl", Meta: e.Meta, Cause: e.Cause}
	}
	return veriland.Invalid("/callbackUrl", "callbackUrl is not allowed").WithCause(err)
}

// DefaultValidateCallback is the callbackUrl check used when Service.ValidateCallback
// is nil: an absolute https URL with a host and no userinfo, at most MaxCallbackURLLen
// bytes; http is allowed in SANDBOX. It does not look at the address the host names:
// servers that deliver webhooks should use httpserver/webhook's SSRF-safe validator.
func DefaultValidateCallback(env veriland.Environment, raw string) error {
	if len(raw) > MaxCallbackURLLen {
		return veriland.Invalid("/callbackUrl", "callbackUrl is longer than %d bytes", MaxCallbackURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return veriland.Invalid("/callbackUrl", "callbackUrl must be an absolute URL with a host")
	}
	if u.User != nil {
		return veriland.Invalid("/callbackUrl", "callbackUrl must not carry credentials")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && env == veriland.Sandbox:
	default:
		return veriland.Invalid("/callbackUrl", "callbackUrl must use https")
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// Create stores a new PENDING verification request of verifier, who must carry the
// verifier or admin role and a sub (POST /verify/request). The request's Verifier is
// verifier.Subject and its Account verifier.Account; its nonce and id are fresh
// randomness, its deadline now + expiresInSeconds (whole seconds). OnEvent sees
// EventCreated in the same transaction.
//
// Errors: validation_failed (veriland.Errors when several members are invalid, each
// with its pointer), forbidden (wrong role, no sub, or a principal of the other
// environment), and storage errors.
func (s *Service) Create(ctx context.Context, env veriland.Environment, verifier veriland.Principal, req CreateRequest) (*Request, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if verifier.Subject == "" || (verifier.Role != veriland.RoleVerifier && verifier.Role != veriland.RoleAdmin) ||
		(verifier.Env != "" && verifier.Env != env) {
		return nil, veriland.Errorf(veriland.CodeForbidden, "creating a verification request needs a verifier token of this environment")
	}
	c, err := s.validate(env, req)
	if err != nil {
		return nil, err
	}
	r := &Request{
		Env:             env,
		Account:         verifier.Account,
		Verifier:        verifier.Subject,
		VerifierName:    c.VerifierName,
		SubjectRef:      c.SubjectRef,
		Scope:           slices.Clone(c.Scope),
		Mode:            c.Mode,
		Reason:          c.Reason,
		CallbackURL:     c.CallbackURL,
		RequireLiveness: c.RequireLiveness,
		MinLevel:        c.MinLevel,
		MaxAgeDays:      *c.MaxAgeDays,
		Status:          StatusPending,
	}
	if r.ID, err = ids.New(s.rand(), IDPrefix); err != nil {
		return nil, fmt.Errorf("consent: %w", err)
	}
	if _, err := io.ReadFull(s.rand(), r.Nonce[:]); err != nil {
		return nil, fmt.Errorf("consent: reading randomness for a nonce: %w", err)
	}
	r.CreatedAt = s.now().Truncate(time.Second)
	r.ExpiresAt = r.CreatedAt.Add(time.Duration(*c.ExpiresInSeconds) * time.Second)

	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		rp := repo(tx, env)
		if err := rp.put(r); err != nil {
			return err
		}
		return s.emit(ctx, tx, Event{Env: env, Type: EventCreated, Request: r, Actor: r.Verifier, At: r.CreatedAt})
	})
	if err != nil {
		return nil, err
	}
	s.logger().InfoContext(ctx, "verification request created", "env", env, "requestId", r.ID, "mode", r.Mode)
	return r.Clone(), nil
}
