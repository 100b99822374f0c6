package parcel

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// OpenTransfers returns the open transfers in status (PENDING_NOTARY or PENDING_OWNER)
// that p may read, newest first (creation time, then id, both descending), a page of
// at most limit (0 means DefaultListLimit) after cursor, and the cursor of the next
// page ("" on the last): GET /v1/transfers?status=…. A notary sees the open transfers that name
// it, whichever notary certified the parcel (GET /v1/parcels lists only the parcels
// a notary certifies); an account's token its account's; an admin its environment's
// (in SANDBOX, its account's).
//
// It reads every transfer of the environment (open transfers are at most one per
// parcel; closed ones are skipped): a store that outgrows a scan needs an index by
// status and notary.
func (s *Service) OpenTransfers(ctx context.Context, p veriland.Principal, status TransferStatus, cursor string, limit int) ([]*Transfer, string, error) {
	if err := s.check(p.Env); err != nil {
		return nil, "", err
	}
	if !status.Open() {
		return nil, "", veriland.Errorf(veriland.CodeValidationFailed, "status must be PENDING_NOTARY or PENDING_OWNER").WithMeta("parameter", "status")
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, "", veriland.Errorf(veriland.CodeValidationFailed, "limit must be 1..%d", MaxListLimit).WithMeta("parameter", "limit")
	}
	after, err := decodeTransferCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	if p.Role != veriland.RoleAdmin && p.Role != veriland.RoleNotary && p.Account == "" {
		return []*Transfer{}, "", nil
	}
	var open []*transferRecord
	err = s.Store.View(ctx, func(tx storage.Tx) error {
		open = open[:0]
		r := repo(tx, p.Env)
		return tx.Scan(r.bucket(bucketTransfers), storage.Range{}, func(_, v []byte) error {
			var tr transferRecord
			if err := json.Unmarshal(v, &tr); err != nil {
				return err
			}
			upgradeTransfer(&tr)
			if tr.Status == status && canReadTransfer(p, &tr) && (after == nil || transferKey(&tr) < string(after)) {
				open = append(open, &tr)
			}
			return nil
		})
	})
	if err != nil {
		return nil, "", err
	}
	slices.SortFunc(open, func(a, b *transferRecord) int { return strings.Compare(transferKey(b), transferKey(a)) })
	next := ""
	if len(open) > limit {
		open = open[:limit]
		next = base64.RawURLEncoding.EncodeToString([]byte(transferKey(open[limit-1])))
	}
	out := make([]*Transfer, 0, len(open))
	for _, tr := range open {
		out = append(out, s.transferView(p.Env, tr))
	}
	return out, next, nil
}

// transferKey orders transfers: creation time (big-endian nanoseconds), then id.
func transferKey(tr *transferRecord) string {
	return string(binary.BigEndian.AppendUint64(nil, uint64(max(tr.CreatedAt.UnixNano(), 0)))) + tr.ID
}

func decodeTransferCursor(c string) ([]byte, error) {
	if c == "" {
		return nil, nil
	}
	k, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(k) <= 8 || !strings.HasPrefix(string(k[8:]), TransferIDPrefix+"_") {
		return nil, veriland.Errorf(veriland.CodeValidationFailed, "cursor is not a cursor of this list").WithMeta("parameter", "cursor")
	}
	return k, nil
}
