package parcel

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel/landtitle"
)

// TitleChain is one environment's LandTitle contract (SPEC S14), as
// *landtitle.Contract implements it: a chain-job worker mints and burns through it,
// never a request.
type TitleChain interface {
	// ChainID is the chain's id.
	ChainID() uint64
	// Address is the contract's address.
	Address() common.Address
	// Registry is the account that mints and burns, and holds the titles of owners
	// without a wallet (REGISTRY_CUSTODY).
	Registry() common.Address
	// Title reads a token's state from the chain.
	Title(ctx context.Context, tokenID *big.Int) (landtitle.Title, error)
	// Mint mints tokenID to holder unless the chain shows it minted already (then it
	// returns the original mint's receipt); a conflicting token wraps
	// landtitle.ErrConflict.
	Mint(ctx context.Context, holder common.Address, tokenID *big.Int, certificateHash common.Hash) (landtitle.Receipt, error)
	// Burn burns tokenID unless it is burned already (then it returns the original
	// burn's receipt); a token never minted wraps landtitle.ErrNotMinted.
	Burn(ctx context.Context, tokenID *big.Int) (landtitle.Receipt, error)
}

func (s *Service) titleChain(env veriland.Environment) TitleChain {
	return s.Titles[env]
}

// newToken is the token of version v of rec, certified at now, before any chain
// work: PENDING when env has a chain, else DISABLED.
func (s *Service) newToken(env veriland.Environment, rec *parcelRecord, v uint64, tokenID, hash string, now time.Time) *Token {
	tok := &Token{
		TokenID: tokenID, Standard: TokenStandard, Locked: true, MetadataHash: hash,
		ParcelID: rec.ID, Version: v, City: rec.City, AreaM2: rec.AreaM2, IssuedAt: now,
		HolderKind: HolderRegistryCustody, Status: TokenDisabled, ChainID: s.Issuer.ChainID,
		Anchor: attestation.AnchorState{Status: attestation.AnchorDisabled},
	}
	if rec.Owner.bound() {
		tok.Holder, tok.HolderKind = rec.Owner.WalletAddress, HolderOwnerWallet
	}
	if c := s.titleChain(env); c != nil {
		tok.ChainID, tok.Contract = c.ChainID(), c.Address().Hex()
		if tok.HolderKind == HolderRegistryCustody {
			tok.Holder = c.Registry().Hex()
		}
		tok.Status, tok.Anchor.Status = TokenPending, attestation.AnchorPending
	}
	return tok
}

// upgradeToken reads a token stored before land titles went on chain (status ACTIVE,
// mintedAt the registry's time, owner a pseudonymous reference): issuedAt takes the
// registry's time; StartTitles then queues it for minting.
func upgradeToken(t *Token) {
	if t.IssuedAt.IsZero() && t.MintedAt != nil {
		t.IssuedAt, t.MintedAt = *t.MintedAt, nil
	}
	if t.HolderKind == "" {
		t.HolderKind = HolderRegistryCustody
	}
}

// settleMinted records a mint that reached the chain.
func (t *Token) settleMinted(txHash string, block uint64, now time.Time) {
	t.Status, t.Error = TokenMinted, ""
	t.MintTx, t.MintBlock, t.MintedAt = txHash, block, &now
	bn := block
	t.Anchor = attestation.AnchorState{Status: attestation.AnchorAnchored, TxHash: txHash, BlockNumber: &bn}
}

// settleBurned records a burn: on chain (txHash set) or of a token that never
// reached it.
func (t *Token) settleBurned(txHash string, now time.Time) {
	t.Status, t.Error = TokenBurned, ""
	t.BurnTx, t.BurnedAt = txHash, &now
	if t.MintTx == "" && t.Anchor.Status != attestation.AnchorDisabled {
		t.Anchor = attestation.AnchorState{Status: attestation.AnchorFailed}
	}
}
