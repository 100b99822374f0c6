package assistant_test

import (
	"crypto/rand"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Principals of the tests: an agency account with parcels, and another account.
var (
	agency  = veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"}
	outside = veriland.Principal{Subject: "agency-9", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_9"}
)

const (
	testOwner = "Amina Zainab Bello"
	testIDDoc = "NIN-83920174655"
)

// world is an assistant over a real parcel registry in a temporary bbolt store, with
// one parcel waiting for its notary and one certified.
type world struct {
	svc                *assistant.Service
	parcels            *parcel.Service
	pending, certified *parcel.Parcel
	path               string
}

func newWorld(tb testing.TB) *world {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "assistant.db")
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = store.Close() })
	ring, err := fieldcrypt.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)}, rand.Reader)
	require.NoError(tb, err)
	key, err := crypto.GenerateKey()
	require.NoError(tb, err)
	now := func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
	ps := &parcel.Service{Store: store, Fields: ring, Pepper: make([]byte, 32), Now: now,
		Issuer: &attestation.Issuer{Key: key, ChainID: 1, Rand: rand.Reader, Now: now}}
	w := &world{parcels: ps, path: path,
		svc: &assistant.Service{Store: store, Fields: ring, Now: now,
			Domain: assistant.Domain{Parcels: ps, PublicOrigin: "https://registry.example"}}}
	create := func(notary, city string) *parcel.Parcel {
		area := 900.0
		req := parcel.CreateRequest{Owner: &parcel.Owner{FullName: testOwner, IDDoc: testIDDoc},
			Parcel: &parcel.ParcelInput{GPS: []float64{9.07, 7.39}, AreaM2: &area, City: city}, Notary: notary}
		p, err := ps.Create(tb.Context(), agency, req)
		require.NoError(tb, err)
		return p
	}
	w.pending = create("NOT-ABJ-7", "Abuja")
	w.certified = create("NOT-SBX-1", "Kano")
	require.Equal(tb, parcel.StatusCertified, w.certified.Status)
	return w
}
