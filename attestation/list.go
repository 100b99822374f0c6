package attestation

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// sortNewestFirst orders attestations of several kinds by issuedAt, newest first, then
// by id for a stable order.
func sortNewestFirst(list []*Attestation) {
	slices.SortStableFunc(list, func(a, b *Attestation) int {
		if c := b.IssuedAt.Compare(a.IssuedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
}

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
