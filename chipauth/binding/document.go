package binding

import (
	"crypto/sha256"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth"
)

// StepDocumentExpired is the Meta["step"] of the passive_auth_failed error for a
// document whose MRZ date of expiry has passed, when the Service does not allow
// expired documents. chipauth reports that expiry; this package enforces it.
const StepDocumentExpired = "document_expired"

// document is what passive authentication established about the chip, reduced to
// what a binding needs. The document number is not in it: only its keyed hash.
type document struct {
	key          []byte   // HMAC-SHA256(pepper, issuing state ‖ document number)
	evidenceHash [32]byte // SHA-256 of the EF.SOD bytes as sent
	pa           *chipauth.Result
}

// authenticate runs passive authentication of in's SOD and data groups against
// env's trust store.
func (s *Service) authenticate(env veriland.Environment, in *decoded, now time.Time) (*document, error) {
	trust := s.Trust(env)
	if trust == nil {
		trust = chipauth.NewTrustStore() // no CSCA: every document fails csca_not_found
	}
	res, err := chipauth.Verify(in.sod, in.dataGroups, trust, chipauth.Options{
		Now:          func() time.Time { return now },
		AllowExpired: s.AllowExpiredDocuments,
		Pepper:       s.Pepper,
	})
	if err != nil {
		return nil, err
	}
	if res.DocumentExpired && !s.AllowExpiredDocuments {
		return nil, (&veriland.Error{
			Code:    veriland.CodePassiveAuthFailed,
			Message: "passive authentication failed at " + StepDocumentExpired + ": the document has expired",
		}).WithMeta("step", StepDocumentExpired)
	}
	if len(res.DocumentKey) != sha256.Size {
		// chipauth gives a key whenever DG1 verified and a pepper is set; both hold.
		return nil, veriland.Errorf(veriland.CodeInternal, "passive authentication returned no document key")
	}
	return &document{key: res.DocumentKey, evidenceHash: sha256.Sum256(in.sod), pa: res}, nil
}

// claims builds the CHIP_BINDING claims of a binding of d.
func (d *document) claims(mode Mode, score *float64, livenessID string) Claims {
	return Claims{
		Mode:                     mode,
		IssuingState:             d.pa.IssuingState,
		DocumentType:             d.pa.DocumentType,
		DSCertificateFingerprint: d.pa.DSFingerprint,
		DigestAlgorithm:          d.pa.DigestAlgorithm,
		SignatureAlgorithm:       d.pa.SignatureAlgorithm,
		FaceScore:                score,
		LivenessAttestationID:    livenessID,
	}
}
