package deviceattest

import (
	"errors"
	"fmt"

	"github.com/veriland/veriland"
)

// Codes returned to callers. A token that cannot be parsed is the client's mistake
// (validation_failed, 400); a token that parses but fails a check is a rejected
// attestation (invalid_signature, 422); a type that is known but not usable here is
// attestation_unsupported; a decode endpoint that cannot be reached is unavailable.
const (
	codeMalformed   = veriland.CodeValidationFailed
	codeRejected    = veriland.CodeInvalidSignature
	codeUnsupported = veriland.CodeAttestationUnsupported
	codeUnavailable = veriland.CodeUnavailable
)

// reasonError is a named failure. Every sentinel below is one; the *veriland.Error a
// verifier returns wraps it in Cause (so errors.Is works) and copies its reason into
// Meta["reason"].
type reasonError struct {
	reason string
	code   veriland.Code
	text   string
}

// Error implements error.
func (e *reasonError) Error() string { return "deviceattest: " + e.text }

// Reason returns the machine-readable reason string that appears in Meta["reason"], or
// "" if err wraps none of this package's sentinels.
func Reason(err error) string {
	var r *reasonError
	if errors.As(err, &r) {
		return r.reason
	}
	return ""
}

func sentinel(code veriland.Code, reason, text string) error {
	return &reasonError{reason: reason, code: code, text: text}
}

// Token shape and dispatch errors.
var (
	// ErrMalformedToken: the token is not in the format its type requires.
	ErrMalformedToken = sentinel(codeMalformed, "malformed_token", "malformed attestation token")
	// ErrUnknownType: the attestation type is not one of the four known types.
	ErrUnknownType = sentinel(codeMalformed, "unknown_attestation_type", "unknown attestation type")
	// ErrTypeNotConfigured: the type is known but no verifier is configured for it.
	ErrTypeNotConfigured = sentinel(codeUnsupported, "attestation_type_not_configured", "attestation type not configured")
	// ErrMockNotAllowed: a MOCK attestation outside SANDBOX.
	ErrMockNotAllowed = sentinel(codeUnsupported, "mock_not_allowed", "MOCK attestation is accepted only in SANDBOX")
	// ErrChallengeMismatch: the attestation was made for another challenge.
	ErrChallengeMismatch = sentinel(codeRejected, "challenge_mismatch", "attestation challenge does not match")
)

// Certificate chain errors (KEY_ATTESTATION and APP_ATTEST).
var (
	// ErrMalformedCertificate: a certificate is not valid DER X.509.
	ErrMalformedCertificate = sentinel(codeMalformed, "malformed_certificate", "malformed certificate")
	// ErrChainSignature: a certificate's signature does not verify under the next one.
	ErrChainSignature = sentinel(codeRejected, "chain_signature_invalid", "certificate chain signature does not verify")
	// ErrUntrustedRoot: the chain does not end in a pinned root.
	ErrUntrustedRoot = sentinel(codeRejected, "untrusted_root", "certificate chain does not end in a trusted root")
	// ErrCertificateValidity: a certificate is expired or not yet valid.
	ErrCertificateValidity = sentinel(codeRejected, "certificate_not_valid_now", "certificate expired or not yet valid")
	// ErrCertificateRevoked: a certificate's serial is on the revocation status list.
	ErrCertificateRevoked = sentinel(codeRejected, "certificate_revoked", "certificate revoked")
)

// Android key attestation errors.
var (
	// ErrMissingKeyDescription: the leaf lacks the key description extension.
	ErrMissingKeyDescription = sentinel(codeMalformed, "missing_key_description", "leaf certificate has no key description extension")
	// ErrMalformedKeyDescription: the key description extension is not valid DER.
	ErrMalformedKeyDescription = sentinel(codeMalformed, "malformed_key_description", "malformed key description extension")
	// ErrSoftwareAttestation: the attestation security level is not TEE or StrongBox.
	ErrSoftwareAttestation = sentinel(codeRejected, "software_attestation", "attestation is not hardware-backed")
	// ErrMissingRootOfTrust: no hardware-enforced root of trust.
	ErrMissingRootOfTrust = sentinel(codeRejected, "missing_root_of_trust", "no hardware-enforced root of trust")
	// ErrBootNotVerified: verified boot state is not Verified.
	ErrBootNotVerified = sentinel(codeRejected, "boot_not_verified", "verified boot state is not Verified")
	// ErrDeviceUnlocked: the bootloader is unlocked.
	ErrDeviceUnlocked = sentinel(codeRejected, "device_unlocked", "device bootloader is unlocked")
)

// Apple App Attest errors.
var (
	// ErrWrongFormat: the attestation object's fmt is not "apple-appattest".
	ErrWrongFormat = sentinel(codeRejected, "wrong_attestation_format", "attestation format is not apple-appattest")
	// ErrNonceMismatch: the credential certificate's nonce is not SHA-256(authData ‖ clientDataHash).
	ErrNonceMismatch = sentinel(codeRejected, "nonce_mismatch", "attestation nonce does not match")
	// ErrKeyIDMismatch: keyId is not SHA-256 of the credential public key.
	ErrKeyIDMismatch = sentinel(codeRejected, "key_id_mismatch", "key id does not match the credential public key")
	// ErrAppIDMismatch: the RP ID hash is not SHA-256 of the configured app id.
	ErrAppIDMismatch = sentinel(codeRejected, "app_id_mismatch", "attestation was made for another app")
	// ErrCounterNotZero: the sign counter of a fresh attestation is not 0.
	ErrCounterNotZero = sentinel(codeRejected, "counter_not_zero", "sign counter is not zero")
	// ErrAAGUIDMismatch: the AAGUID is not the configured App Attest environment.
	ErrAAGUIDMismatch = sentinel(codeRejected, "aaguid_mismatch", "AAGUID does not match the App Attest environment")
	// ErrCredentialIDMismatch: the credential id is not keyId.
	ErrCredentialIDMismatch = sentinel(codeRejected, "credential_id_mismatch", "credential id does not match key id")
)

// Play Integrity errors.
var (
	// ErrDecryption: the JWE does not decrypt under the configured key.
	ErrDecryption = sentinel(codeRejected, "decryption_failed", "integrity token does not decrypt")
	// ErrTokenSignature: the inner JWS does not verify under the configured key.
	ErrTokenSignature = sentinel(codeRejected, "token_signature_invalid", "integrity token signature does not verify")
	// ErrPackageMismatch: the verdict is for another package.
	ErrPackageMismatch = sentinel(codeRejected, "package_mismatch", "integrity verdict is for another package")
	// ErrAppNotRecognized: appRecognitionVerdict is not PLAY_RECOGNIZED.
	ErrAppNotRecognized = sentinel(codeRejected, "app_not_recognized", "app is not recognized by Google Play")
	// ErrDeviceIntegrity: the device does not meet device integrity.
	ErrDeviceIntegrity = sentinel(codeRejected, "device_integrity_not_met", "device does not meet device integrity")
	// ErrTokenStale: the verdict is older than the allowed age.
	ErrTokenStale = sentinel(codeRejected, "token_stale", "integrity verdict is too old")
	// ErrTokenFromFuture: the verdict is timestamped in the future.
	ErrTokenFromFuture = sentinel(codeRejected, "token_from_future", "integrity verdict is timestamped in the future")
	// ErrTestingResponse: the verdict is a testing response and the verifier refuses them.
	ErrTestingResponse = sentinel(codeRejected, "testing_response", "integrity verdict is a testing response")
	// ErrDecoderUnavailable: the configured decode endpoint failed.
	ErrDecoderUnavailable = sentinel(codeUnavailable, "decoder_unavailable", "integrity decode endpoint unavailable")
)

// wrap turns an error from this package's internals into the *veriland.Error returned
// to callers: the code, message and reason of the first sentinel in err's chain, with
// err itself as Cause. Errors that carry no sentinel (a cancelled context) and errors
// that already are *veriland.Error pass through unchanged.
func wrap(t Type, err error) error {
	if err == nil {
		return nil
	}
	var ve *veriland.Error
	if errors.As(err, &ve) {
		return err
	}
	var r *reasonError
	if !errors.As(err, &r) {
		return err
	}
	return newError(t, r, err)
}

// newError builds the *veriland.Error for reason r with cause in its chain.
func newError(t Type, r *reasonError, cause error) *veriland.Error {
	e := &veriland.Error{Code: r.code, Message: r.text, Cause: cause}
	e = e.WithMeta("reason", r.reason)
	if t != "" {
		e = e.WithMeta("attestationType", string(t))
	}
	return e
}

// fail builds the *veriland.Error returned to callers for the named sentinel, with a
// client-safe message. detail, if not nil, is kept in the cause chain for logs only.
func fail(t Type, s error, detail error) *veriland.Error {
	cause := s
	if detail != nil {
		cause = fmt.Errorf("%w: %w", s, detail)
	}
	return newError(t, s.(*reasonError), cause)
}

// failf is fail with a formatted detail.
func failf(t Type, s error, format string, args ...any) *veriland.Error {
	return fail(t, s, fmt.Errorf(format, args...))
}
