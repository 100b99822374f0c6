package consent

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/identity"
)

// Scope items (SPEC S5 "Disclosure modes"). Every item is a derived, non-personal fact
// about the subject. Three are computed by this package at approval time; the others
// are the identity's stored derived claims (identity.Identity.Claims), written by the
// KYC provider and by chip binding (from DG1; the date of birth itself is never kept).
const (
	// ItemIdentity: the identity is verified. Value {"status": "ACTIVE", "level":
	// "KYC"|"CHIP", "country": <issuance countryCode, when given>}; level is CHIP when
	// a passport chip is bound (claim chip_bound), else KYC. Needs an ACTIVE
	// did:veriland identity.
	ItemIdentity = "identity"
	// ItemLiveness: the subject holds a VALID, unexpired LIVENESS attestation (with the
	// request's requireLiveness, one that meets it). Value {"level": "L1"|"L2"|"L3",
	// "attestationId": "att_…", "issuedAt": RFC 3339}: the highest level, then the
	// newest. Works for did:pkh subjects too.
	ItemLiveness = "liveness"
	// ItemChipBound: a passport chip is bound to the identity. Boolean; false when the
	// identity has no binding.
	ItemChipBound = "chip_bound"

	ItemIsAdult         = "is_adult"         // boolean, stored claim
	ItemAgeOver16       = "age_over_16"      // boolean, stored claim
	ItemAgeOver18       = "age_over_18"      // boolean, stored claim
	ItemAgeOver21       = "age_over_21"      // boolean, stored claim
	ItemNationality     = "nationality"      // string (ISO 3166 alpha-2 or alpha-3), stored claim
	ItemDocumentCountry = "document_country" // string (issuing state), stored claim
	ItemDocumentType    = "document_type"    // string (e.g. "P"), stored claim
	ItemResidence       = "country_of_residence"
	ItemKYCLevel        = "kyc_level" // string or number, as the KYC provider states it
)

// ClaimConsent is the one member of a CONSENT attestation's claims that is not a scope
// item: the consent's own bookkeeping (ConsentClaims). It is never a scope item.
const ClaimConsent = "consent"

// ProofVerified is what PROOF_ONLY states for a value fact that holds (nationality,
// identity, liveness, …): that the service verified it, not what it is.
const ProofVerified = "verified"

// computedItems are the items this package computes; they are always in the vocabulary.
var computedItems = []string{ItemIdentity, ItemLiveness, ItemChipBound}

// booleanItems are the items whose value is a boolean: PROOF_ONLY answers true for
// them, and only when they hold.
var booleanItems = []string{ItemIsAdult, ItemAgeOver16, ItemAgeOver18, ItemAgeOver21, ItemChipBound}

// Vocabulary returns the scope items a request may ask for with claimNames as the
// stored claims (nil: identity.DefaultClaimNames()): the computed items identity,
// liveness and chip_bound, then every claim name, without repeats. ClaimConsent is
// never one.
func Vocabulary(claimNames []string) []string {
	if claimNames == nil {
		claimNames = identity.DefaultClaimNames()
	}
	out := slices.Clone(computedItems)
	for _, n := range claimNames {
		if n != ClaimConsent && validScopeItem(n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Facts is what an approval knows about its subject, the input of Disclose.
type Facts struct {
	// Identity is the subject's identity; nil for a did:pkh subject. Only an ACTIVE
	// identity answers anything.
	Identity *identity.Identity
	// Liveness is the subject's qualifying LIVENESS attestation (see ItemLiveness);
	// nil when there is none.
	Liveness *attestation.Attestation
}

// Unanswerable reasons, in the Meta["reason"] of a claim_unavailable error.
const (
	ReasonMissing     = "missing"       // the subject has no such derived fact
	ReasonDoesNotHold = "does_not_hold" // a boolean fact is false, and PROOF_ONLY states only facts that hold
)

// ClaimUnavailable returns the claim_unavailable error of scope item, with the item in
// Meta["item"] and reason (ReasonMissing or ReasonDoesNotHold) in Meta["reason"].
func ClaimUnavailable(item, reason string) *veriland.Error {
	msg := fmt.Sprintf("scope item %q cannot be answered for this subject: it has no such derived fact", item)
	if reason == ReasonDoesNotHold {
		msg = fmt.Sprintf("scope item %q does not hold for this subject, and a PROOF_ONLY approval states only facts that hold: reject the request instead", item)
	}
	return veriland.Errorf(veriland.CodeClaimUnavailable, "%s", msg).WithMeta("item", item).WithMeta("reason", reason)
}

// Answer returns the value of scope item for the subject described by f, and false
// when it has none. Values are JSON-ready: booleans, strings, numbers, or small
// objects (identity, liveness).
func Answer(item string, f Facts) (any, bool) {
	if item == ItemLiveness {
		return livenessValue(f.Liveness)
	}
	id := f.Identity
	if id == nil || id.Status != identity.StatusActive {
		return nil, false
	}
	switch item {
	case ItemIdentity:
		v := map[string]any{"status": string(id.Status), "level": "KYC"}
		if b, ok := id.Claims[ItemChipBound].(bool); ok && b {
			v["level"] = "CHIP"
		}
		if id.CountryCode != "" {
			v["country"] = id.CountryCode
		}
		return v, true
	case ItemChipBound:
		b, ok := id.Claims[ItemChipBound].(bool)
		return ok && b, true // no binding recorded: not bound
	case ClaimConsent:
		return nil, false
	}
	v, ok := id.Claims[item]
	if !ok {
		return nil, false
	}
	if slices.Contains(booleanItems, item) {
		b, ok := v.(bool)
		return b, ok
	}
	switch v := v.(type) {
	case bool, float64, int, int64, json.Number:
		return v, true
	case string:
		return v, v != ""
	}
	return nil, false
}

// livenessValue is the value of ItemLiveness for attestation a.
func livenessValue(a *attestation.Attestation) (any, bool) {
	level := levelOf(a)
	if level == "" {
		return nil, false
	}
	return map[string]any{"level": level, "attestationId": a.ID, "issuedAt": a.IssuedAt.UTC().Format(time.RFC3339)}, true
}

// levelOf returns the "level" claim of a LIVENESS attestation ("" when it has none).
func levelOf(a *attestation.Attestation) string {
	if a == nil {
		return ""
	}
	var c struct {
		Level string `json:"level"`
	}
	if json.Unmarshal(a.Claims, &c) != nil || LevelRank(c.Level) == 0 {
		return ""
	}
	return c.Level
}

// Disclose answers items (the whole scope in PROOF_ONLY, the holder's pick in
// SELECTIVE) for the subject described by f, as the facts of a CONSENT attestation's
// claims:
//
//   - PROOF_ONLY: each item maps to true (a boolean fact that holds) or "verified" (a
//     value fact the subject has); never a value. A boolean fact that is false is
//     claim_unavailable with reason does_not_hold: a PROOF_ONLY attestation states only
//     facts that hold, so that a verifier can read every member as "proved".
//   - SELECTIVE: each item maps to its value, false included.
//
// An item the subject has no fact for is claim_unavailable with reason missing. Every
// unanswerable item gets its own error (veriland.Errors), with Meta["item"].
func Disclose(mode Mode, items []string, f Facts) (map[string]any, error) {
	out := make(map[string]any, len(items)+1)
	var errs veriland.Errors
	for _, it := range items {
		v, ok := Answer(it, f)
		switch {
		case !ok:
			errs = append(errs, ClaimUnavailable(it, ReasonMissing))
		case mode == ModeSelective:
			out[it] = v
		default:
			if b, isBool := v.(bool); isBool {
				if !b {
					errs = append(errs, ClaimUnavailable(it, ReasonDoesNotHold))
					continue
				}
				out[it] = true
			} else {
				out[it] = ProofVerified
			}
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
