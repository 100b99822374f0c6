package chipauth

import (
	"fmt"

	"github.com/veriland/veriland"
)

// Step names one step of passive authentication. A failure reports the step it
// failed at, both in *veriland.Error Meta["step"] and as a *StepError in its chain.
type Step string

// The steps of passive authentication, in the order Verify runs them.
const (
	StepSODParse              Step = "sod_parse"               // EF.SOD, CMS SignedData or LDSSecurityObject malformed
	StepUnsupportedAlgorithm  Step = "unsupported_algorithm"   // digest, signature algorithm or curve not accepted
	StepSignerNotFound        Step = "signer_not_found"        // no embedded certificate matches the SignerInfo
	StepSignatureInvalid      Step = "signature_invalid"       // the DS signature over the signed attributes fails
	StepMessageDigestMismatch Step = "message_digest_mismatch" // messageDigest ≠ hash of the LDSSecurityObject
	StepSignedAttributes      Step = "signed_attributes"       // contentType/messageDigest attributes missing or wrong
	StepCSCANotFound          Step = "csca_not_found"          // no trusted CSCA verifies the DS certificate
	StepDSKeyUsage            Step = "ds_key_usage"            // DS lacks digitalSignature, or CSCA lacks keyCertSign
	StepDSExpired             Step = "ds_expired"              // DS not valid at signing time (or now)
	StepDG1Missing            Step = "dg1_missing"             // DG1 not supplied or not listed in the SOD
	StepDataGroupNotInSOD     Step = "dg_not_in_sod"           // a supplied data group has no hash in the SOD
	StepDigestMismatch        Step = "digest_mismatch"         // a supplied data group's hash differs from the SOD
	StepMRZInvalid            Step = "mrz_invalid"             // DG1 MRZ malformed or a check digit fails
	StepTrustStore            Step = "trust_store"             // trust store or master list could not be loaded
	StepMasterListSignature   Step = "master_list_signature"   // a master list's signer does not verify against the roots
)

// StepError is the cause inside every *veriland.Error chipauth returns. Match it
// with errors.Is against the Err* sentinels; for digest_mismatch a sentinel with a
// DG number matches that data group only.
type StepError struct {
	Step   Step   // the step that failed
	DG     int    // data group number for dg_not_in_sod and digest_mismatch, else 0
	Detail string // client-safe description; never holds personal data
	Err    error  // underlying error, for logs
}

// Name is the step as reported in Meta["step"], e.g. "digest_mismatch:DG2".
func (e *StepError) Name() string {
	if e.DG > 0 {
		return fmt.Sprintf("%s:DG%d", e.Step, e.DG)
	}
	return string(e.Step)
}

// Error implements error.
func (e *StepError) Error() string {
	s := "chipauth: " + e.Name()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// Is matches a *StepError of the same step (and DG, when the target names one).
func (e *StepError) Is(target error) bool {
	t, ok := target.(*StepError)
	return ok && t.Step == e.Step && (t.DG == 0 || t.DG == e.DG)
}

// Sentinels for errors.Is, one per step.
var (
	ErrSODParse              = &StepError{Step: StepSODParse}
	ErrUnsupportedAlgorithm  = &StepError{Step: StepUnsupportedAlgorithm}
	ErrSignerNotFound        = &StepError{Step: StepSignerNotFound}
	ErrSignatureInvalid      = &StepError{Step: StepSignatureInvalid}
	ErrMessageDigestMismatch = &StepError{Step: StepMessageDigestMismatch}
	ErrSignedAttributes      = &StepError{Step: StepSignedAttributes}
	ErrCSCANotFound          = &StepError{Step: StepCSCANotFound}
	ErrDSKeyUsage            = &StepError{Step: StepDSKeyUsage}
	ErrDSExpired             = &StepError{Step: StepDSExpired}
	ErrDG1Missing            = &StepError{Step: StepDG1Missing}
	ErrDataGroupNotInSOD     = &StepError{Step: StepDataGroupNotInSOD}
	ErrDigestMismatch        = &StepError{Step: StepDigestMismatch}
	ErrMRZInvalid            = &StepError{Step: StepMRZInvalid}
	ErrTrustStore            = &StepError{Step: StepTrustStore}
	ErrMasterListSignature   = &StepError{Step: StepMasterListSignature}
)

// DigestMismatch returns a sentinel matching a digest mismatch of data group dg only.
func DigestMismatch(dg int) error { return &StepError{Step: StepDigestMismatch, DG: dg} }

// fail builds the *veriland.Error for a failed step.
func fail(step Step, dg int, cause error, format string, args ...any) *veriland.Error {
	se := &StepError{Step: step, DG: dg, Detail: fmt.Sprintf(format, args...), Err: cause}
	return &veriland.Error{
		Code:    veriland.CodePassiveAuthFailed,
		Message: "passive authentication failed at " + se.Name() + ": " + se.Detail,
		Meta:    map[string]any{"step": se.Name()},
		Cause:   se,
	}
}

// configError builds the error for a trust-store input that cannot be used. It is
// an embedder's configuration problem, not a document's, hence validation_failed.
func configError(step Step, cause error, format string, args ...any) *veriland.Error {
	se := &StepError{Step: step, Detail: fmt.Sprintf(format, args...), Err: cause}
	return &veriland.Error{
		Code:    veriland.CodeValidationFailed,
		Message: se.Name() + ": " + se.Detail,
		Meta:    map[string]any{"step": se.Name()},
		Cause:   se,
	}
}
