package ethsig

import (
	"encoding/binary"

	"github.com/ethereum/go-ethereum/crypto"
)

// The helpers below are the pieces of EIP-712 encodeData for the fixed layouts that
// veriland signs. Hand-written encoders built on them are checked against go-ethereum's
// signer/core/apitypes in the tests of each package that uses them.

// Keccak returns keccak256 of the concatenation of data.
func Keccak(data ...[]byte) [32]byte {
	return crypto.Keccak256Hash(data...)
}

// HashString returns keccak256 of s: the EIP-712 encoding of a string member.
func HashString(s string) [32]byte {
	return crypto.Keccak256Hash([]byte(s))
}

// HashStrings returns the EIP-712 encoding of a string[] member: keccak256 of the
// concatenated keccak256 of each item, in order. The empty list hashes to keccak256 of
// nothing (0xc5d2…a470).
func HashStrings(items []string) [32]byte {
	var small [8 * 32]byte
	buf := small[:0]
	if len(items) > len(small)/32 {
		buf = make([]byte, 0, 32*len(items))
	}
	for _, it := range items {
		h := HashString(it)
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf)
}

// Uint returns v as a 32-byte big-endian word: the EIP-712 encoding of any uintN member
// whose value fits in 64 bits.
func Uint(v uint64) [32]byte {
	var w [32]byte
	binary.BigEndian.PutUint64(w[24:], v)
	return w
}

// StructHash returns keccak256(typeHash ‖ fields...), the EIP-712 hashStruct of a
// struct whose members are already encoded as 32-byte words, in declaration order.
func StructHash(typeHash [32]byte, fields ...[32]byte) [32]byte {
	var small [12 * 32]byte
	buf := small[:0]
	if len(fields)+1 > len(small)/32 {
		buf = make([]byte, 0, 32*(len(fields)+1))
	}
	buf = append(buf, typeHash[:]...)
	for i := range fields {
		buf = append(buf, fields[i][:]...)
	}
	return crypto.Keccak256Hash(buf)
}
