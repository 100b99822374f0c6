package attestation

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"io"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ids"
)

// IDPrefix is the prefix of attestation ids: "att_" + 26 base32 characters, the
// time of issue then random ones (ids.NewOrdered; older ids are all random).
const IDPrefix = "att"

// Issuer signs attestations with the service's secp256k1 key over the attestation
// domain of ChainID. Its zero Rand and Now fall back to crypto/rand and time.Now.
type Issuer struct {
	Key     *ecdsa.PrivateKey
	ChainID uint64
	Rand    io.Reader        // randomness for ids
	Now     func() time.Time // clock for issuedAt and the time part of ids
}

// Address returns the issuer's Ethereum address: what verifiers trust.
func (i *Issuer) Address() common.Address {
	return crypto.PubkeyToAddress(i.Key.PublicKey)
}

// Ref returns the issuer member of the attestations i signs.
func (i *Issuer) Ref() IssuerRef {
	return IssuerRef{Address: i.Address(), ChainID: i.ChainID}
}

func (i *Issuer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

func (i *Issuer) rand() io.Reader {
	if i.Rand != nil {
		return i.Rand
	}
	return rand.Reader
}

// Draft is what a domain package asks to attest. The issuer adds the id, the times,
// the issuer reference, the typed data and the signature.
type Draft struct {
	Kind     Kind
	Subject  string   // the holder's DID or did:pkh
	Verifier string   // the verifier's id; "" when none (LIVENESS, CHIP_BINDING)
	Scope    []string // disclosed scope; nil for none
	// Claims is marshalled to JSON (it must be an object, or nil for {}) and kept in
	// its RFC 8785 canonical form.
	Claims       any
	EvidenceHash [32]byte      // hash of the evidence the claims rest on; zero for none
	ValidFor     time.Duration // 0: no expiry
}

// Limits on drafts, to keep attestations small.
const (
	maxTextLen   = 512
	maxScopeLen  = 64
	maxClaimsLen = 16 << 10
)

func (d *Draft) validate() (json.RawMessage, error) {
	var errs veriland.Errors
	if !d.Kind.Valid() {
		errs = append(errs, veriland.Invalid("/kind", "kind must be CONSENT, LIVENESS or CHIP_BINDING"))
	}
	if d.Subject == "" || !validText(d.Subject) {
		errs = append(errs, veriland.Invalid("/subject", "subject must be 1..%d bytes of UTF-8 text", maxTextLen))
	}
	if !validText(d.Verifier) {
		errs = append(errs, veriland.Invalid("/verifier", "verifier must be at most %d bytes of UTF-8 text", maxTextLen))
	}
	if len(d.Scope) > maxScopeLen {
		errs = append(errs, veriland.Invalid("/scope", "scope has more than %d items", maxScopeLen))
	}
	for _, s := range d.Scope {
		if s == "" || !validText(s) {
			errs = append(errs, veriland.Invalid("/scope", "scope items must be 1..%d bytes of UTF-8", maxTextLen))
			break
		}
	}
	if d.ValidFor < 0 {
		errs = append(errs, veriland.Invalid("/validFor", "validity must not be negative"))
	}
	claims := json.RawMessage("{}")
	if d.Claims != nil {
		b, err := json.Marshal(d.Claims)
		switch {
		case err != nil:
		case isCanonical(b):
			// Already canonical (a map of plain values, or a struct whose fields are
			// in key order): kept as marshalled, which spares a parse and a print.
			claims = b
		default:
			claims, err = Canonical(b)
		}
		switch {
		case err != nil:
			errs = append(errs, veriland.Invalid("/claims", "claims are not JSON-encodable"))
		case len(claims) == 0 || claims[0] != '{':
			errs = append(errs, veriland.Invalid("/claims", "claims must be a JSON object"))
		case len(claims) > maxClaimsLen:
			errs = append(errs, veriland.Invalid("/claims", "claims exceed %d bytes", maxClaimsLen))
		}
	}
	return claims, errs.Err()
}

// Sign turns d into a signed, VALID attestation with a fresh time-ordered id, issued
// now (whole seconds, UTC). Its anchor status is left for the caller (the Service sets it).
// Invalid drafts return validation_failed errors.
func (i *Issuer) Sign(d Draft) (*Attestation, error) {
	if i == nil || i.Key == nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "attestation issuer has no key")
	}
	claims, err := d.validate()
	if err != nil {
		return nil, err
	}
	at := i.now()
	// Time-ordered, so that the attestations bucket, keyed by id, takes new records
	// on its last pages (see the package doc).
	id, err := ids.NewOrdered(i.rand(), IDPrefix, at)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "cannot make an attestation id").WithCause(err)
	}
	now := at.UTC().Truncate(time.Second)
	att := &Attestation{
		ID:           id,
		Kind:         d.Kind,
		Subject:      d.Subject,
		Verifier:     d.Verifier,
		Scope:        append([]string{}, d.Scope...),
		Claims:       claims,
		EvidenceHash: d.EvidenceHash,
		IssuedAt:     now,
		Status:       StatusValid,
		Issuer:       i.Ref(),
	}
	if d.ValidFor > 0 {
		exp := now.Add(d.ValidFor).Truncate(time.Second)
		att.ExpiresAt = &exp
	}
	m, err := att.Message()
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "cannot hash claims").WithCause(err)
	}
	sig, err := ethsig.Sign(i.Key, m.Digest(i.ChainID))
	if err != nil {
		return nil, err
	}
	att.Signature = sig
	att.TypedData = m.TypedData(i.ChainID)
	return att, nil
}

// validText reports whether s is at most maxTextLen bytes of UTF-8 without control
// characters (NUL separates the fields of index keys).
func validText(s string) bool {
	if len(s) > maxTextLen || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
