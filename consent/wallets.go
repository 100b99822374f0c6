package consent

import (
	"context"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// IdentityGetter is the part of identity.Service that IdentityWallets needs.
type IdentityGetter interface {
	Get(ctx context.Context, env veriland.Environment, did string) (*identity.Identity, error)
}

// IdentityWallets adapts the identity domain to Wallets. Only an ACTIVE identity can
// consent: for any other status WalletOf returns business_rule_violation (422) with the identity's
// status in Meta["identityStatus"].
type IdentityWallets struct {
	Identities IdentityGetter
}

// WalletOf implements Wallets.
func (w IdentityWallets) WalletOf(ctx context.Context, env veriland.Environment, subject string) (string, error) {
	return walletOf(w.Identities.Get(ctx, env, subject))
}

// walletOf applies IdentityWallets' rule to the result of an identity lookup.
func walletOf(id *identity.Identity, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if id.Status != identity.StatusActive {
		return "", veriland.Errorf(veriland.CodeBusinessRuleViolation, "the subject's identity is %s, not ACTIVE", id.Status).
			WithMeta("identityStatus", string(id.Status))
	}
	return id.WalletAddress, nil
}
