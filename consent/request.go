package consent

import (
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
)

// IDPrefix is the prefix of verification request ids: "vrq_" + 26 random base32
// characters (SPEC S5).
const IDPrefix = "vrq"

// Status is the lifecycle state of a verification request. A request is created
// PENDING and leaves that state exactly once.
type Status string

// The request states.
const (
	StatusPending   Status = "PENDING"   // waiting for the holder's decision
	StatusApproved  Status = "APPROVED"  // the holder approved; a CONSENT attestation was issued
	StatusRejected  Status = "REJECTED"  // the holder refused
	StatusExpired   Status = "EXPIRED"   // expiresAt passed while PENDING
	StatusCancelled Status = "CANCELLED" // the creating verifier withdrew it
)

// Final reports whether s is a state a request never leaves.
func (s Status) Final() bool { return s != StatusPending }

// Mode says what an approval discloses (SPEC S5 "Disclosure modes").
type Mode string

// The request modes.
const (
	// ModeProofOnly (the default): an approval states, for every scope item, only that
	// it holds — true for a boolean fact, "verified" for a value — and never a value.
	// The holder's disclosedScope is either empty or the whole scope.
	ModeProofOnly Mode = "PROOF_ONLY"
	// ModeSelective: the holder picks a non-empty subset of the scope, and the
	// attestation carries the values of exactly those items.
	ModeSelective Mode = "SELECTIVE"
)

// Valid reports whether m is PROOF_ONLY or SELECTIVE.
func (m Mode) Valid() bool { return m == ModeProofOnly || m == ModeSelective }

// Liveness levels a request may require (SPEC S4), weakest first.
const (
	LevelL1 = "L1" // one step (HOLD_STILL)
	LevelL2 = "L2" // three steps; the default minLevel
	LevelL3 = "L3" // five steps on a STRONG (hardware-attested) device
)

// LevelRank returns 1, 2 or 3 for L1, L2 or L3 and 0 for anything else, so that levels
// compare as numbers.
func LevelRank(level string) int {
	switch level {
	case LevelL1:
		return 1
	case LevelL2:
		return 2
	case LevelL3:
		return 3
	}
	return 0
}

// LivenessRequirement is a request's requireLiveness: an approval needs a VALID
// LIVENESS attestation of the subject of level MinLevel or higher, issued at most
// MaxAgeDays days before the decision.
type LivenessRequirement struct {
	MinLevel   string  `json:"minLevel"`   // L1, L2 or L3
	MaxAgeDays float64 `json:"maxAgeDays"` // 1..365; fractions of a day are allowed
}

// MaxAge returns MaxAgeDays as a duration.
func (l LivenessRequirement) MaxAge() time.Duration {
	return time.Duration(l.MaxAgeDays * float64(24*time.Hour))
}

// Request is the stored verification request (SPEC S5). It holds identifiers, the
// verifier's question and the outcome; never personal data. SubjectRef is a DID (an
// identifier the holder already shares with the verifier), not a name or document
// number.
type Request struct {
	ID      string               `json:"requestId"`
	Env     veriland.Environment `json:"env"`
	Account string               `json:"account,omitempty"` // the verifier token's acct
	// Verifier is the verifier token's sub; it is the "verifier" of the signed consent.
	Verifier string `json:"verifier"`
	// VerifierName is the display name shown to the holder: the name of the verifier's
	// API key, set by the caller of Create from a trusted source, never by the body.
	VerifierName string `json:"verifierName,omitempty"`
	// SubjectRef is the holder asked: an identity DID (did:veriland:…) or a wallet
	// account DID (did:pkh:eip155:<chainId>:<lower-case address>) on the configured chain.
	SubjectRef  string   `json:"subjectRef"`
	Scope       []string `json:"scope"`
	Mode        Mode     `json:"mode"`
	Reason      string   `json:"reason"`
	CallbackURL string   `json:"callbackUrl,omitempty"`
	// RequireLiveness, MinLevel and MaxAgeDays store the request's requireLiveness
	// (see Liveness); MinLevel and MaxAgeDays are meaningful only with RequireLiveness.
	RequireLiveness bool    `json:"requireLiveness"`
	MinLevel        string  `json:"minLevel"`
	MaxAgeDays      float64 `json:"maxAgeDays"`
	Status          Status  `json:"status"`
	// Nonce is 32 random bytes made at creation; the signed consent carries it.
	Nonce     common.Hash `json:"nonce"`
	CreatedAt time.Time   `json:"createdAt"`
	// ExpiresAt is the deadline of the signed consent (in unix seconds there). The
	// request is open while the time is before it, and EXPIRED from it on.
	ExpiresAt time.Time  `json:"expiresAt"`
	DecidedAt *time.Time `json:"decidedAt,omitempty"` // when it left PENDING, for any reason
	// AttestationID is the CONSENT attestation issued on approval.
	AttestationID string `json:"attestationId,omitempty"`
	// DisclosedScope is what an approval answers: the whole Scope in PROOF_ONLY mode
	// (as proofs, without values), the holder's pick in SELECTIVE mode (with values).
	// Empty unless APPROVED.
	DisclosedScope []string `json:"disclosedScope,omitempty"`
}

// Liveness returns the request's requireLiveness, or nil when it has none.
func (r *Request) Liveness() *LivenessRequirement {
	if !r.RequireLiveness {
		return nil
	}
	return &LivenessRequirement{MinLevel: r.MinLevel, MaxAgeDays: r.MaxAgeDays}
}

// DisplayName returns the verifier's display name: VerifierName, or the verifier's
// sub when the request has none (a token with no API key record).
func (r *Request) DisplayName() string {
	if r.VerifierName != "" {
		return r.VerifierName
	}
	return r.Verifier
}

// Open reports whether r still awaits a decision at now: PENDING and before ExpiresAt.
func (r *Request) Open(now time.Time) bool {
	return r.Status == StatusPending && now.Before(r.ExpiresAt)
}

// due reports whether r is PENDING but past its deadline at now: it must become
// EXPIRED.
func (r *Request) due(now time.Time) bool {
	return r.Status == StatusPending && !now.Before(r.ExpiresAt)
}

// Deadline returns ExpiresAt in unix seconds, the deadline member of the consent.
func (r *Request) Deadline() uint64 {
	if s := r.ExpiresAt.Unix(); s > 0 {
		return uint64(s)
	}
	return 0
}

// Clone returns a deep copy of r.
func (r *Request) Clone() *Request {
	c := *r
	c.Scope = slices.Clone(r.Scope)
	c.DisclosedScope = slices.Clone(r.DisclosedScope)
	if r.DecidedAt != nil {
		t := *r.DecidedAt
		c.DecidedAt = &t
	}
	return &c
}

// Summary is the public view of a request (GET /verify/request/{id}): no account, no
// callback URL, no nonce. RequireLiveness is null when the request has none.
type Summary struct {
	RequestID       string               `json:"requestId"`
	Status          Status               `json:"status"`
	SubjectRef      string               `json:"subjectRef"`
	Verifier        string               `json:"verifier"`
	Scope           []string             `json:"scope"`
	Mode            Mode                 `json:"mode"`
	Reason          string               `json:"reason"`
	RequireLiveness *LivenessRequirement `json:"requireLiveness"`
	CreatedAt       time.Time            `json:"createdAt"`
	ExpiresAt       time.Time            `json:"expiresAt"`
	DecidedAt       *time.Time           `json:"decidedAt,omitempty"`
	AttestationID   string               `json:"attestationId,omitempty"`
}

// Summary returns the public view of r.
func (r *Request) Summary() *Summary {
	c := r.Clone()
	return &Summary{
		RequestID:       c.ID,
		Status:          c.Status,
		SubjectRef:      c.SubjectRef,
		Verifier:        c.Verifier,
		Scope:           c.Scope,
		Mode:            c.Mode,
		Reason:          c.Reason,
		RequireLiveness: c.Liveness(),
		CreatedAt:       c.CreatedAt,
		ExpiresAt:       c.ExpiresAt,
		DecidedAt:       c.DecidedAt,
		AttestationID:   c.AttestationID,
	}
}

// invalidState is the 409 of an operation that needs a PENDING request, with the
// current status in Meta["status"].
func invalidState(r *Request, action string) *veriland.Error {
	return veriland.Errorf(veriland.CodeInvalidState, "cannot %s request %s: it is %s, not PENDING", action, r.ID, r.Status).
		WithMeta("status", string(r.Status))
}
