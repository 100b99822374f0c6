package ethsig

import (
	"bytes"
	"crypto/ecdsa"
	"errors"

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
	rsv, err := checkSignature(sig)
	if err != nil {
		return common.Address{}, err
	}
	pub, err := recoverKey(digest, &rsv)
	if err != nil {
		return common.Address{}, err
	}
	return keyAddress(pub), nil
}

// checkSignature returns sig as r ‖ s ‖ v with v 0 or 1, or the refusal of Recover.
func checkSignature(sig []byte) (rsv [SignatureLength]byte, err error) {
	if len(sig) != SignatureLength {
		return rsv, refuse(ErrSignatureLength, "signature must be 65 bytes")
	}
	copy(rsv[:], sig)
	switch rsv[64] {
	case 0, 1:
	case 27, 28:
		rsv[64] -= 27
	default:
		return rsv, refuse(ErrBadV, "signature v must be 27 or 28 (or 0 or 1)")
	}
	r, s := (*[32]byte)(rsv[:32]), (*[32]byte)(rsv[32:64])
	switch {
	case !inScalarRange(r) || !inScalarRange(s):
		return rsv, refuse(ErrRecover, "signature r or s is out of range")
	case bytes.Compare(s[:], secp256k1HalfN[:]) > 0:
		return rsv, refuse(ErrHighS, "signature s is not in the lower half of the curve order")
	}
	return rsv, nil
}

// recoverKey returns the 65-byte uncompressed public key that rsv recovers to. With
// cgo this is libsecp256k1's recovery.
func recoverKey(digest [32]byte, rsv *[SignatureLength]byte) ([]byte, error) {
	pub, err := crypto.Ecrecover(digest[:], rsv[:])
	if err != nil || len(pub) != 65 {
		return nil, refuse(ErrRecover, "no public key recovers from the signature")
	}
	return pub, nil
}

// keyAddress returns the address of a 65-byte uncompressed public key.
func keyAddress(pub []byte) common.Address {
	h := crypto.Keccak256Hash(pub[1:])
	return common.Address(h[12:])
}

// secp256k1N and secp256k1HalfN are the order n of secp256k1 and n/2 (rounded down),
// big-endian: the bounds crypto.ValidateSignatureValues checks r and s against, as
// bytes so that Recover needs no big.Int. TestScalarBounds checks them.
var (
	secp256k1N = [32]byte{
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
		0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
	}
	secp256k1HalfN = [32]byte{
		0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0,
	}
)

// inScalarRange reports whether the big-endian x is in [1, n-1].
func inScalarRange(x *[32]byte) bool {
	return *x != [32]byte{} && bytes.Compare(x[:], secp256k1N[:]) < 0
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
