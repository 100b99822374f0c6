package attestation

import (
	"context"
	"regexp"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

var txHashPattern = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)

// ConfirmAnchor records that attestation id's digest was confirmed on chain by an
// outside watcher (the inbound anchor.confirmed webhook, SPEC S8): the anchor state
// becomes ANCHORED with txHash and blockNumber, whatever it was. Confirming again
// with the same values is a no-op.
//
// Errors: validation_failed for a malformed txHash, not_found for an unknown id.
func (s *Service) ConfirmAnchor(ctx context.Context, env veriland.Environment, id, txHash string, blockNumber uint64) (*Attestation, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	if !txHashPattern.MatchString(txHash) {
		return nil, veriland.Invalid("/data/txHash", "txHash must be 0x and 64 hex digits")
	}
	var out *Attestation
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r, err := loadRecord(tx, env, id)
		if err != nil {
			return err
		}
		bn := blockNumber
		r.Attestation.Anchor = AnchorState{Status: AnchorAnchored, TxHash: txHash, BlockNumber: &bn}
		out = r.Attestation
		return saveRecord(tx, env, r)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
