package attestation

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gowebpki/jcs"
)

// ClaimsHash returns keccak256 of the RFC 8785 (JCS) canonical form of claims, a JSON
// value. Invalid JSON is an error.
func ClaimsHash(claims json.RawMessage) ([32]byte, error) {
	if isCanonical(claims) {
		return crypto.Keccak256Hash(claims), nil
	}
	canon, err := Canonical(claims)
	if err != nil {
		return [32]byte{}, err
	}
	return crypto.Keccak256Hash(canon), nil
}

// Canonical returns the RFC 8785 (JCS) canonical form of the JSON value b.
func Canonical(b []byte) ([]byte, error) {
	return jcs.Transform(b)
}
