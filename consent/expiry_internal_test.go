package consent

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// An index entry whose request is missing (a bug or a partial restore) is dropped by
// the sweeper instead of failing every sweep.
func TestSweeperDropsOrphanIndexEntries(t *testing.T) {
	ctx := context.Background()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "db"), bolt.Options{})
	require.NoError(t, err)
	defer store.Close()
	svc := &Service{Store: store, ChainID: 1, Wallets: nopWallets{}, Attestations: nopIssuer{}}

	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	key := expiryKey(at, "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa")
	require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Bucket(veriland.Production, bucketExpiry), key, nil)
	}))
	n, err := svc.ExpireDue(ctx, at, 10)
	require.NoError(t, err)
	require.Zero(t, n)
	require.NoError(t, store.View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get(storage.Bucket(veriland.Production, bucketExpiry), key)
		require.ErrorIs(t, err, storage.ErrNotFound)
		return nil
	}))
}

func TestExpiryKeyOrder(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	a := expiryKey(t0, "vrq_zzzzzzzzzzzzzzzzzzzzzzzzzz")
	b := expiryKey(t0.Add(time.Second), "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa")
	require.Less(t, string(a), string(b), "earlier deadlines sort first, whatever the id")
	require.Equal(t, expiryKey(time.Unix(0, 0), "x"), expiryKey(time.Unix(-5, 0), "x"), "times before 1970 clamp to 0")
}

type nopWallets struct{}

func (nopWallets) WalletOf(context.Context, veriland.Environment, string) (string, error) {
	return "", veriland.ErrNotFound
}

type nopIssuer struct{}

func (nopIssuer) Issue(context.Context, storage.Tx, veriland.Environment, attestation.Draft) (*attestation.Attestation, error) {
	return nil, errors.New("not issuing")
}
