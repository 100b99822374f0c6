package identity

import (
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

const pkhPrefix = "did:pkh:eip155:"

// PKHDID returns the did:pkh of an Ethereum account, "did:pkh:eip155:<chainId>:<address>",
// with the address in lower case. It names holders who signed in with a wallet that no
// identity is bound to. address must be a 0x address; it is not validated here.
func PKHDID(chainID uint64, address string) string {
	return pkhPrefix + strconv.FormatUint(chainID, 10) + ":" + strings.ToLower(address)
}

// ParsePKHDID parses a did:pkh of an eip155 account and returns its chain id and
// lower-case address. ok is false for anything else, including a chain id of 0, one
// with leading zeros, or an address that is not 0x and 40 hex digits (any case; the
// EIP-55 checksum is not required).
func ParsePKHDID(did string) (chainID uint64, address string, ok bool) {
	rest, found := strings.CutPrefix(did, pkhPrefix)
	if !found {
		return 0, "", false
	}
	chain, addr, found := strings.Cut(rest, ":")
	if !found || chain == "" || chain[0] == '0' || len(chain) > 20 {
		return 0, "", false
	}
	for i := 0; i < len(chain); i++ {
		if chain[i] < '0' || chain[i] > '9' {
			return 0, "", false
		}
	}
	id, err := strconv.ParseUint(chain, 10, 64)
	if err != nil {
		return 0, "", false
	}
	if !strings.HasPrefix(addr, "0x") || !common.IsHexAddress(addr) {
		return 0, "", false
	}
	return id, strings.ToLower(addr), true
}
