package ethsig

import (
	"strconv"

	"github.com/ethereum/go-ethereum/crypto"
)

// TypedDataDigest returns the EIP-712 signing digest
// keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ structHash).
func TypedDataDigest(domainSeparator, structHash [32]byte) [32]byte {
	var buf [66]byte
	buf[0], buf[1] = 0x19, 0x01
	copy(buf[2:34], domainSeparator[:])
	copy(buf[34:], structHash[:])
	return crypto.Keccak256Hash(buf[:])
}

// PersonalDigest returns the EIP-191 (version 0x45, personal_sign) digest of msg:
// keccak256("\x19Ethereum Signed Message:\n" ‖ decimal len(msg) ‖ msg).
func PersonalDigest(msg []byte) [32]byte {
	prefix := make([]byte, 0, 48)
	prefix = append(prefix, "\x19Ethereum Signed Message:\n"...)
	prefix = strconv.AppendInt(prefix, int64(len(msg)), 10)
	return crypto.Keccak256Hash(prefix, msg)
}
