package liveness

import (
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// DeviceIDPrefix is the prefix of device ids: "dev_" + 26 random base32 characters.
const DeviceIDPrefix = "dev"

// Platform is the operating system family of an enrolled device.
type Platform string

// The two platforms.
const (
	PlatformAndroid Platform = "ANDROID"
	PlatformIOS     Platform = "IOS"
)

// Valid reports whether p is ANDROID or IOS.
func (p Platform) Valid() bool { return p == PlatformAndroid || p == PlatformIOS }

// maxAttestationToken bounds the attestation token, in bytes. Real tokens (a Play
// Integrity JWE, an App Attest object, a key attestation chain) are a few KiB.
const maxAttestationToken = 256 << 10

// EnrollRequest is the body of POST /liveness/device/enroll.
//
// PublicKey identifies the device's secp256k1 signing key by its EVM address (0x + 40
// hex digits, any case): phones cannot attest a secp256k1 key in hardware, so the
// attestation binds the address instead (deviceattest.EnrollChallenge), and liveness
// proofs are checked by recovering that address.
type EnrollRequest struct {
	PublicKey        string            `json:"publicKey"`        // 0x + 40 hex digits
	Platform         Platform          `json:"platform"`         // ANDROID or IOS
	AttestationType  deviceattest.Type `json:"attestationType"`  // KEY_ATTESTATION, APP_ATTEST, PLAY_INTEGRITY or MOCK
	AttestationToken string            `json:"attestationToken"` // the type's token format (deviceattest)
}

// Validate checks the shape of r: every member present and well-formed, and a platform
// that fits the attestation type (KEY_ATTESTATION and PLAY_INTEGRITY are ANDROID,
// APP_ATTEST is IOS, MOCK either). It returns validation_failed errors with pointers.
func (r *EnrollRequest) Validate() error {
	var errs veriland.Errors
	if !isAddress(r.PublicKey) {
		errs = append(errs, veriland.Invalid("/publicKey", "publicKey must be the device key's 0x address (40 hex digits)"))
	}
	if !r.Platform.Valid() {
		errs = append(errs, veriland.Invalid("/platform", "platform must be ANDROID or IOS"))
	}
	if !r.AttestationType.Valid() {
		errs = append(errs, veriland.Invalid("/attestationType", "attestationType must be KEY_ATTESTATION, APP_ATTEST, PLAY_INTEGRITY or MOCK"))
	} else if r.Platform.Valid() {
		if want := platformOf(r.AttestationType); want != "" && want != r.Platform {
			errs = append(errs, veriland.Invalid("/platform", "%s attestations come from %s devices", r.AttestationType, want))
		}
	}
	switch {
	case r.AttestationToken == "":
		errs = append(errs, veriland.Invalid("/attestationToken", "attestationToken is required"))
	case len(r.AttestationToken) > maxAttestationToken:
		errs = append(errs, veriland.Invalid("/attestationToken", "attestationToken exceeds %d bytes", maxAttestationToken))
	}
	return errs.Err()
}

// platformOf returns the only platform an attestation type can come from, or "" for
// MOCK.
func platformOf(t deviceattest.Type) Platform {
	switch t {
	case deviceattest.KeyAttestation, deviceattest.PlayIntegrity:
		return PlatformAndroid
	case deviceattest.AppAttest:
		return PlatformIOS
	}
	return ""
}

// Device is an enrolled device: a holder's phone whose key signs liveness proofs.
// Holder and Env are kept in storage but not shown in the JSON answer.
type Device struct {
	ID              string               `json:"deviceId"`        // "dev_" + 26 base32 characters
	PublicKey       string               `json:"publicKey"`       // lower-case 0x address
	Platform        Platform             `json:"platform"`        // ANDROID or IOS
	AttestationType deviceattest.Type    `json:"attestationType"` // the type it enrolled with
	Trust           deviceattest.Trust   `json:"trust"`           // BASIC or STRONG
	EnrolledAt      time.Time            `json:"enrolledAt"`      // first enrolment, UTC
	Holder          string               `json:"-"`               // the holder's DID
	Env             veriland.Environment `json:"-"`               // its environment
}

// isAddress reports whether s is "0x" followed by exactly 40 hex digits.
func isAddress(s string) bool {
	return len(s) == 42 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")) && isHex(s[2:])
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// normalAddress returns the lower-case 0x form of a valid address.
func normalAddress(s string) string { return "0x" + strings.ToLower(s[2:]) }

// addressOf parses a valid address.
func addressOf(s string) common.Address { return common.HexToAddress(s) }
