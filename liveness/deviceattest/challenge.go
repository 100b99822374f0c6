package deviceattest

import (
	"crypto/sha256"
	"strings"
)

// EnrollClientData returns the client data a device attests when it enrols (SPEC S4):
// "veriland-enroll:" + holderDID + ":" + lowercase(publicKey). Phones cannot attest a
// secp256k1 key in hardware, so the attestation binds the device's EVM address instead.
func EnrollClientData(holderDID, publicKey string) string {
	return "veriland-enroll:" + holderDID + ":" + strings.ToLower(publicKey)
}

// EnrollChallenge returns SHA-256 of EnrollClientData(holderDID, publicKey): the
// challenge every attestation type must carry.
func EnrollChallenge(holderDID, publicKey string) [32]byte {
	return sha256.Sum256([]byte(EnrollClientData(holderDID, publicKey)))
}
