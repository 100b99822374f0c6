package attestation

import (
	"crypto/ecdsa"
	"encoding/json"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
)

// RevocationList is the body of GET /attestation/revocations: the attestations
// revoked since a time, signed by the issuer key so that offline verifiers can cache
// it. Signature is EIP-191 (personal_sign) over the RFC 8785 canonical JSON of the list
// without its signature member.
type RevocationList struct {
	Issuer      common.Address `json:"issuer"`
	ChainID     uint64         `json:"chainId"`
	IssuedAt    time.Time      `json:"issuedAt"`
	Since       *time.Time     `json:"since"` // null: from the beginning
	Revocations []Revocation   `json:"revocations"`
	Signature   hexutil.Bytes  `json:"signature"`
}

// Revocation is one entry of a RevocationList.
type Revocation struct {
	ID        string    `json:"id"`
	RevokedAt time.Time `json:"revokedAt"`
}

// RevokedAt returns when l says id was revoked.
func (l *RevocationList) RevokedAt(id string) (time.Time, bool) {
	for _, r := range l.Revocations {
		if r.ID == id {
			return r.RevokedAt, true
		}
	}
	return time.Time{}, false
}

// SigningPayload returns the bytes the list's signature covers: the JCS canonical
// JSON of l without its signature member.
func (l *RevocationList) SigningPayload() ([]byte, error) {
	b, err := json.Marshal(struct {
		Issuer      common.Address `json:"issuer"`
		ChainID     uint64         `json:"chainId"`
		IssuedAt    time.Time      `json:"issuedAt"`
		Since       *time.Time     `json:"since"`
		Revocations []Revocation   `json:"revocations"`
	}{l.Issuer, l.ChainID, l.IssuedAt, l.Since, l.Revocations})
	if err != nil {
		return nil, err
	}
	return Canonical(b)
}

// SignRevocationList fills in l's issuer from key and signs it. Times are normalised
// to UTC whole seconds and a nil list of revocations to an empty one first, so that
// the signed bytes survive a JSON round trip.
func SignRevocationList(l *RevocationList, key *ecdsa.PrivateKey) error {
	if l == nil || key == nil {
		return veriland.Errorf(veriland.CodeInternal, "no revocation list or no key")
	}
	l.Issuer = ethsig.Address(key)
	l.IssuedAt = l.IssuedAt.UTC().Truncate(time.Second)
	if l.Since != nil {
		s := l.Since.UTC().Truncate(time.Second)
		l.Since = &s
	}
	if l.Revocations == nil {
		l.Revocations = []Revocation{}
	}
	for i := range l.Revocations {
		l.Revocations[i].RevokedAt = l.Revocations[i].RevokedAt.UTC().Truncate(time.Second)
	}
	payload, err := l.SigningPayload()
	if err != nil {
		return veriland.Errorf(veriland.CodeInternal, "cannot encode the revocation list").WithCause(err)
	}
	sig, err := ethsig.Sign(key, ethsig.PersonalDigest(payload))
	if err != nil {
		return err
	}
	l.Signature = sig
	return nil
}

// VerifyRevocationList checks that l is signed by l.Issuer, that l.Issuer is one of
// trusted and, when chainID is not 0, that l is for that chain. It returns nil or a
// *veriland.Error whose Cause is ErrBadRevocationList (with the ethsig reason, if any).
func VerifyRevocationList(l *RevocationList, trusted []common.Address, chainID uint64) error {
	if l == nil {
		return fail(veriland.CodeValidationFailed, ErrBadRevocationList, "no revocation list")
	}
	if chainID != 0 && l.ChainID != chainID {
		return fail(veriland.CodeInvalidSignature, ErrBadRevocationList, "revocation list is for chain %d, expected %d", l.ChainID, chainID)
	}
	payload, err := l.SigningPayload()
	if err != nil {
		return failWrap(veriland.CodeValidationFailed, ErrBadRevocationList, err, "revocation list cannot be encoded")
	}
	signer, err := ethsig.Recover(ethsig.PersonalDigest(payload), l.Signature)
	if err != nil {
		return failWrap(veriland.CodeInvalidSignature, ErrBadRevocationList, err, "revocation list signature refused: %s", errorMessage(err))
	}
	if signer != l.Issuer {
		return fail(veriland.CodeInvalidSignature, ErrBadRevocationList, "revocation list is not signed by its issuer (recovered %s)", signer.Hex())
	}
	if !isTrusted(trusted, signer) {
		return fail(veriland.CodeInvalidSignature, ErrBadRevocationList, "revocation list issuer %s is not trusted", signer.Hex())
	}
	return nil
}
