package liveness

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// DeviceIDPrefix is the prefix of device ids: "dev_" + 26 random base32 characters.
const DeviceIDPrefix = "dev"

// Platform is the kind of device that enrols: an Android or iOS phone, or a web
// browser.
type Platform string

// The three platforms of the source document.
const (
	PlatformAndroid Platform = "ANDROID"
	PlatformIOS     Platform = "IOS"
	PlatformWeb     Platform = "WEB"
)

// Valid reports whether p is ANDROID, IOS or WEB.
func (p Platform) Valid() bool {
	return p == PlatformAndroid || p == PlatformIOS || p == PlatformWeb
}

// Bounds on an attestation token, in characters (Unicode code points, as JSON
// Schema's minLength and maxLength count them), for every attestation type: the
// source document's attestation.token, length 8 to 16384. Real tokens (a Play
// Integrity JWE, an App Attest object, a key attestation chain) are a few KiB.
const (
	MinAttestationToken = deviceattest.MockTokenMin
	MaxAttestationToken = deviceattest.MockTokenMax
)

// DeviceAttestation is the attestation object of the enrolment and verification
// bodies: {"type": …, "token": …}.
type DeviceAttestation struct {
	// Type is KEY_ATTESTATION, APP_ATTEST, PLAY_INTEGRITY or MOCK (required).
	Type deviceattest.Type `json:"type"`
	// Token is the type's token (deviceattest documents each format), 8..16384
	// characters (required).
	Token string `json:"token"`
}

// validate appends the shape errors of a, found at ptr ("/attestation"), to errs.
func (a *DeviceAttestation) validate(ptr string, errs veriland.Errors) veriland.Errors {
	if a == nil {
		return append(errs, veriland.Invalid(ptr, "attestation {type, token} is required"))
	}
	if !a.Type.Valid() {
		errs = append(errs, veriland.Invalid(ptr+"/type", "attestation.type must be PLAY_INTEGRITY, KEY_ATTESTATION, APP_ATTEST or MOCK"))
	}
	// A cheap byte bound first: a code point is at most 4 bytes.
	if n := len(a.Token); n < MinAttestationToken || n > 4*MaxAttestationToken ||
		!utf8.ValidString(a.Token) || !between(utf8.RuneCountInString(a.Token), MinAttestationToken, MaxAttestationToken) {
		errs = append(errs, veriland.Invalid(ptr+"/token", "attestation.token must be %d to %d characters", MinAttestationToken, MaxAttestationToken).
			WithMeta("minLength", MinAttestationToken).WithMeta("maxLength", MaxAttestationToken))
	}
	return errs
}

func between(n, lo, hi int) bool { return n >= lo && n <= hi }

// EnrollRequest is the body of POST /liveness/device/enroll, exactly the source
// document's:
//
//	{"platform": "ANDROID", "publicKey": "0x…", "attestation": {"type": "KEY_ATTESTATION", "token": "…"}}
//
// PublicKey identifies the device's secp256k1 signing key by its EVM address (0x + 40
// hex digits, any case): phones cannot attest a secp256k1 key in hardware, so the
// attestation binds the address instead (deviceattest.EnrollChallenge), and liveness
// proofs are checked by recovering that address.
type EnrollRequest struct {
	Platform    Platform           `json:"platform"`    // ANDROID, IOS or WEB
	PublicKey   string             `json:"publicKey"`   // 0x + 40 hex digits
	Attestation *DeviceAttestation `json:"attestation"` // {type, token}
}

// Validate checks the shape of r: every member present and well-formed, the token
// 8..16384 characters whatever its type, and a platform that can present the
// attestation type (PlatformFits). It returns validation_failed errors with pointers.
func (r *EnrollRequest) Validate() error {
	var errs veriland.Errors
	if !r.Platform.Valid() {
		errs = append(errs, veriland.Invalid("/platform", "platform must be ANDROID, IOS or WEB"))
	}
	if !isAddress(r.PublicKey) {
		errs = append(errs, veriland.Invalid("/publicKey", "publicKey must be the device key's 0x address (40 hex digits)"))
	}
	errs = r.Attestation.validate("/attestation", errs)
	if r.Platform.Valid() && r.Attestation != nil && r.Attestation.Type.Valid() && !PlatformFits(r.Platform, r.Attestation.Type) {
		errs = append(errs, veriland.Invalid("/platform", "a %s device cannot present a %s attestation (%s)",
			r.Platform, r.Attestation.Type, fitsText(r.Attestation.Type)).WithMeta("attestationType", string(r.Attestation.Type)))
	}
	return errs.Err()
}

// PlatformFits reports whether a device of platform p can present an attestation of
// type t:
//
//	attestation.type   ANDROID  IOS  WEB
//	KEY_ATTESTATION    yes      —    —
//	PLAY_INTEGRITY     yes      —    —
//	APP_ATTEST         —        yes  —
//	MOCK               yes      yes  yes   (SANDBOX only)
//
// A browser has no platform attestation among the four types, so WEB enrols with
// MOCK only, which is accepted in SANDBOX only: in PRODUCTION a WEB device cannot
// enrol (422 attestation_unsupported, reason mock_not_allowed).
func PlatformFits(p Platform, t deviceattest.Type) bool {
	if t == deviceattest.Mock {
		return p.Valid()
	}
	return platformOf(t) == p
}

func fitsText(t deviceattest.Type) string {
	switch t {
	case deviceattest.KeyAttestation, deviceattest.PlayIntegrity:
		return "it comes from ANDROID devices"
	case deviceattest.AppAttest:
		return "it comes from IOS devices"
	}
	return "MOCK fits every platform"
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
	Platform        Platform             `json:"platform"`        // ANDROID, IOS or WEB
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
