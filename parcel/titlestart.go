package parcel

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

const metaTitlesContract = "titles_contract"

// StartTitles brings env's token records in line with env's chain (Titles[env]) when
// a server starts, and returns how many tokens it queued for minting:
//   - tokens stored before land titles went on chain (ACTIVE), and DISABLED tokens of
//     current versions once the environment has a chain, are queued for minting (to
//     the owner's bound wallet, else to the registry's custody);
//   - with fresh, every current token is queued again: a chain that starts empty at
//     each start (SANDBOX's in-process simulated chain) then shows the registry's
//     current titles again, each with its new mint transaction;
//   - without a chain, ACTIVE tokens become DISABLED (BURNED once closed).
//
// The scan runs only when the contract differs from the one of the last call (kept
// in storage), or with fresh. Safe on several replicas at once: each token is
// updated in its own transaction, and a title job is idempotent.
func (s *Service) StartTitles(ctx context.Context, env veriland.Environment, fresh bool) (int, error) {
	if err := s.check(env); err != nil {
		return 0, err
	}
	c := s.titleChain(env)
	contract := ""
	if c != nil {
		contract = c.Address().Hex()
	}
	var ids []string
	upToDate := false
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		if !fresh {
			raw, err := tx.Get(r.bucket(bucketMeta), []byte(metaTitlesContract))
			if err == nil && string(raw) == contract {
				upToDate = true // synced with this contract already: no scan, no write
				return nil
			}
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
		}
		return tx.Scan(r.bucket(bucketTokens), storage.Range{}, func(k, v []byte) error {
			var t Token
			if json.Unmarshal(v, &t) == nil && needsStart(&t, c != nil, fresh) {
				ids = append(ids, string(k))
			}
			return nil
		})
	})
	if err != nil || upToDate {
		return 0, err
	}
	queued := 0
	for _, id := range ids {
		err := s.Store.Update(ctx, func(tx storage.Tx) error {
			r := repo(tx, env)
			tok, err := r.token(id)
			if err != nil {
				return err
			}
			if !needsStart(tok, c != nil, fresh) {
				return nil
			}
			now := s.now()
			closed := tok.BurnRequestedAt != nil || tok.Status == TokenBurned
			if c == nil {
				if closed {
					tok.settleBurned("", now)
				} else {
					tok.Status, tok.Anchor = TokenDisabled, attestation.AnchorState{Status: attestation.AnchorDisabled}
				}
				return r.putToken(tok)
			}
			vr, err := r.version(tok.ParcelID, tok.Version)
			if err != nil {
				return err
			}
			tok.ChainID, tok.Contract = c.ChainID(), c.Address().Hex()
			tok.Holder, tok.HolderKind = c.Registry().Hex(), HolderRegistryCustody
			if vr.OwnerWallet != "" {
				tok.Holder, tok.HolderKind = vr.OwnerWallet, HolderOwnerWallet
			}
			tok.Status, tok.Error, tok.MintTx, tok.MintBlock, tok.MintedAt = TokenPending, "", "", 0, nil
			tok.Anchor = attestation.AnchorState{Status: attestation.AnchorPending}
			vr.TokenStatus = tok.Status
			if err := r.putVersion(vr); err != nil {
				return err
			}
			if err := r.putToken(tok); err != nil {
				return err
			}
			queued++
			return enqueueTitle(r, id, now)
		})
		if err != nil {
			return queued, err
		}
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		var old [][]byte
		if err := tx.Scan(r.bucket(bucketLegacyJobs), storage.Range{}, func(k, _ []byte) error {
			old = append(old, append([]byte(nil), k...))
			return nil
		}); err != nil {
			return err
		}
		for _, k := range old {
			if err := tx.Delete(r.bucket(bucketLegacyJobs), k); err != nil {
				return err
			}
		}
		return tx.Put(r.bucket(bucketMeta), []byte(metaTitlesContract), []byte(contract))
	})
	return queued, err
}

// needsStart reports whether StartTitles changes t.
func needsStart(t *Token, chain, fresh bool) bool {
	closed := t.BurnRequestedAt != nil || t.Status == TokenBurned
	switch {
	case t.Status == tokenLegacyActive:
		return true
	case !chain:
		return false
	case closed:
		return false
	case t.Status == TokenDisabled:
		return true
	default:
		return fresh
	}
}
