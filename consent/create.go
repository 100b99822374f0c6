package consent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Limits and defaults of a verification request (SPEC S5, seed 001 §2 and §8).
const (
	DefaultExpiresIn  = 3600          // expiresInSeconds when absent
	MinExpiresIn      = 60            // smallest expiresInSeconds
	MaxExpiresIn      = 604800        // largest expiresInSeconds (7 days)
	DefaultMaxAgeDays = 30            // requireLiveness.maxAgeDays when absent
	MinMaxAgeDays     = 1             // smallest requireLiveness.maxAgeDays
	MaxMaxAgeDays     = 365           // largest maxAgeDays: liveness attestations live 365 days (SPEC S4)
	DefaultMode       = ModeProofOnly // mode when absent
	MaxScopeItems     = 32            // most items in scope and disclosedScope
	MaxScopeItemLen   = 64            // longest scope item, in bytes
	MaxReasonLen      = 500           // longest reason, in characters
	MaxVerifierName   = 100           // longest verifier display name kept, in characters
	MaxCallbackURLLen = 2048          // longest callbackUrl DefaultValidateCallback accepts, in bytes
)

// CreateRequest is the body of POST /verify/request (seed 001 §2, plus
// expiresInSeconds). Optional members are nil or "".
type CreateRequest struct {
	// SubjectRef is the holder asked: an identity DID issued in the environment, or a
	// did:pkh on Service.ChainID.
	SubjectRef string `json:"subjectRef"`
	// Scope is 1..MaxScopeItems distinct items of the vocabulary (see Vocabulary).
	Scope []string `json:"scope"`
	// Reason is shown to the holder.
	Reason string `json:"reason"`
	// Mode is PROOF_ONLY (default) or SELECTIVE.
	Mode Mode `json:"mode,omitempty"`
	// CallbackURL, when set, receives the request's webhooks.
	CallbackURL string `json:"callbackUrl,omitempty"`
	// RequireLiveness, when set, makes an approval need a recent liveness proof.
	RequireLiveness *LivenessInput `json:"requireLiveness,omitempty"`
	// ExpiresInSeconds is the request's lifetime, 60..604800 (default 3600).
	ExpiresInSeconds *int `json:"expiresInSeconds,omitempty"`
	// VerifierName is the verifier's display name, shown to the holder. It is never
	// decoded from a body (a request cannot choose its name): the caller of Create
	// sets it from a trusted source — the reference server, from the name of the
	// verifier's API key. Empty: the verifier's sub is shown.
	VerifierName string `json:"-"`
}

// LivenessInput is the requireLiveness member of a CreateRequest.
type LivenessInput struct {
	// MinLevel is L1, L2 or L3; required.
	MinLevel string `json:"minLevel"`
	// MaxAgeDays bounds the liveness attestation's age: a number of days 1..365
	// (fractions allowed), default 30.
	MaxAgeDays *float64 `json:"maxAgeDays,omitempty"`
}

// validate checks every member of c and returns the request's normalised form:
// defaults applied, a did:pkh subject in lower case. Every offending member gets its
// own error with its JSON pointer.
func (s *Service) validate(env veriland.Environment, c CreateRequest) (CreateRequest, *LivenessRequirement, error) {
	var errs veriland.Errors
	add := func(e *veriland.Error) { errs = append(errs, e) }

	subject, err := s.parseSubject(c.SubjectRef)
	if err != nil {
		add(err)
	}
	c.SubjectRef = subject

	if c.Mode == "" {
		c.Mode = DefaultMode
	}
	if !c.Mode.Valid() {
		add(veriland.Invalid("/mode", "mode must be PROOF_ONLY or SELECTIVE"))
	}
	errs = append(errs, s.validateScope(c.Scope)...)

	if n := utf8.RuneCountInString(c.Reason); n == 0 || n > MaxReasonLen || !printable(c.Reason, true) {
		add(veriland.Invalid("/reason", "reason must be 1..%d printable characters", MaxReasonLen))
	}
	if n := utf8.RuneCountInString(c.VerifierName); n > MaxVerifierName || !printable(c.VerifierName, false) {
		c.VerifierName = "" // not the client's doing: fall back to the sub
	}
	if c.CallbackURL != "" {
		if e := s.validateCallback(env, c.CallbackURL); e != nil {
			add(e)
		}
	}

	var live *LivenessRequirement
	if in := c.RequireLiveness; in != nil {
		live = &LivenessRequirement{MinLevel: in.MinLevel, MaxAgeDays: DefaultMaxAgeDays}
		if LevelRank(in.MinLevel) == 0 {
			add(veriland.Invalid("/requireLiveness/minLevel", "requireLiveness.minLevel is required: L1, L2 or L3"))
		}
		if in.MaxAgeDays != nil {
			live.MaxAgeDays = *in.MaxAgeDays
		}
		if d := live.MaxAgeDays; !(d >= MinMaxAgeDays && d <= MaxMaxAgeDays) { // NaN fails too
			add(veriland.Invalid("/requireLiveness/maxAgeDays", "requireLiveness.maxAgeDays must be a number of days from %d to %d", MinMaxAgeDays, MaxMaxAgeDays))
		}
		if s.Liveness == nil {
			add(veriland.Invalid("/requireLiveness", "this service cannot check liveness"))
		}
	}
	if c.ExpiresInSeconds == nil {
		c.ExpiresInSeconds = ptr(DefaultExpiresIn)
	}
	if e := *c.ExpiresInSeconds; e < MinExpiresIn || e > MaxExpiresIn {
		add(veriland.Invalid("/expiresInSeconds", "expiresInSeconds must be %d..%d", MinExpiresIn, MaxExpiresIn))
	}
	return c, live, errs.Err()
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
// vocabulary (Vocabulary(Service.ClaimNames)). The same scope serves both modes.
func (s *Service) validateScope(scope []string) veriland.Errors {
	if len(scope) == 0 || len(scope) > MaxScopeItems {
		return veriland.Errors{veriland.Invalid("/scope", "scope must have 1..%d items", MaxScopeItems)}
	}
	var errs veriland.Errors
	vocabulary := s.vocabulary()
	for i, it := range scope {
		p := "/scope/" + strconv.Itoa(i)
		switch {
		case !slices.Contains(vocabulary, it):
			errs = append(errs, veriland.Invalid(p, "%q is not a scope item; the scope items are %s", truncate(it, MaxScopeItemLen), strings.Join(vocabulary, ", ")).
				WithMeta("vocabulary", slices.Clone(vocabulary)))
		case slices.Index(scope, it) < i:
			errs = append(errs, veriland.Invalid(p, "scope item %q is repeated", it))
		}
	}
	return errs
}

// truncate shortens t to at most n bytes of valid UTF-8, for quoting client input in
// messages.
func truncate(t string, n int) string {
	if len(t) <= n {
		return t
	}
	t = t[:n]
	for len(t) > 0 && !utf8.ValidString(t) {
		t = t[:len(t)-1]
	}
	return t + "…"
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
// verifier.Subject, its Account verifier.Account and its VerifierName req.VerifierName;
// its nonce and id are fresh randomness, its deadline now + expiresInSeconds (whole
// seconds). A did:veriland subject must be an identity of env (looked up with
// Service.Identities, else Service.Wallets): otherwise unknown_subject at /subjectRef.
// OnEvent sees EventCreated in the same transaction.
//
// Errors: validation_failed (veriland.Errors when several members are invalid, each
// with its pointer), forbidden (wrong role, no sub, or a principal of the other
// environment), unknown_subject, and storage errors.
func (s *Service) Create(ctx context.Context, env veriland.Environment, verifier veriland.Principal, req CreateRequest) (*Request, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if verifier.Subject == "" || (verifier.Role != veriland.RoleVerifier && verifier.Role != veriland.RoleAdmin) ||
		(verifier.Env != "" && verifier.Env != env) {
		return nil, veriland.Errorf(veriland.CodeForbidden, "creating a verification request needs a verifier token of this environment")
	}
	c, live, err := s.validate(env, req)
	if err != nil {
		return nil, err
	}
	if err := s.checkSubject(ctx, env, c.SubjectRef); err != nil {
		return nil, err
	}
	r := &Request{
		Env:          env,
		Account:      verifier.Account,
		Verifier:     verifier.Subject,
		VerifierName: c.VerifierName,
		SubjectRef:   c.SubjectRef,
		Scope:        slices.Clone(c.Scope),
		Mode:         c.Mode,
		Reason:       c.Reason,
		CallbackURL:  c.CallbackURL,
		Status:       StatusPending,
	}
	if live != nil {
		r.RequireLiveness, r.MinLevel, r.MaxAgeDays = true, live.MinLevel, live.MaxAgeDays
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

// UnknownSubject returns the unknown_subject error of a subjectRef that names no
// identity of the environment.
func UnknownSubject(subject string) *veriland.Error {
	e := veriland.Errorf(veriland.CodeUnknownSubject, "subjectRef %s is not an identity of this environment", subject)
	e.Pointer = "/subjectRef"
	return e
}

// checkSubject checks that a did:veriland subject is an identity of env (any status:
// a pending one may still become ACTIVE). A did:pkh subject needs no identity.
func (s *Service) checkSubject(ctx context.Context, env veriland.Environment, subject string) error {
	if !identity.ValidDID(subject) {
		return nil
	}
	var err error
	if g := s.identities(); g != nil {
		_, err = g.Get(ctx, env, subject)
	} else if _, err = s.Wallets.WalletOf(ctx, env, subject); err != nil && !veriland.IsCode(err, veriland.CodeNotFound) {
		var e *veriland.Error
		if errors.As(err, &e) {
			return nil // it exists, but may not consent now: Decide says so
		}
	}
	switch {
	case veriland.IsCode(err, veriland.CodeNotFound):
		return UnknownSubject(subject)
	case err != nil:
		return fmt.Errorf("consent: looking up the subject: %w", err)
	}
	return nil
}
