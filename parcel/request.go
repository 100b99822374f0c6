package parcel

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
)

// Bounds of a certification request (SPEC S9).
const (
	MaxFullNameLen = 200  // owner.fullName, characters
	MaxIDDocLen    = 64   // owner.id_doc, characters
	MaxCityLen     = 100  // parcel.city, characters
	MaxAreaM2      = 1e10 // parcel.area_m2, inclusive; it must also be > 0
	MaxReasonLen   = 1000 // reason of a rejection or revocation, characters
)

// Bounds of the owner's deadline on a transfer (SPEC S13): expiresInSeconds.
const (
	DefaultOwnerDeadline = 7 * 24 * 3600  // seconds: a week
	MinOwnerDeadline     = 60             // seconds
	MaxOwnerDeadline     = 30 * 24 * 3600 // seconds: 30 days
)

// NotaryPattern is the form of a notary identifier: NOT-<city code>-<number>.
var NotaryPattern = regexp.MustCompile(`^NOT-[A-Z]{2,5}-[0-9]{1,10}$`)

// Sandbox notaries (SPEC S9, S10): in SANDBOX, NotarySandboxSuccess certifies (or
// approves a transfer) at once, NotarySandboxFailure rejects at once and
// NotarySandboxTimeout never answers.
const (
	NotarySandboxSuccess = "NOT-SBX-1"
	NotarySandboxFailure = "NOT-SBX-2"
	NotarySandboxTimeout = "NOT-SBX-3"
)

// Owner is the owner member of a request: seed 000 §2's fullName and id_doc, and the
// optional walletAddress of SPEC S13 ("0x" + 40 hex; a mixed-case address must carry
// a valid EIP-55 checksum), which the named notary binds to the owner when it
// certifies the parcel or approves the transfer.
type Owner struct {
	FullName      string `json:"fullName"`
	IDDoc         string `json:"id_doc"`
	WalletAddress string `json:"walletAddress,omitempty"`
}

// ParcelInput is the parcel member of a request: gps is [latitude, longitude] in
// decimal degrees. Boundary is the optional GeoJSON Polygon extension of S9, handed to
// ParseBoundary.
type ParcelInput struct {
	GPS      []float64       `json:"gps"`
	AreaM2   *float64        `json:"area_m2"`
	City     string          `json:"city"`
	Boundary json.RawMessage `json:"boundary,omitempty"`
}

// CreateRequest is the body of POST /v1/parcels (seed 000 §2).
type CreateRequest struct {
	Owner  *Owner       `json:"owner"`
	Parcel *ParcelInput `json:"parcel"`
	Notary string       `json:"notary"`
	// CallbackURL (optional, an extension of the seed's body) receives the parcel's
	// and its transfers' events as signed webhooks (parcel.certified, parcel.rejected,
	// parcel.revoked, transfer.*), owned by the creating token's sub. It is checked
	// by Service.ValidateCallback; a Service without one refuses it.
	CallbackURL string `json:"callbackUrl,omitempty"`
}

// TransferRequest is the body of POST /v1/parcels/{id}/transfer (SPEC S9, S13).
type TransferRequest struct {
	NewOwner *Owner `json:"newOwner"`
	Notary   string `json:"notary"`
	// RequireLiveness (optional) makes the owner's approval need a recent liveness
	// attestation of the identity bound to the owner's wallet: minLevel L1..L3,
	// maxAgeDays 1..365 (default 30), as a verification request's.
	RequireLiveness *consent.LivenessInput `json:"requireLiveness,omitempty"`
	// ExpiresInSeconds (optional) is how long the owner has to answer:
	// MinOwnerDeadline..MaxOwnerDeadline seconds, default DefaultOwnerDeadline (7
	// days). It only matters when the owner has a wallet.
	ExpiresInSeconds *int64 `json:"expiresInSeconds,omitempty"`
	// RequesterName is the requester's display name on the owner's page (its API
	// key's name), set by the server, never by the client.
	RequesterName string `json:"-"`
}

// ReasonRequest is the body of reject and revoke calls: {} or {"reason": "…"}.
type ReasonRequest struct {
	Reason string `json:"reason"`
}

// Validate checks r against SPEC S9 and returns one validation_failed error per
// offending member, each with its JSON pointer. The boundary, when present, is checked
// by ParseBoundary and CheckArea.
func (r *CreateRequest) Validate() error {
	var errs veriland.Errors
	errs = append(errs, validateOwner("/owner", r.Owner)...)
	if r.Parcel == nil {
		errs = append(errs, veriland.Invalid("/parcel", "parcel {gps, area_m2, city} is required"))
	} else {
		p := r.Parcel
		switch {
		case p.GPS == nil:
			errs = append(errs, veriland.Invalid("/parcel/gps", "parcel.gps [latitude, longitude] is required"))
		case len(p.GPS) != 2:
			errs = append(errs, veriland.Invalid("/parcel/gps", "parcel.gps must be exactly [latitude, longitude]"))
		default:
			if lat := p.GPS[0]; !(lat >= -90 && lat <= 90) {
				errs = append(errs, veriland.Invalid("/parcel/gps/0", "latitude must be a number from -90 to 90"))
			}
			if lon := p.GPS[1]; !(lon >= -180 && lon <= 180) {
				errs = append(errs, veriland.Invalid("/parcel/gps/1", "longitude must be a number from -180 to 180"))
			}
		}
		switch {
		case p.AreaM2 == nil:
			errs = append(errs, veriland.Invalid("/parcel/area_m2", "parcel.area_m2 is required"))
		case !(*p.AreaM2 > 0 && *p.AreaM2 <= MaxAreaM2) || math.IsInf(*p.AreaM2, 0):
			errs = append(errs, veriland.Invalid("/parcel/area_m2", "parcel.area_m2 must be greater than 0 and at most 1e10 square metres"))
		}
		if !validText(p.City, MaxCityLen) {
			errs = append(errs, veriland.Invalid("/parcel/city", "parcel.city must be 1..%d printable characters", MaxCityLen))
		}
	}
	if e := validateNotary("/notary", r.Notary); e != nil {
		errs = append(errs, e)
	}
	return errs.Err()
}

// Validate checks r like CreateRequest.Validate, with pointers under /newOwner, and
// the bounds of requireLiveness and expiresInSeconds.
func (r *TransferRequest) Validate() error {
	errs := validateOwner("/newOwner", r.NewOwner)
	if e := validateNotary("/notary", r.Notary); e != nil {
		errs = append(errs, e)
	}
	if in := r.RequireLiveness; in != nil {
		if consent.LevelRank(in.MinLevel) == 0 {
			errs = append(errs, veriland.Invalid("/requireLiveness/minLevel", "requireLiveness.minLevel is required: L1, L2 or L3"))
		}
		if d := in.MaxAgeDays; d != nil && !(*d >= consent.MinMaxAgeDays && *d <= consent.MaxMaxAgeDays) {
			errs = append(errs, veriland.Invalid("/requireLiveness/maxAgeDays", "requireLiveness.maxAgeDays must be a number of days from %d to %d", consent.MinMaxAgeDays, consent.MaxMaxAgeDays))
		}
	}
	if e := r.ExpiresInSeconds; e != nil && (*e < MinOwnerDeadline || *e > MaxOwnerDeadline) {
		errs = append(errs, veriland.Invalid("/expiresInSeconds", "expiresInSeconds must be %d..%d", MinOwnerDeadline, MaxOwnerDeadline))
	}
	return errs.Err()
}

// liveness returns the normalised requireLiveness (nil for none).
func (r *TransferRequest) liveness() *consent.LivenessRequirement {
	if r.RequireLiveness == nil {
		return nil
	}
	l := &consent.LivenessRequirement{MinLevel: r.RequireLiveness.MinLevel, MaxAgeDays: consent.DefaultMaxAgeDays}
	if d := r.RequireLiveness.MaxAgeDays; d != nil {
		l.MaxAgeDays = *d
	}
	return l
}

// ownerDeadline returns how long the owner has to answer.
func (r *TransferRequest) ownerDeadline() time.Duration {
	if r.ExpiresInSeconds == nil {
		return DefaultOwnerDeadline * time.Second
	}
	return time.Duration(*r.ExpiresInSeconds) * time.Second
}

func validateOwner(ptr string, o *Owner) veriland.Errors {
	if o == nil {
		return veriland.Errors{veriland.Invalid(ptr, "%s {fullName, id_doc} is required", ptr[1:])}
	}
	var errs veriland.Errors
	if !validText(o.FullName, MaxFullNameLen) {
		errs = append(errs, veriland.Invalid(ptr+"/fullName", "fullName must be 1..%d printable characters", MaxFullNameLen))
	}
	if !validText(o.IDDoc, MaxIDDocLen) {
		errs = append(errs, veriland.Invalid(ptr+"/id_doc", "id_doc must be 1..%d printable characters", MaxIDDocLen))
	}
	if o.WalletAddress != "" {
		if _, err := identity.ParseWalletAddress(o.WalletAddress); err != nil {
			msg := "must be 0x followed by 40 hex digits"
			if ve := (*veriland.Error)(nil); errors.As(err, &ve) {
				msg = ve.Message
			}
			errs = append(errs, veriland.Invalid(ptr+"/walletAddress", "walletAddress %s", msg))
		}
	}
	return errs
}

func validateNotary(ptr, n string) *veriland.Error {
	if !NotaryPattern.MatchString(n) {
		return veriland.Invalid(ptr, "notary must match NOT-<city code>-<number> (%s)", NotaryPattern.String())
	}
	return nil
}

func validReason(s string) bool {
	return s == "" || validText(s, MaxReasonLen)
}

// validText reports whether s is 1..max characters of UTF-8 without control
// characters.
func validText(s string, max int) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return false
		}
	}
	return strings.TrimSpace(s) != ""
}

// DecodeCreateRequest decodes and validates a POST /v1/parcels body the way the server
// does: one JSON object, unknown members refused (unknown_field), wrong types refused
// with the member's pointer, then Validate.
func DecodeCreateRequest(body []byte) (CreateRequest, error) {
	var r CreateRequest
	if err := decodeStrict(body, &r); err != nil {
		return CreateRequest{}, err
	}
	return r, r.Validate()
}

// DecodeTransferRequest decodes and validates a transfer body like DecodeCreateRequest.
func DecodeTransferRequest(body []byte) (TransferRequest, error) {
	var r TransferRequest
	if err := decodeStrict(body, &r); err != nil {
		return TransferRequest{}, err
	}
	return r, r.Validate()
}

// DecodeReason decodes a reject or revoke body: empty, {} or {"reason": "…"} (at most
// MaxReasonLen characters).
func DecodeReason(body []byte) (string, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return "", nil
	}
	var r ReasonRequest
	if err := decodeStrict(body, &r); err != nil {
		return "", err
	}
	if !validReason(r.Reason) {
		return "", veriland.Invalid("/reason", "reason must be at most %d printable characters", MaxReasonLen)
	}
	return r.Reason, nil
}

func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return veriland.Invalid("/"+strings.ReplaceAll(typeErr.Field, ".", "/"), "wrong JSON type: %s expected", typeErr.Type.String())
		case errors.As(err, &typeErr):
			return veriland.Errorf(veriland.CodeInvalidJSON, "the body must be a JSON object")
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &veriland.Error{Code: veriland.CodeUnknownField, Message: "unknown member " + name}
		}
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body is not a valid JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body holds data after the JSON value")
	}
	return nil
}
