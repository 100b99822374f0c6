package attestation

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
)

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// TrustedIssuers are the issuer addresses to accept. At least one is required.
	TrustedIssuers []common.Address
	// ChainID, when not 0, is the only issuer.chainId accepted. When 0 the
	// attestation's own chainId is used for its domain: a signature still has to come
	// from a trusted key.
	ChainID uint64
	// Now is the time at which validity is checked (expiry, revocation). Zero means
	// time.Now().
	Now time.Time
	// Leeway tolerates clock skew on issuedAt and expiresAt.
	Leeway time.Duration
	// Revocations, when set, is a signed revocation list (RevocationsSince). It must
	// verify against TrustedIssuers; an attestation it lists as revoked at or before
	// Now is refused.
	Revocations *RevocationList
}

// Verify checks att offline, with no storage and no network: it rebuilds the EIP-712
// digest from att's fields (recomputing claimsHash from claims), checks that the
// embedded typedData, when present, says the same, recovers the signer, compares it to
// issuer.address and the trusted issuers, and checks validity at opts.Now and against
// the optional revocation list.
//
// Verify keeps the public key of each trusted issuer it has seen sign, with
// precomputed tables (ethsig.RecoverAs: about 512 KiB per key, at most eight keys,
// built in a few milliseconds on the first attestation of that issuer), which makes
// later verifications about a third faster; the outcome is the same.
//
// It returns nil or a *veriland.Error whose Cause is one of ErrMalformed,
// ErrBadSignature, ErrUntrustedIssuer, ErrWrongChain, ErrClaimsMismatch,
// ErrTypedDataMismatch, ErrNotYetValid, ErrExpired, ErrRevoked or ErrBadRevocationList.
func Verify(att *Attestation, opts VerifyOptions) error {
	if att == nil || att.ID == "" || !att.Kind.Valid() || att.Subject == "" {
		return fail(veriland.CodeValidationFailed, ErrMalformed, "attestation needs an id, a kind and a subject")
	}
	if len(opts.TrustedIssuers) == 0 {
		return fail(veriland.CodeValidationFailed, ErrMalformed, "no trusted issuer configured")
	}
	chainID := att.Issuer.ChainID
	if opts.ChainID != 0 && chainID != opts.ChainID {
		return fail(veriland.CodeInvalidSignature, ErrWrongChain, "issuer.chainId is %d, expected %d", chainID, opts.ChainID)
	}
	claimsHash, err := ClaimsHash(att.Claims)
	if err != nil {
		return failWrap(veriland.CodeValidationFailed, ErrMalformed, err, "claims are not valid JSON")
	}
	m := att.message(claimsHash)
	if err := checkTypedData(att, m, chainID); err != nil {
		return err
	}
	// A trusted issuer's key is known after its first attestation: RecoverAs then
	// checks the signature against it, faster, with the same outcome.
	digest := m.Digest(chainID)
	var signer common.Address
	if isTrusted(opts.TrustedIssuers, att.Issuer.Address) {
		signer, err = ethsig.RecoverAs(digest, att.Signature, att.Issuer.Address)
	} else {
		signer, err = ethsig.Recover(digest, att.Signature)
	}
	if err != nil {
		return failWrap(veriland.CodeInvalidSignature, ErrBadSignature, err, "signature refused: %s", errorMessage(err))
	}
	if signer != att.Issuer.Address {
		return fail(veriland.CodeInvalidSignature, ErrBadSignature,
			"signature does not match the attestation's fields and issuer (recovered %s)", signer.Hex())
	}
	if !isTrusted(opts.TrustedIssuers, signer) {
		return fail(veriland.CodeInvalidSignature, ErrUntrustedIssuer, "issuer %s is not trusted", signer.Hex())
	}

	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	if att.IssuedAt.After(now.Add(opts.Leeway)) {
		return fail(veriland.CodeBusinessRuleViolation, ErrNotYetValid, "issued at %s, after %s", att.IssuedAt.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if att.Expired(now.Add(-opts.Leeway)) {
		return fail(veriland.CodeBusinessRuleViolation, ErrExpired, "expired at %s", att.ExpiresAt.UTC().Format(time.RFC3339))
	}
	if att.Status == StatusRevoked {
		return fail(veriland.CodeBusinessRuleViolation, ErrRevoked, "the attestation is revoked")
	}
	if opts.Revocations != nil {
		if err := VerifyRevocationList(opts.Revocations, opts.TrustedIssuers, opts.ChainID); err != nil {
			return err
		}
		if at, ok := opts.Revocations.RevokedAt(att.ID); ok && !at.After(now) {
			return fail(veriland.CodeBusinessRuleViolation, ErrRevoked, "revoked at %s", at.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

func isTrusted(list []common.Address, a common.Address) bool {
	for _, t := range list {
		if t == a {
			return true
		}
	}
	return false
}

func errorMessage(err error) string {
	if e, ok := err.(*veriland.Error); ok {
		return e.Message
	}
	return err.Error()
}
