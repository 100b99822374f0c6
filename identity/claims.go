package identity

import (
	"context"
	"reflect"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Claim names this package and chip binding derive themselves. They are on
// DefaultClaimNames; an embedder's own Service.ClaimNames must list them to keep them.
const (
	ClaimIsAdult         = "is_adult"         // boolean: 18 or older (= age_over_18)
	ClaimAgeOver16       = "age_over_16"      // boolean
	ClaimAgeOver18       = "age_over_18"      // boolean
	ClaimAgeOver21       = "age_over_21"      // boolean
	ClaimNationality     = "nationality"      // string: ISO 3166 / ICAO country code
	ClaimDocumentCountry = "document_country" // string: the issuing state of the document
	ClaimDocumentType    = "document_type"    // string: the MRZ document code, e.g. "P", "ID"
	ClaimKYCLevel        = "kyc_level"        // string: the provider's assurance level
	ClaimChipBound       = "chip_bound"       // boolean: a passport chip was bound (true)
)

// AgeClaims returns the age predicates of a person who is age full years old:
// age_over_16, age_over_18, age_over_21 and is_adult (= age_over_18). The age itself
// is not among them.
func AgeClaims(age int) map[string]any {
	return map[string]any{
		ClaimAgeOver16: age >= 16,
		ClaimAgeOver18: age >= 18,
		ClaimAgeOver21: age >= 21,
		ClaimIsAdult:   age >= 18,
	}
}

// AgeAt returns how many full years old a person born on birth is on the date of at,
// comparing calendar dates in UTC. A person born on 29 February becomes a year older
// on 1 March in common years. A birth date after at gives a negative age.
func AgeAt(birth, at time.Time) int {
	birth, at = birth.UTC(), at.UTC()
	age := at.Year() - birth.Year()
	if at.Month() < birth.Month() || (at.Month() == birth.Month() && at.Day() < birth.Day()) {
		age--
	}
	return age
}

// setKYCClaims replaces the KYC provider's claims and recomputes the effective ones.
func (id *Identity) setKYCClaims(c map[string]any) {
	id.KYCClaims = c
	id.Claims = mergeClaims(id.KYCClaims, id.ChipClaims)
}

// SetChipClaims records on identity did of env the claims derived from the DG1 of a
// chip binding (nationality, document_country, document_type, the age predicates,
// chip_bound), inside the caller's transaction tx, so that they commit with the
// binding. They pass the claim allow-list, replace the claims of an earlier binding,
// and take precedence over the KYC provider's claims of the same names in
// Identity.Claims. chipauth/binding calls it (binding.Service.Identities).
//
// It reports false, and changes nothing, when did is not an identity DID (a did:pkh
// wallet holder has no identity record to hold claims) or no such identity exists in
// env. Unchanged claims are not written again. A change is reported to OnChange as
// ActionClaimsUpdated. Errors: storage failures and those of OnChange.
func (s *Service) SetChipClaims(ctx context.Context, tx storage.Tx, env veriland.Environment, did string, claims map[string]any) (bool, error) {
	if err := s.check(env); err != nil {
		return false, err
	}
	if !ValidDID(did) {
		return false, nil
	}
	r := repo(tx, env)
	cur, err := r.identity(did)
	if veriland.IsCode(err, veriland.CodeNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	chip := s.sanitizeClaims(claims)
	if reflect.DeepEqual(chip, cur.ChipClaims) {
		return true, nil
	}
	id := cur.clone()
	id.ChipClaims = chip
	id.Claims = mergeClaims(id.KYCClaims, id.ChipClaims)
	id.UpdatedAt = s.now()
	if err := r.putIdentity(id); err != nil {
		return false, err
	}
	return true, s.emit(ctx, tx, Event{Env: env, Action: ActionClaimsUpdated, DID: did, From: cur.Status, To: id.Status, At: id.UpdatedAt})
}
