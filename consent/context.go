package consent

import (
	"context"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
)

// VerifierRef names the verifier in the consent view.
type VerifierRef struct {
	ID   string `json:"id"`   // the verifier token's sub, the "verifier" of the signed consent
	Name string `json:"name"` // its display name: its API key's name, else its sub
}

// DecisionPreset is a ready way to fill the two members the holder chooses: the
// decision and the disclosedScopeHash of the disclosedScope it will post. It spares a
// page without a keccak256 implementation from hashing the common choices.
type DecisionPreset struct {
	Decision           string      `json:"decision"`
	DisclosedScope     []string    `json:"disclosedScope"`
	DisclosedScopeHash common.Hash `json:"disclosedScopeHash"`
}

// View is what the holder is shown (GET /consent/{requestId}, public).
//
// TypedData is a ready eth_signTypedData_v4 object — domain fixed by configuration,
// types, primaryType "Consent" — whose message has every member filled except
// "decision" and "disclosedScopeHash", which are left out: the holder's client adds
// them (decision "APPROVED" or "REJECTED"; disclosedScopeHash the EIP-712 string[] hash
// of the disclosedScope it posts, in the order it posts it) and signs. Presets gives
// both members for the usual choices: approve the whole scope, and reject (empty
// disclosure). RequireLiveness is null when the request has none.
type View struct {
	RequestID       string                `json:"requestId"`
	Status          Status                `json:"status"`
	Verifier        VerifierRef           `json:"verifier"`
	SubjectRef      string                `json:"subjectRef"`
	Scope           []string              `json:"scope"`
	Mode            Mode                  `json:"mode"`
	Reason          string                `json:"reason"`
	RequireLiveness *LivenessRequirement  `json:"requireLiveness"`
	ExpiresAt       time.Time             `json:"expiresAt"`
	TypedData       attestation.TypedData `json:"typedData"`
	Presets         []DecisionPreset      `json:"presets"`
}

// Context returns the consent view of request id (GET /consent/{requestId}, public),
// expiring the request first when it is past its deadline, as Get does. The view is
// returned whatever the status; only a PENDING one can still be decided.
//
// Errors: not_found and storage errors.
func (s *Service) Context(ctx context.Context, env veriland.Environment, id string) (*View, error) {
	r, err := s.Get(ctx, env, id)
	if err != nil {
		return nil, err
	}
	return s.view(r), nil
}

func (s *Service) view(r *Request) *View {
	v := &View{
		RequestID:       r.ID,
		Status:          r.Status,
		Verifier:        VerifierRef{ID: r.Verifier, Name: r.DisplayName()},
		SubjectRef:      r.SubjectRef,
		Scope:           slices.Clone(r.Scope),
		Mode:            r.Mode,
		Reason:          r.Reason,
		RequireLiveness: r.Liveness(),
		ExpiresAt:       r.ExpiresAt,
		TypedData:       attestation.TypedData(ConsentMessage(r, "", nil).TypedData(s.ChainID)),
		Presets: []DecisionPreset{
			{Decision: string(StatusApproved), DisclosedScope: slices.Clone(r.Scope), DisclosedScopeHash: DisclosedScopeHash(r.Scope)},
			{Decision: string(StatusRejected), DisclosedScope: []string{}, DisclosedScopeHash: DisclosedScopeHash(nil)},
		},
	}
	delete(v.TypedData.Message, "decision")
	delete(v.TypedData.Message, "disclosedScopeHash")
	return v
}

// ConsentMessage returns the consent message a holder signs to decide r with decision
// and disclosedScope (in the order it will be posted). Its Digest(chainID) is what
// Decide verifies the signature against; clients and tests use it to sign.
func ConsentMessage(r *Request, decision Status, disclosedScope []string) *ConsentTypedData {
	return &ConsentTypedData{
		RequestID:          r.ID,
		Subject:            r.SubjectRef,
		Verifier:           r.Verifier,
		Decision:           string(decision),
		DisclosedScopeHash: DisclosedScopeHash(disclosedScope),
		Nonce:              r.Nonce,
		Deadline:           r.Deadline(),
	}
}
