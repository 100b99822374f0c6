package veriland

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a machine-readable error code from SPEC S2.2. The HTTP layer maps each code
// to a status; domain packages only ever choose a code.
type Code string

// Error codes shared by every package (SPEC S2.2).
const (
	CodeInvalidJSON            Code = "invalid_json"
	CodeValidationFailed       Code = "validation_failed"
	CodeUnknownField           Code = "unknown_field"
	CodeInvalidIdempotencyKey  Code = "invalid_idempotency_key"
	CodeUnauthenticated        Code = "unauthenticated"
	CodeTokenExpired           Code = "token_expired"
	CodeInvalidWebhookSig      Code = "invalid_webhook_signature"
	CodeForbidden              Code = "forbidden"
	CodeNotFound               Code = "not_found"
	CodeInvalidState           Code = "invalid_state"
	CodeIdempotencyInFlight    Code = "idempotency_key_in_flight"
	CodeAlreadyExists          Code = "already_exists"
	CodeDocumentAlreadyBound   Code = "document_already_bound"
	CodePayloadTooLarge        Code = "payload_too_large"
	CodeUnsupportedMediaType   Code = "unsupported_media_type"
	CodeInvalidSignature       Code = "invalid_signature"
	CodeLivenessRejected       Code = "liveness_rejected"
	CodeSessionExpired         Code = "session_expired"
	CodePassiveAuthFailed      Code = "passive_auth_failed"
	CodeFaceMismatch           Code = "face_mismatch"
	CodeLivenessRequired       Code = "liveness_required"
	CodeIdempotencyKeyReused   Code = "idempotency_key_reused"
	CodeRateLimited            Code = "rate_limited"
	CodeInternal               Code = "internal"
	CodeUnavailable            Code = "unavailable"
	CodeMethodNotAllowed       Code = "method_not_allowed"
	CodeNotAcceptable          Code = "not_acceptable"
	CodeBusinessRuleViolation  Code = "business_rule_violation"
	CodeAttestationUnsupported Code = "attestation_unsupported"
	CodeUnknownSubject         Code = "unknown_subject"   // a verification request's subject does not exist
	CodeClaimUnavailable       Code = "claim_unavailable" // a scope item cannot be answered for the subject
	CodeParcelOverlap          Code = "parcel_overlap"    // a parcel boundary overlaps a CURRENT certified parcel's boundary (SPEC S9)
	CodeAudioTooLong           Code = "audio_too_long"    // a voice upload plays longer than the limit (SPEC S11)
	CodeInvalidAudio           Code = "invalid_audio"     // a voice upload of a known format whose headers are broken (SPEC S11)
)

// Error is the one error type every veriland package returns for failures a caller
// can act on. Message is safe to show to the client that caused the error: it never
// holds personal data, secrets or internal details. Cause, when set, is for logs only.
type Error struct {
	Code    Code           // machine code, SPEC S2.2
	Message string         // human-readable detail, safe to show
	Pointer string         // JSON pointer to the offending member, "" if none
	Meta    map[string]any // extra machine-readable context, safe to show
	Cause   error          // underlying error, never shown to clients
}

// Errorf returns an *Error with the given code and a formatted, client-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns a validation_failed error for the member at pointer.
func Invalid(pointer, format string, args ...any) *Error {
	return &Error{Code: CodeValidationFailed, Message: fmt.Sprintf(format, args...), Pointer: pointer}
}

// Error implements error.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Pointer != "" {
		b.WriteString(" (at ")
		b.WriteString(e.Pointer)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the cause, so that errors.Is sees through to it.
func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &veriland.Error{Code: veriland.CodeNotFound}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// WithMeta returns a copy of e with key set in its Meta map. e itself, and its Meta
// map, are left unchanged, so that sentinels such as ErrNotFound stay immutable.
func (e *Error) WithMeta(key string, value any) *Error {
	c := *e
	c.Meta = make(map[string]any, len(e.Meta)+1)
	for k, v := range e.Meta {
		c.Meta[k] = v
	}
	c.Meta[key] = value
	return &c
}

// WithCause returns a copy of e with its cause set (for logs; never shown to clients).
// e itself is left unchanged.
func (e *Error) WithCause(err error) *Error {
	c := *e
	c.Cause = err
	return &c
}

// Errors is a list of errors about several members of one request, each with its own
// pointer. It is returned when validation finds more than one problem.
type Errors []*Error

// Error implements error.
func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Err returns nil for an empty list, the single error for a list of one, and the list
// otherwise.
func (es Errors) Err() error {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	default:
		return es
	}
}

// Unwrap returns the members of the list, so that errors.Is and errors.As look at each
// of them (and at their causes).
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// ErrorList returns the *Error values err carries: the list of an Errors, the single
// *Error of any other chain, and nil when err carries none. It is the inverse of
// Errors.Err, for callers that rewrite each error of a validation answer.
func ErrorList(err error) Errors {
	var list Errors
	if errors.As(err, &list) {
		return list
	}
	var one *Error
	if errors.As(err, &one) {
		return Errors{one}
	}
	return nil
}

// CodeOf returns the code of the first *Error in err's chain (or of the first element
// of an Errors list), and CodeInternal for anything else.
func CodeOf(err error) Code {
	var list Errors
	if errors.As(err, &list) && len(list) > 0 {
		return list[0].Code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// IsCode reports whether err carries the given code.
func IsCode(err error, code Code) bool {
	return err != nil && CodeOf(err) == code
}

// ErrNotFound is a ready sentinel for errors.Is checks against not_found. Never change
// it: WithMeta and WithCause return copies.
var ErrNotFound = &Error{Code: CodeNotFound}
