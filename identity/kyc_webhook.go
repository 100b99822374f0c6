package identity

import (
	"bytes"
	"encoding/json"

	"github.com/veriland/veriland"
)

// KYCCompletedEvent is the type of the inbound webhook event that finishes a
// PENDING_KYC identity (SPEC S8, provider "kyc").
const KYCCompletedEvent = "kyc.completed"

// KYCCompletion is the data of a kyc.completed event, as an HTTPKYC provider sends it
// after answering PENDING:
//
//	{"env": "SANDBOX", "did": "did:veriland:…", "providerRef": "…",
//	 "outcome": "APPROVED", "claims": {"is_adult": true}}
//
// At least one of did and providerRef is required; did wins when both are given.
type KYCCompletion struct {
	Env         veriland.Environment `json:"env"`
	DID         string               `json:"did,omitempty"`
	ProviderRef string               `json:"providerRef,omitempty"`
	Outcome     Outcome              `json:"outcome"`
	Claims      map[string]any       `json:"claims,omitempty"`
}

// ParseKYCCompletion decodes and checks the data of a kyc.completed event. Errors are
// validation_failed with pointers into data. Unknown members are refused.
func ParseKYCCompletion(data []byte) (KYCCompletion, error) {
	var c KYCCompletion
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return KYCCompletion{}, veriland.Errorf(veriland.CodeValidationFailed, "kyc.completed data is not the expected JSON object").WithCause(err)
	}
	var errs veriland.Errors
	if !c.Env.Valid() {
		errs = append(errs, veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION"))
	}
	if c.DID == "" && c.ProviderRef == "" {
		errs = append(errs, veriland.Invalid("/did", "did or providerRef is required"))
	}
	if c.DID != "" && !ValidDID(c.DID) {
		errs = append(errs, veriland.Invalid("/did", "did is not an identity DID"))
	}
	if err := checkResult(c.Result(), true); err != nil {
		errs = append(errs, err.(*veriland.Error))
	}
	return c, errs.Err()
}

// Ref returns what CompleteKYC should look the identity up by: the DID, else the
// provider reference.
func (c KYCCompletion) Ref() string {
	if c.DID != "" {
		return c.DID
	}
	return c.ProviderRef
}

// Result returns the provider's result carried by the event.
func (c KYCCompletion) Result() KYCResult {
	return KYCResult{Outcome: c.Outcome, Claims: c.Claims, ProviderRef: c.ProviderRef}
}
