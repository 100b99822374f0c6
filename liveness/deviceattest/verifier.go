package deviceattest

import (
	"context"

	"github.com/veriland/veriland"
)

// Type names a device attestation format (SPEC S4 attestationType).
type Type string

// The four attestation types.
const (
	KeyAttestation Type = "KEY_ATTESTATION" // Android hardware key attestation
	AppAttest      Type = "APP_ATTEST"      // Apple App Attest
	PlayIntegrity  Type = "PLAY_INTEGRITY"  // Google Play Integrity verdict
	Mock           Type = "MOCK"            // sandbox stand-in, never accepted in PRODUCTION
)

// Valid reports whether t is one of the four attestation types.
func (t Type) Valid() bool {
	switch t {
	case KeyAttestation, AppAttest, PlayIntegrity, Mock:
		return true
	}
	return false
}

// Trust is how much an enrolment can be relied on (SPEC S4).
type Trust string

// Trust levels. STRONG means the key or verdict is hardware-backed.
const (
	TrustBasic  Trust = "BASIC"
	TrustStrong Trust = "STRONG"
)

// Platform values reported in Result.Platform.
const (
	PlatformAndroid = "android"
	PlatformIOS     = "ios"
)

// Result is what a verifier learned about the device. It holds only non-personal
// facts about the device's security state, never identifiers of the person.
type Result struct {
	Type  Type  // the attestation type that was verified
	Trust Trust // BASIC or STRONG

	// Platform is "android", "ios", or "" for MOCK.
	Platform string
	// SecurityLevel names where the attestation was made: "TEE" or "STRONGBOX"
	// (KEY_ATTESTATION), "SECURE_ENCLAVE" (APP_ATTEST), the strongest device verdict
	// (PLAY_INTEGRITY), or "MOCK".
	SecurityLevel string

	// AttestationVersion is the KeyMint/Keymaster attestation version (KEY_ATTESTATION).
	AttestationVersion int
	// VerifiedBootState is "VERIFIED" for a KEY_ATTESTATION that was accepted.
	VerifiedBootState string
	// DeviceLocked is true for a KEY_ATTESTATION that was accepted.
	DeviceLocked bool
	// OSPatchLevel is YYYYMM from the hardware-enforced list, 0 if absent.
	OSPatchLevel int
	// RootSPKISHA256 is the SHA-256 of the SubjectPublicKeyInfo of the root that
	// anchored the chain (KEY_ATTESTATION, APP_ATTEST), for audit.
	RootSPKISHA256 []byte

	// KeyID is the App Attest key identifier (SHA-256 of the attested public key).
	KeyID []byte
	// AttestedPublicKey is the DER SubjectPublicKeyInfo of the attested key
	// (KEY_ATTESTATION leaf, APP_ATTEST credential), needed to check later assertions.
	AttestedPublicKey []byte
	// Receipt is Apple's App Attest receipt, for later fraud-metric requests.
	Receipt []byte
	// Development is true for an App Attest key from the development environment.
	Development bool

	// DeviceVerdicts are the Play Integrity deviceRecognitionVerdict labels.
	DeviceVerdicts []string
}

// Verifier checks one attestation type. Verify returns a *veriland.Error: code
// validation_failed when the token cannot be parsed, invalid_signature when it parses
// but fails verification, unavailable when a remote dependency failed. The error's
// Cause wraps one of this package's Err* sentinels and Meta["reason"] names it.
type Verifier interface {
	Verify(ctx context.Context, token string, challenge [32]byte) (*Result, error)
}

// Verifiers maps each configured attestation type to its verifier, in the manner of
// webauthn's format registry. A type missing from the map is refused.
type Verifiers map[Type]Verifier

// Verify dispatches token to the verifier for t. MOCK is refused outside SANDBOX,
// whatever verifier is registered for it (code attestation_unsupported,
// ErrMockNotAllowed); an unknown type is validation_failed (ErrUnknownType); a known
// but unconfigured type is attestation_unsupported (ErrTypeNotConfigured).
func (vs Verifiers) Verify(ctx context.Context, env veriland.Environment, t Type, token string, challenge [32]byte) (*Result, error) {
	if !t.Valid() {
		return nil, fail("", ErrUnknownType, nil)
	}
	if t == Mock && env != veriland.Sandbox {
		return nil, fail(t, ErrMockNotAllowed, nil)
	}
	v, ok := vs[t]
	if !ok || v == nil {
		return nil, fail(t, ErrTypeNotConfigured, nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := v.Verify(ctx, token, challenge)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, &veriland.Error{Code: veriland.CodeInternal, Message: "attestation verifier returned no result"}
	}
	res.Type = t
	return res, nil
}
