package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
)

// statusOf is the one table that maps error codes to HTTP statuses (SPEC S2.2).
// A code missing here is a bug and answers 500.
var statusOf = map[veriland.Code]int{
	veriland.CodeInvalidJSON:            http.StatusBadRequest,
	veriland.CodeValidationFailed:       http.StatusBadRequest,
	veriland.CodeUnknownField:           http.StatusBadRequest,
	veriland.CodeInvalidIdempotencyKey:  http.StatusBadRequest,
	veriland.CodeUnauthenticated:        http.StatusUnauthorized,
	veriland.CodeTokenExpired:           http.StatusUnauthorized,
	veriland.CodeInvalidWebhookSig:      http.StatusUnauthorized,
	veriland.CodeForbidden:              http.StatusForbidden,
	veriland.CodeNotFound:               http.StatusNotFound,
	veriland.CodeMethodNotAllowed:       http.StatusMethodNotAllowed,
	veriland.CodeNotAcceptable:          http.StatusNotAcceptable,
	veriland.CodeInvalidState:           http.StatusConflict,
	veriland.CodeIdempotencyInFlight:    http.StatusConflict,
	veriland.CodeAlreadyExists:          http.StatusConflict,
	veriland.CodeDocumentAlreadyBound:   http.StatusConflict,
	veriland.CodePayloadTooLarge:        http.StatusRequestEntityTooLarge,
	veriland.CodeUnsupportedMediaType:   http.StatusUnsupportedMediaType,
	veriland.CodeInvalidSignature:       http.StatusUnprocessableEntity,
	veriland.CodeLivenessRejected:       http.StatusUnprocessableEntity,
	veriland.CodeSessionExpired:         http.StatusUnprocessableEntity,
	veriland.CodePassiveAuthFailed:      http.StatusUnprocessableEntity,
	veriland.CodeFaceMismatch:           http.StatusUnprocessableEntity,
	veriland.CodeLivenessRequired:       http.StatusUnprocessableEntity,
	veriland.CodeIdempotencyKeyReused:   http.StatusUnprocessableEntity,
	veriland.CodeBusinessRuleViolation:  http.StatusUnprocessableEntity,
	veriland.CodeAttestationUnsupported: http.StatusUnprocessableEntity,
	veriland.CodeUnknownSubject:         http.StatusUnprocessableEntity,
	veriland.CodeClaimUnavailable:       http.StatusUnprocessableEntity,
	veriland.CodeParcelOverlap:          http.StatusConflict,
	veriland.CodeAudioTooLong:           http.StatusUnprocessableEntity,
	veriland.CodeInvalidAudio:           http.StatusUnprocessableEntity,
	veriland.CodeRateLimited:            http.StatusTooManyRequests,
	veriland.CodeInternal:               http.StatusInternalServerError,
	veriland.CodeUnavailable:            http.StatusServiceUnavailable,
}

// titleOf gives each code its short, constant, human title.
var titleOf = map[veriland.Code]string{
	veriland.CodeInvalidJSON:            "Invalid JSON",
	veriland.CodeValidationFailed:       "Validation failed",
	veriland.CodeUnknownField:           "Unknown field",
	veriland.CodeInvalidIdempotencyKey:  "Invalid idempotency key",
	veriland.CodeUnauthenticated:        "Unauthenticated",
	veriland.CodeTokenExpired:           "Token expired",
	veriland.CodeInvalidWebhookSig:      "Invalid webhook signature",
	veriland.CodeForbidden:              "Forbidden",
	veriland.CodeNotFound:               "Not found",
	veriland.CodeMethodNotAllowed:       "Method not allowed",
	veriland.CodeNotAcceptable:          "Not acceptable",
	veriland.CodeInvalidState:           "Invalid state",
	veriland.CodeIdempotencyInFlight:    "Idempotency key in flight",
	veriland.CodeAlreadyExists:          "Already exists",
	veriland.CodeDocumentAlreadyBound:   "Document already bound",
	veriland.CodePayloadTooLarge:        "Payload too large",
	veriland.CodeUnsupportedMediaType:   "Unsupported media type",
	veriland.CodeInvalidSignature:       "Invalid signature",
	veriland.CodeLivenessRejected:       "Liveness rejected",
	veriland.CodeSessionExpired:         "Session expired",
	veriland.CodePassiveAuthFailed:      "Passive authentication failed",
	veriland.CodeFaceMismatch:           "Face mismatch",
	veriland.CodeLivenessRequired:       "Liveness required",
	veriland.CodeIdempotencyKeyReused:   "Idempotency key reused",
	veriland.CodeBusinessRuleViolation:  "Business rule violation",
	veriland.CodeAttestationUnsupported: "Attestation unsupported",
	veriland.CodeUnknownSubject:         "Unknown subject",
	veriland.CodeClaimUnavailable:       "Claim unavailable",
	veriland.CodeParcelOverlap:          "Parcel overlap",
	veriland.CodeAudioTooLong:           "Audio too long",
	veriland.CodeInvalidAudio:           "Invalid audio",
	veriland.CodeRateLimited:            "Rate limited",
	veriland.CodeInternal:               "Internal error",
	veriland.CodeUnavailable:            "Service unavailable",
}
