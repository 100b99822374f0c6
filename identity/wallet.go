package identity

import (
	"context"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
)

// ParseWalletAddress checks an Ethereum address as SPEC S3 accepts it — "0x" and 40
// hex digits, where a mixed-case address must carry a valid EIP-55 checksum — and
// returns it in lower case. Errors are validation_failed without a pointer.
func ParseWalletAddress(s string) (string, error) {
	hex, ok := strings.CutPrefix(s, "0x")
	if !ok || len(hex) != 40 {
		return "", veriland.Errorf(veriland.CodeValidationFailed, "must be 0x followed by 40 hex digits")
	}
	var upper, lower bool
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			return "", veriland.Errorf(veriland.CodeValidationFailed, "must be 0x followed by 40 hex digits")
		}
	}
	if upper && lower && common.HexToAddress(s).Hex() != s {
		return "", veriland.Errorf(veriland.CodeValidationFailed, "mixed-case address has an invalid EIP-55 checksum")
	}
	return strings.ToLower(s), nil
}

// ByWallet returns the identity whose wallet address is address (any case; the
// checksum is not checked, as callers pass addresses they recovered themselves).
// The wallet login maps a signer to its identity DID with it. Errors: not_found.
func (s *Service) ByWallet(ctx context.Context, env veriland.Environment, address string) (*Identity, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if !common.IsHexAddress(address) || !strings.HasPrefix(address, "0x") {
		return nil, veriland.Errorf(veriland.CodeNotFound, "no identity for this wallet")
	}
	return s.byIndex(ctx, env, bucketWallets, []byte(strings.ToLower(address)), "no identity for this wallet")
}
