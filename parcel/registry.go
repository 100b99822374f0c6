package parcel

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// VerifyHash answers GET /v1/registry/verify/{hash} (public) for env: whether the hash
// names a certificate version this registry issued, its status and public facts,
// with the parcel's version history — never the owner's name or id_doc. An unknown
// hash is not_found.
func (s *Service) VerifyHash(ctx context.Context, env veriland.Environment, hash common.Hash) (*Verification, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	var out *Verification
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		vr, err := r.byHash(hash)
		if err != nil {
			return err
		}
		tok, err := r.token(vr.TokenID)
		if err != nil {
			return err
		}
		vs, err := r.versions(vr.ParcelID)
		if err != nil {
			return err
		}
		pr, err := r.parcel(vr.ParcelID)
		if err != nil {
			return err
		}
		out = &Verification{
			Authentic: true, Status: vr.Status, ParcelID: vr.ParcelID, Version: vr.Version,
			CertifiedAt: vr.CertifiedAt, Notary: vr.Notary, City: vr.City, TokenID: vr.TokenID,
			Anchor: tok.Anchor, Hash: vr.Hash, History: publicVersions(vs),
			OwnerWallet: vr.OwnerWallet, OwnerBinding: vr.OwnerBinding, Token: tok,
			GPS: vr.GPS, AreaM2: vr.AreaM2, Boundary: pr.Boundary,
		}
		return nil
	})
	return out, err
}

// Statuses returns env's certificate hashes that stopped being CURRENT at or after
// since (zero: all of them, a complete list with since null), signed by the issuer
// key (GET /v1/registry/statuses, public).
func (s *Service) Statuses(ctx context.Context, env veriland.Environment, since time.Time) (*StatusList, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	l := &StatusList{ChainID: s.Issuer.ChainID, Environment: env, IssuedAt: s.now()}
	if !since.IsZero() {
		sc := since.UTC().Truncate(time.Second)
		l.Since = &sc
	}
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		l.Entries, err = repo(tx, env).statuses(since)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := SignStatusList(l, s.Issuer.Key); err != nil {
		return nil, err
	}
	return l, nil
}

// Token returns a token record of env (GET /v1/tokens/{tokenId}, public; its
// Metadata is the ERC-721 metadata JSON). tokenId is a decimal uint256; anything else,
// or an unknown id, is not_found.
func (s *Service) Token(ctx context.Context, env veriland.Environment, tokenID string) (*Token, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if !validTokenID(tokenID) {
		return nil, notFound("token", tokenID)
	}
	var out *Token
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		out, err = repo(tx, env).token(tokenID)
		return err
	})
	return out, err
}

func validTokenID(s string) bool {
	if s == "" || len(s) > 78 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
