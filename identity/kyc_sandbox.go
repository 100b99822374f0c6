package identity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/veriland/veriland"
)

// Sandbox scenarios, chosen by the "scenario" member of the payload (SPEC S3, S10).
const (
	ScenarioSuccess     = "success"     // APPROVED with claims (the default)
	ScenarioFailure     = "failure"     // REJECTED
	ScenarioReview      = "review"      // REVIEW: a manual review is opened
	ScenarioTimeout     = "timeout"     // PENDING, never completed
	ScenarioUnavailable = "unavailable" // the provider fails: 503, nothing is kept
)

// SandboxKYCLevel is the kyc_level claim of the sandbox provider's approvals.
const SandboxKYCLevel = "standard"

// sandboxDefaultAge is the age the sandbox provider assumes when the payload gives
// neither dateOfBirth nor is_adult: an adult of every age predicate.
const sandboxDefaultAge = 30

// SandboxKYC is the KYC provider of the sandbox: its answer follows the payload and
// nothing else, so that integrators can reach every outcome. It keeps nothing.
//
// The payload may be any JSON value; only an object is read, for these members
// (all optional; anything else is ignored):
//
//   - "scenario": success (default), failure, review, timeout or unavailable;
//   - "dateOfBirth": "YYYY-MM-DD", from which the age predicates are computed at
//     check time (the date itself is never returned, stored or logged);
//   - "is_adult": a boolean, used when dateOfBirth is absent.
//
// An APPROVED answer (and a REVIEW one, kept for when the review approves) carries
// derived claims: kyc_level "standard"; is_adult, age_over_16, age_over_18 and
// age_over_21 (from dateOfBirth; else from is_adult — false makes is_adult,
// age_over_18 and age_over_21 false and leaves age_over_16 unknown; else an adult of
// 30); and, when the request has a country code, nationality and document_country
// equal to it.
//
// It refuses PRODUCTION requests with *NotConfiguredError (503) unless
// AllowProduction is set, so that a wiring mistake cannot activate live identities
// by "scenario": "success".
type SandboxKYC struct {
	AllowProduction bool
	// Now is the clock the age predicates are computed with (nil: time.Now).
	Now func() time.Time
}

// sandboxPayload is what SandboxKYC reads of an object payload.
type sandboxPayload struct {
	scenario string
	birth    time.Time // zero when not given
	isAdult  *bool
}

// parseSandboxPayload reads the members SandboxKYC understands. A payload that is
// not an object, or absent, is the default: success. Errors name the member with
// its pointer and never quote the payload.
func parseSandboxPayload(raw json.RawMessage, now time.Time) (sandboxPayload, error) {
	out := sandboxPayload{scenario: ScenarioSuccess}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return out, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return out, veriland.Invalid("/payload", "payload must be valid JSON")
	}
	var errs veriland.Errors
	if v, ok := members["scenario"]; ok && !isNull(v) {
		if json.Unmarshal(v, &out.scenario) != nil {
			errs = append(errs, veriland.Invalid("/payload/scenario", "scenario must be a string"))
		}
	}
	if v, ok := members["dateOfBirth"]; ok && !isNull(v) {
		var s string
		var t time.Time
		err := json.Unmarshal(v, &s)
		if err == nil {
			t, err = time.Parse(time.DateOnly, s)
		}
		switch {
		case err != nil:
			errs = append(errs, veriland.Invalid("/payload/dateOfBirth", "dateOfBirth must be a date YYYY-MM-DD"))
		case t.After(now) || t.Year() < 1900:
			errs = append(errs, veriland.Invalid("/payload/dateOfBirth", "dateOfBirth must be a past date from 1900 on"))
		default:
			out.birth = t
		}
	}
	if v, ok := members["is_adult"]; ok && !isNull(v) {
		var b bool
		if json.Unmarshal(v, &b) != nil {
			errs = append(errs, veriland.Invalid("/payload/is_adult", "is_adult must be a boolean"))
		} else {
			out.isAdult = &b
		}
	}
	return out, errs.Err()
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

// claims are the derived claims of an approval.
func (p sandboxPayload) claims(countryCode string, now time.Time) map[string]any {
	var c map[string]any
	switch {
	case !p.birth.IsZero():
		c = AgeClaims(AgeAt(p.birth, now))
	case p.isAdult != nil && !*p.isAdult:
		c = map[string]any{ClaimIsAdult: false, ClaimAgeOver18: false, ClaimAgeOver21: false}
	default:
		c = AgeClaims(sandboxDefaultAge)
	}
	c[ClaimKYCLevel] = SandboxKYCLevel
	if countryCode != "" {
		c[ClaimNationality] = countryCode
		c[ClaimDocumentCountry] = countryCode
	}
	return c
}

// Check implements KYCProvider. An unknown scenario is validation_failed at
// /payload/scenario; a malformed dateOfBirth or is_adult at its own pointer.
func (p SandboxKYC) Check(_ context.Context, req KYCRequest) (KYCResult, error) {
	if req.Env != veriland.Sandbox && !p.AllowProduction {
		return KYCResult{}, &NotConfiguredError{Env: req.Env}
	}
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	payload, err := parseSandboxPayload(req.Payload, now.UTC())
	if err != nil {
		return KYCResult{}, err
	}
	switch payload.scenario {
	case ScenarioSuccess:
		return KYCResult{Outcome: OutcomeApproved, Claims: payload.claims(req.CountryCode, now)}, nil
	case ScenarioFailure:
		return KYCResult{Outcome: OutcomeRejected}, nil
	case ScenarioReview:
		return KYCResult{Outcome: OutcomeReview, Claims: payload.claims(req.CountryCode, now)}, nil
	case ScenarioTimeout:
		return KYCResult{Outcome: OutcomePending, ProviderRef: "sandbox-" + req.DID}, nil
	case ScenarioUnavailable:
		return KYCResult{}, errors.New("identity: sandbox KYC provider unavailable (scenario)")
	}
	return KYCResult{}, veriland.Invalid("/payload/scenario",
		"scenario must be one of success, failure, review, timeout, unavailable")
}
