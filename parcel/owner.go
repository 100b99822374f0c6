package parcel

import (
	"context"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// IdentityLookup finds the identity bound to a wallet (identity.Service.ByWallet
// satisfies it): not_found when there is none.
type IdentityLookup interface {
	ByWallet(ctx context.Context, env veriland.Environment, address string) (*identity.Identity, error)
}

// walletDID returns the DID of the ACTIVE identity whose wallet is wallet in env, ""
// when there is none (or no IdentityLookup is configured). It reads its own
// transaction, so callers resolve wallets before their write transaction.
func (s *Service) walletDID(ctx context.Context, env veriland.Environment, wallet string) (string, error) {
	if wallet == "" || s.Identities == nil {
		return "", nil
	}
	id, err := s.Identities.ByWallet(ctx, env, wallet)
	switch {
	case veriland.IsCode(err, veriland.CodeNotFound):
		return "", nil
	case err != nil:
		return "", err
	case id == nil || id.Status != identity.StatusActive || !strings.EqualFold(id.WalletAddress, wallet):
		return "", nil
	}
	return id.DID, nil
}

// bind marks o's wallet as bound by the notary that certifies or approves: NONE
// without a wallet, IDENTITY_VERIFIED when did (the wallet's ACTIVE identity) is
// known, else NOTARY_VERIFIED.
func bind(o *OwnerView, did string) {
	switch {
	case o.WalletAddress == "":
		o.Binding, o.DID = BindingNone, ""
	case did != "":
		o.Binding, o.DID = BindingIdentityVerified, did
	default:
		o.Binding, o.DID = BindingNotaryVerified, ""
	}
}

// bound reports whether o has a wallet that a notary bound to the owner: the wallet
// that must sign a transfer of the parcel.
func (o *OwnerView) bound() bool {
	return o.WalletAddress != "" && (o.Binding == BindingNotaryVerified || o.Binding == BindingIdentityVerified)
}

// ownerOf returns the owner view of a request's owner before any notary bound it.
func (s *Service) ownerOf(o *Owner) OwnerView {
	return OwnerView{IDDocHash: s.IDDocHash(o.IDDoc), IDDocLast4: last4(o.IDDoc),
		WalletAddress: strings.ToLower(o.WalletAddress), Binding: BindingNone}
}

// separationOfDuties is the refusal of a principal that would complete a decision it
// asked for itself (SPEC S13): forbidden, meta.reason "separation_of_duties".
func separationOfDuties(format string, args ...any) *veriland.Error {
	return forbidden(format, args...).WithMeta("reason", "separation_of_duties")
}
