package ethsig

import (
	"crypto/ecdsa"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
)

// SignatureLength is the length of an r ‖ s ‖ v signature.
const SignatureLength = 65

// Reasons a signature is refused. They are the Cause of the *veriland.Error that
// Recover returns.
var (
	ErrSignatureLength = errors.New("ethsig: signature is not 65 bytes")
	ErrBadV            = errors.New("ethsig: v is not 0, 1, 27 or 28")
	ErrHighS           = errors.New("ethsig: s is in the upper half of the curve order")
	ErrRecover         = errors.New("ethsig: no public key recovers from the signature")
)

// Recover returns the address whose key signed digest. sig must be exactly 65 bytes
// r ‖ s ‖ v with v in {0, 1, 27, 28}, r and s in range and s in the lower half of the
// curve order. It never modifies sig.
func Recover(digest [32]byte, sig []byte) (common.Address, error) {
	if len(sig) != SignatureLength {
		return common.Address{}, refuse(ErrSignatureLength, "signature must be 65 bytes")
	}
	var rsv [SignatureLength]byte
	copy(rsv[:], sig)
	switch rsv[64] {
	case 0, 1:
	case 27, 28:
		rsv[64] -= 27
	default:
		return common.Address{}, refuse(ErrBadV, "signature v must be 27 or 28 (or 0 or 1)")
	}
	r := new(big.Int).SetBytes(rsv[:32])
	s := new(big.Int).SetBytes(rsv[32:64])
	if !crypto.ValidateSignatureValues(rsv[64], r, s, true) {
		if crypto.ValidateSignatureValues(rsv[64], r, s, false) {
			return common.Address{}, refuse(ErrHighS, "signature s is not in the lower half of the curve order")
		}
		return common.Address{}, refuse(ErrRecover, "signature r or s is out of range")
	}
	pub, err := crypto.Ecrecover(digest[:], rsv[:])
	if err != nil || len(pub) != 65 {
		return common.Address{}, refuse(ErrRecover, "no public key recovers from the signature")
	}
	return common.Address(crypto.Keccak256Hash(pub[1:]).Bytes()[12:]), nil
}

// Verify reports whether sig is a valid signature of digest by want. It returns the
// error of Recover, or an invalid_signature error naming both addresses when another
// key signed.
func Verify(digest [32]byte, sig []byte, want common.Address) error {
	got, err := Recover(digest, sig)
	if err != nil {
		return err
	}
	if got != want {
		return veriland.Errorf(veriland.CodeInvalidSignature, "recovered %s but expected %s", got.Hex(), want.Hex()).
			WithMeta("recovered", got.Hex())
	}
	return nil
}

// Sign signs digest with key and returns r ‖ s ‖ v with v 27 or 28, the form wallets
// produce. s is always in the lower half of the curve order.
func Sign(key *ecdsa.PrivateKey, digest [32]byte) ([]byte, error) {
	if key == nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "no signing key")
	}
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "signing failed").WithCause(err)
	}
	sig[64] += 27
	return sig, nil
}

// Address returns the Ethereum address of key.
func Address(key *ecdsa.PrivateKey) common.Address {
	return crypto.PubkeyToAddress(key.PublicKey)
}

func refuse(cause error, msg string) *veriland.Error {
	return &veriland.Error{Code: veriland.CodeInvalidSignature, Message: msg, Pointer: "", Cause: cause}
}
