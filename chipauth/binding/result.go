package binding

import (
	"encoding/json"
	"fmt"

	"github.com/veriland/veriland/attestation"
)

// Mode is how strongly a binding ties the chip to the person holding it.
type Mode string

// The binding modes (SPEC S6).
const (
	// ModePAOnly: passive authentication passed; no face comparison was made.
	ModePAOnly Mode = "PA_ONLY"
	// ModePAFace: passive authentication passed and the live face matched the
	// chip's face at or above the threshold.
	ModePAFace Mode = "PA_FACE"
)

// StatusVerified is Result.Status of a successful binding.
const StatusVerified = "VERIFIED"

// Result is the response body of POST /identity/chip-verify (201):
//
//	{"status": "VERIFIED", "mode": "PA_ONLY"|"PA_FACE", "attestation": {…}}
type Result struct {
	Status      string                   `json:"status"`
	Mode        Mode                     `json:"mode"`
	Attestation *attestation.Attestation `json:"attestation"`
}

// Claims are the claims of a CHIP_BINDING attestation. They describe the document
// and how it was checked, never who it belongs to: no number, name, birth date,
// nationality or expiry date.
type Claims struct {
	Mode         Mode   `json:"mode"`
	IssuingState string `json:"issuingState"` // ICAO code from the MRZ, e.g. "UTO", "D"
	DocumentType string `json:"documentType"` // from the MRZ, e.g. "P", "ID"
	// DSCertificateFingerprint is the hex SHA-256 of the Document Signer
	// certificate that signed the SOD.
	DSCertificateFingerprint string `json:"dsCertificateFingerprint"`
	DigestAlgorithm          string `json:"digestAlgorithm"`    // e.g. "SHA-256"
	SignatureAlgorithm       string `json:"signatureAlgorithm"` // e.g. "ECDSA-SHA-256"
	// FaceScore is the cosine similarity of the two face templates, rounded to 4
	// decimals; null in PA_ONLY mode.
	FaceScore *float64 `json:"faceScore"`
	// LivenessAttestationID is the LIVENESS attestation that gated the binding.
	LivenessAttestationID string `json:"livenessAttestationId"`
}

// ClaimsOf decodes the claims of a CHIP_BINDING attestation.
func ClaimsOf(att *attestation.Attestation) (Claims, error) {
	var c Claims
	if att == nil || att.Kind != attestation.KindChipBinding {
		return c, fmt.Errorf("binding: not a CHIP_BINDING attestation")
	}
	if err := json.Unmarshal(att.Claims, &c); err != nil {
		return c, fmt.Errorf("binding: claims: %w", err)
	}
	return c, nil
}
