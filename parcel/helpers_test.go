package parcel_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

const testChainID = 31337

var issuerKey = func() *ecdsa.PrivateKey {
	k, err := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		panic(err)
	}
	return k
}()

// Principals of the tests.
var (
	owner       = veriland.Principal{Subject: "user-1", Role: veriland.RoleHolder, Env: veriland.Production, Account: "acct_1"}
	otherOwner  = veriland.Principal{Subject: "user-2", Role: veriland.RoleHolder, Env: veriland.Production, Account: "acct_2"}
	notary      = veriland.Principal{Subject: "NOT-ABJ-1", Role: veriland.RoleNotary, Env: veriland.Production}
	otherNotary = veriland.Principal{Subject: "NOT-ABJ-2", Role: veriland.RoleNotary, Env: veriland.Production}
	admin       = veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Production}
	sbxOwner    = veriland.Principal{Subject: "user-1", Role: veriland.RoleHolder, Env: veriland.Sandbox, Account: "acct_1"}
)

type fixture struct {
	svc    *parcel.Service
	store  storage.Store
	path   string
	clock  *clocktest.Clock
	mu     sync.Mutex
	events []parcel.Event
}

func (f *fixture) actions() []parcel.Action {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]parcel.Action, len(f.events))
	for i, e := range f.events {
		out[i] = e.Action
	}
	return out
}

// newFixture opens a bbolt store in t.TempDir() and a Service over it.
func newFixture(tb testing.TB, titles map[veriland.Environment]parcel.TitleChain) *fixture {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "parcel.db")
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = store.Close() })
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i + 1)
	}
	ring, err := fieldcrypt.NewKeyring("k1", map[string][]byte{"k1": key}, rand.Reader)
	require.NoError(tb, err)
	f := &fixture{store: store, path: path, clock: clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
	f.svc = &parcel.Service{
		Store:  store,
		Issuer: &attestation.Issuer{Key: issuerKey, ChainID: testChainID},
		Fields: ring,
		Pepper: []byte("0123456789abcdef-pepper"),
		Titles: titles,
		Now:    f.clock.Now,
		Logger: slog.New(slog.DiscardHandler),
		OnEvent: func(_ context.Context, _ storage.Tx, ev parcel.Event) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.events = append(f.events, ev)
			return nil
		},
	}
	return f
}

func ptr[T any](v T) *T { return &v }

func validRequest() parcel.CreateRequest {
	return parcel.CreateRequest{
		Owner:  &parcel.Owner{FullName: "Amina Bello-Okafor", IDDoc: "NGA-PASS-A12345678"},
		Parcel: &parcel.ParcelInput{GPS: []float64{9.0765, 7.3986}, AreaM2: ptr(1250.5), City: "Abuja"},
		Notary: "NOT-ABJ-1",
	}
}

func codeOf(err error) veriland.Code {
	if err == nil {
		return ""
	}
	return veriland.CodeOf(err)
}

// certified creates and certifies a parcel for owner.
func (f *fixture) certified(t testing.TB) *parcel.Parcel {
	t.Helper()
	ctx := context.Background()
	p, err := f.svc.Create(ctx, owner, validRequest())
	require.NoError(t, err)
	p, err = f.svc.Certify(ctx, notary, p.ID)
	require.NoError(t, err)
	return p
}

var timeZero time.Time

// pointersOf lists the JSON pointers of the errors err carries.
func pointersOf(err error) []string {
	var out []string
	for _, e := range veriland.ErrorList(err) {
		out = append(out, e.Pointer)
	}
	return out
}
