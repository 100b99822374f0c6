package ethsig

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// NewTypedData returns a ready eth_signTypedData_v4 object for one flat struct type:
// the domain and its EIP712Domain type, the primary type and its members, and message.
// Message values should be strings, "0x" hex strings for bytesN (Bytes32Value) and
// *big.Int for integers (UintValue): the forms apitypes hashes and JSON clients read.
func NewTypedData(d Domain, primaryType string, fields []apitypes.Type, message map[string]any) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": DomainFields(),
			primaryType:    fields,
		},
		PrimaryType: primaryType,
		Domain:      d.APITypes(),
		Message:     message,
	}
}

// Bytes32Value returns h as a typed-data message value: "0x" + 64 lower-case hex.
func Bytes32Value(h [32]byte) string { return hexutil.Encode(h[:]) }

// UintValue returns v as a typed-data message value; it marshals as a JSON number.
func UintValue(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

// APIDigest hashes td with go-ethereum's generic apitypes encoder. It is the slow
// reference the hand-written encoders are tested against, and the way to check a
// client-supplied object.
func APIDigest(td apitypes.TypedData) (digest, domainSeparator, structHash [32]byte, err error) {
	// apitypes walks client-shaped maps by reflection; whatever it trips on is bad
	// input, never a reason to crash.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ethsig: typed data cannot be hashed: %v", r)
		}
	}()
	ds, err := td.HashStruct("EIP712Domain", td.Domain.Map())
	if err != nil {
		return digest, domainSeparator, structHash, err
	}
	sh, err := td.HashStruct(td.PrimaryType, td.Message)
	if err != nil {
		return digest, domainSeparator, structHash, err
	}
	domainSeparator, structHash = [32]byte(ds), [32]byte(sh)
	return TypedDataDigest(domainSeparator, structHash), domainSeparator, structHash, nil
}
