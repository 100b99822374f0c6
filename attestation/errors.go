package attestation

import (
	"errors"
	"fmt"

	"github.com/veriland/veriland"
)

// Reasons Verify and VerifyRevocationList refuse. Each is the Cause of the
// *veriland.Error they return, so errors.Is(err, ErrExpired) works.
var (
	// ErrMalformed: a required member is missing or invalid (no id, unknown kind,
	// claims that are not JSON, no trusted issuer configured).
	ErrMalformed = errors.New("attestation: malformed")
	// ErrBadSignature: the signature is not 65 low-s bytes, or does not recover to
	// issuer.address over the attestation's fields (a field was changed).
	ErrBadSignature = errors.New("attestation: bad signature")
	// ErrUntrustedIssuer: the signature is good but its key is not a trusted issuer.
	ErrUntrustedIssuer = errors.New("attestation: untrusted issuer")
	// ErrWrongChain: issuer.chainId is not the chain the verifier expects.
	ErrWrongChain = errors.New("attestation: wrong chain id")
	// ErrClaimsMismatch: the claims do not hash to the claimsHash of typedData.
	ErrClaimsMismatch = errors.New("attestation: claims do not match claimsHash")
	// ErrTypedDataMismatch: typedData differs from the message rebuilt from the fields.
	ErrTypedDataMismatch = errors.New("attestation: typedData does not match the fields")
	// ErrNotYetValid: issuedAt is after the verification time.
	ErrNotYetValid = errors.New("attestation: not yet valid")
	// ErrExpired: expiresAt is at or before the verification time.
	ErrExpired = errors.New("attestation: expired")
	// ErrRevoked: the attestation says it is revoked, or the revocation list lists it.
	ErrRevoked = errors.New("attestation: revoked")
	// ErrBadRevocationList: the revocation list is malformed, not signed by its
	// issuer, or its issuer is not trusted.
	ErrBadRevocationList = errors.New("attestation: bad revocation list")
)

func fail(code veriland.Code, cause error, format string, args ...any) *veriland.Error {
	return &veriland.Error{Code: code, Message: fmt.Sprintf(format, args...), Cause: cause}
}

// failWrap is fail with a second cause (an ethsig reason, a JSON error) kept for errors.Is.
func failWrap(code veriland.Code, cause, inner error, format string, args ...any) *veriland.Error {
	return &veriland.Error{Code: code, Message: fmt.Sprintf(format, args...), Cause: fmt.Errorf("%w: %w", cause, inner)}
}
