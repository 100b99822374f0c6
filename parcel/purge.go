package parcel

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
)

// PurgeSandboxAccount erases every SANDBOX parcel of account and everything hanging
// off it, for the sandbox reset (SPEC S10): the parcel records, their certificate
// versions and hash index entries, their tokens, the status-list entries of their
// hashes, their transfers with their transfer index and owner-deadline entries, their
// boundaries, their anchoring jobs and every parcel index entry (account, each notary
// the parcel ever had, the owner's bound wallet, environment-wide). It returns how many stored keys it deleted, index entries
// included. No event is emitted: the caller audits the reset as a whole.
//
// A transfer always belongs to its parcel's account (RequestTransfer copies it from
// the parcel, and in SANDBOX no principal sees another account's parcel), so erasing
// the account's parcels erases every transfer the account made.
//
// Everything is deleted in one storage transaction, so a reset never leaves half a
// parcel behind: a sandbox account holds few parcels (the rate limit bounds them).
// The status list and the anchoring queue are keyed by time, so both are scanned in
// full (SANDBOX's only). A token whose anchoring is in flight while it is erased is
// simply not updated when the anchor answers (settle ignores a missing token).
//
// Errors: forbidden *veriland.Error when ctx carries a principal of another
// environment than SANDBOX or of another account (nothing is deleted);
// validation_failed for an empty account; otherwise the storage error.
func (s *Service) PurgeSandboxAccount(ctx context.Context, account string) (int, error) {
	if err := veriland.CheckSandboxErasure(ctx, account); err != nil {
		return 0, err
	}
	if s.Store == nil {
		return 0, errors.New("parcel: Service.Store is nil")
	}
	n := 0
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		var err error
		n, err = purgeAccount(repo(tx, veriland.Sandbox), account)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// purger deletes keys inside one transaction and counts those that existed.
type purger struct {
	r repository
	n int
}

func (p *purger) del(bucket string, key []byte) error {
	b := p.r.bucket(bucket)
	if _, err := p.r.tx.Get(b, key); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		return err
	}
	if err := p.r.tx.Delete(b, key); err != nil {
		return err
	}
	p.n++
	return nil
}

// purgeAccount deletes account's parcels in r (see PurgeSandboxAccount).
func purgeAccount(r repository, account string) (int, error) {
	p := &purger{r: r}
	prefix := []byte("a\x00" + account + "\x00")
	var parcelIDs []string
	err := r.tx.Scan(r.bucket(bucketIndex), storage.Range{Prefix: prefix}, func(k, _ []byte) error {
		if len(k) > len(prefix)+8 {
			parcelIDs = append(parcelIDs, string(k[len(prefix)+8:]))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("parcel: scanning account %s's parcels: %w", account, err)
	}
	hashes := map[common.Hash]bool{}
	tokens := map[string]bool{}
	for _, id := range parcelIDs {
		if err := p.parcel(id, account, hashes, tokens); err != nil {
			return 0, err
		}
	}
	// The account's own index entries, whichever parcel they name (an entry whose
	// parcel record is already gone included).
	if err := p.scanDelete(bucketIndex, storage.Range{Prefix: prefix}, func([]byte) bool { return true }); err != nil {
		return 0, err
	}
	if len(hashes) > 0 {
		err := p.scanDelete(bucketStatuses, storage.Range{}, func(k []byte) bool {
			return len(k) == 8+common.HashLength && hashes[common.BytesToHash(k[8:])]
		})
		if err != nil {
			return 0, err
		}
	}
	if len(tokens) > 0 {
		n, err := chainjob.DeleteWhere(p.r.tx, p.r.env, func(kind, ref string) bool {
			return kind == JobTitle && tokens[ref]
		})
		if err != nil {
			return 0, err
		}
		p.n += n
	}
	return p.n, nil
}

// parcel deletes parcel id of account with its versions, hashes, tokens, transfers,
// boundary and index entries, and adds its hashes and token ids to the sets.
func (p *purger) parcel(id, account string, hashes map[common.Hash]bool, tokens map[string]bool) error {
	r := p.r
	raw, err := r.tx.Get(r.bucket(bucketParcels), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil // a dangling index entry: removed with the account's index
	}
	if err != nil {
		return err
	}
	var rec parcelRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return fmt.Errorf("parcel: decoding %s: %w", id, err)
	}
	if rec.Account != account {
		return nil // never another account's record, whatever the index says
	}
	notaries := map[string]bool{rec.Notary: true}
	if rec.TransferNotary != "" {
		notaries[rec.TransferNotary] = true
	}
	if rec.TokenID != "" {
		tokens[rec.TokenID] = true
	}
	versions, err := r.versions(id)
	if err != nil {
		return err
	}
	for _, vr := range versions {
		notaries[vr.Notary] = true
		tokens[vr.TokenID] = true
		if h, err := ParseHash(vr.Hash); err == nil {
			hashes[h] = true
			if err := p.del(bucketHashes, h[:]); err != nil {
				return err
			}
		}
		if err := p.del(bucketVersions, versionKey(id, vr.Version)); err != nil {
			return err
		}
	}
	for t := range tokens {
		if err := p.del(bucketTokens, []byte(t)); err != nil {
			return err
		}
	}
	// Transfers, through the parcel's transfer index.
	trPrefix := []byte(id + "\x00")
	var trKeys [][]byte
	err = r.tx.Scan(r.bucket(bucketTrIndex), storage.Range{Prefix: trPrefix}, func(k, _ []byte) error {
		trKeys = append(trKeys, append([]byte(nil), k...))
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range trKeys {
		if len(k) > len(trPrefix)+8 {
			trID := string(k[len(trPrefix)+8:])
			if tr, err := r.transfer(trID); err == nil {
				notaries[tr.Notary] = true
				if oc := tr.OwnerConsent; oc != nil && oc.Deadline != nil {
					if err := p.del(bucketDeadlines, deadlineKey(*oc.Deadline, trID)); err != nil {
						return err
					}
				}
			}
			if err := p.del(bucketTransfers, []byte(trID)); err != nil {
				return err
			}
		}
		if err := p.del(bucketTrIndex, k); err != nil {
			return err
		}
	}
	if err := p.del(bucketBoundaries, []byte(id)); err != nil {
		return err
	}
	// Index entries: the environment's, the account's and one per notary the parcel
	// ever had (a completed transfer adds the new notary's and keeps the old one's).
	suffix := binary.BigEndian.AppendUint64(nil, uint64(max(rec.CreatedAt.UnixNano(), 0)))
	suffix = append(suffix, id...)
	keys := [][]byte{append([]byte("e\x00"), suffix...), append([]byte("a\x00"+rec.Account+"\x00"), suffix...)}
	for n := range notaries {
		keys = append(keys, append([]byte("n\x00"+n+"\x00"), suffix...))
	}
	// The bound owner wallet's entry (GET /v1/me/parcels); a previous owner's went when
	// its transfer completed.
	if rec.Owner.bound() {
		keys = append(keys, append(walletPrefix(rec.Owner.WalletAddress), suffix...))
	}
	for _, k := range keys {
		if err := p.del(bucketIndex, k); err != nil {
			return err
		}
	}
	return p.del(bucketParcels, []byte(id))
}

// scanDelete deletes the keys of bucket in rg that doom reports true for.
func (p *purger) scanDelete(bucket string, rg storage.Range, doom func(k []byte) bool) error {
	var keys [][]byte
	err := p.r.tx.Scan(p.r.bucket(bucket), rg, func(k, _ []byte) error {
		if doom(k) {
			keys = append(keys, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := p.r.tx.Delete(p.r.bucket(bucket), k); err != nil {
			return err
		}
		p.n++
	}
	return nil
}
