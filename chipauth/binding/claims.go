package binding

import (
	"context"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
)

// Identities is what the Service needs of the identity store: recording, on the
// holder's identity, the claims derived from a bound document's DG1, inside the
// binding's transaction. *identity.Service implements it (SetChipClaims): it reports
// false and changes nothing when the holder has no identity record (a did:pkh
// wallet holder), and must have no effect outside tx.
type Identities interface {
	SetChipClaims(ctx context.Context, tx storage.Tx, env veriland.Environment, did string, claims map[string]any) (bool, error)
}

// holderClaims are the derived, non-personal claims of a binding of d at the
// verification time (SPEC S5 scope items): nationality (the MRZ code, e.g. "UTO",
// "D"), document_country (the issuing state), document_type (the MRZ document code,
// e.g. "P", "ID"), the age predicates age_over_16/18/21 and is_adult when the MRZ
// has a usable date of birth (chipauth.MRZ.AgeAt; the date itself is never kept), and
// chip_bound: true. A blank MRZ nationality is left out.
func (d *document) holderClaims() map[string]any {
	c := map[string]any{
		identity.ClaimDocumentCountry: d.pa.IssuingState,
		identity.ClaimDocumentType:    d.pa.DocumentType,
		identity.ClaimChipBound:       true,
	}
	if d.pa.Nationality != "" {
		c[identity.ClaimNationality] = d.pa.Nationality
	}
	if d.pa.Age != nil {
		for k, v := range identity.AgeClaims(*d.pa.Age) {
			c[k] = v
		}
	}
	return c
}
