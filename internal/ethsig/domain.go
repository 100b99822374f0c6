package ethsig

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// DomainType is the EIP-712 type string of every veriland domain.
const DomainType = "EIP712Domain(string name,string version,uint256 chainId)"

// Domain is an EIP-712 domain with name, version and chainId only: the shape of every
// veriland domain ("Identity Consent", "Identity Liveness", "Identity Attestation").
// It is fixed by configuration, never taken from a client.
type Domain struct {
	Name    string
	Version string
	ChainID uint64
}

// Separator returns the EIP-712 domain separator
// keccak256(typeHash ‖ keccak256(name) ‖ keccak256(version) ‖ chainId).
func (d Domain) Separator() [32]byte {
	return StructHash(domainTypeHash(), HashString(d.Name), HashString(d.Version), Uint(d.ChainID))
}

// domainTypeHash is keccak256(DomainType), spelled out to save a keccak per separator;
// a test checks it.
func domainTypeHash() [32]byte {
	return [32]byte{
		0xc2, 0xf8, 0x78, 0x71, 0x76, 0xb8, 0xac, 0x6b, 0xf7, 0x21, 0x5b, 0x4a, 0xdc, 0xc1, 0xe0, 0x69,
		0xbf, 0x4a, 0xb8, 0x2d, 0x9a, 0xb1, 0xdf, 0x05, 0xa5, 0x7a, 0x91, 0xd4, 0x25, 0x93, 0x5b, 0x6e,
	}
}

// DomainFields lists the members of DomainType, for apitypes.Types["EIP712Domain"].
func DomainFields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "name", Type: "string"},
		{Name: "version", Type: "string"},
		{Name: "chainId", Type: "uint256"},
	}
}

// APITypes returns d as go-ethereum's apitypes domain, for eth_signTypedData_v4
// objects.
func (d Domain) APITypes() apitypes.TypedDataDomain {
	return apitypes.TypedDataDomain{
		Name:    d.Name,
		Version: d.Version,
		ChainId: (*math.HexOrDecimal256)(new(big.Int).SetUint64(d.ChainID)),
	}
}
