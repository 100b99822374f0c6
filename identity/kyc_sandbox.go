package identity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

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

// SandboxKYC is the KYC provider of the sandbox: its answer follows payload.scenario
// and nothing else, so that integrators can reach every outcome. It keeps nothing.
//
// It refuses PRODUCTION requests (as unavailable) unless AllowProduction is set, so
// that a wiring mistake cannot activate live identities by "scenario": "success".
type SandboxKYC struct {
	AllowProduction bool
}

// Check implements KYCProvider. An APPROVED answer carries is_adult = true and
// nationality = the request's country code, unless the payload sets "is_adult" to a
// boolean. An unknown scenario is validation_failed at /payload/scenario.
func (p SandboxKYC) Check(_ context.Context, req KYCRequest) (KYCResult, error) {
	if req.Env != veriland.Sandbox && !p.AllowProduction {
		return KYCResult{}, errors.New("identity: the sandbox KYC provider does not serve " + string(req.Env))
	}
	var payload struct {
		Scenario *string `json:"scenario"`
		IsAdult  *bool   `json:"is_adult"`
	}
	if raw := bytes.TrimSpace(req.Payload); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		// The decoder's messages never quote the payload, but keep them out anyway.
		if err := json.Unmarshal(raw, &payload); err != nil {
			return KYCResult{}, veriland.Invalid("/payload", "payload must be a JSON object whose scenario is a string")
		}
	}
	scenario := ScenarioSuccess
	if payload.Scenario != nil {
		scenario = *payload.Scenario
	}
	switch scenario {
	case ScenarioSuccess:
		adult := true
		if payload.IsAdult != nil {
			adult = *payload.IsAdult
		}
		return KYCResult{Outcome: OutcomeApproved, Claims: map[string]any{
			"is_adult": adult, "nationality": req.CountryCode,
		}}, nil
	case ScenarioFailure:
		return KYCResult{Outcome: OutcomeRejected}, nil
	case ScenarioReview:
		return KYCResult{Outcome: OutcomeReview, Claims: map[string]any{"nationality": req.CountryCode}}, nil
	case ScenarioTimeout:
		return KYCResult{Outcome: OutcomePending, ProviderRef: "sandbox-" + req.DID}, nil
	case ScenarioUnavailable:
		return KYCResult{}, errors.New("identity: sandbox KYC provider unavailable (scenario)")
	}
	return KYCResult{}, veriland.Invalid("/payload/scenario",
		"scenario must be one of success, failure, review, timeout, unavailable")
}
