package binding_test

import (
	"context"
	"crypto"
	"crypto/rsa"
	"encoding/base64"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

const (
	holderA = "did:veriland:AAAAAAAAAAAAAAAAAAAAAA"
	holderB = "did:veriland:BBBBBBBBBBBBBBBBBBBBBB"

	// The document of the tests: its number and MRZ line must never reach storage.
	docNumber = "X4R7T2Q9K"
)

var testPepper = []byte("0123456789abcdef-test-pepper")

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a binding Service on a bbolt file with a real attestation.Service
// and a sandbox PKI trusted in both environments.
type fixture struct {
	clock  *fakeClock
	path   string
	store  *bolt.Store
	atts   *attestation.Service
	csca   *sandbox.CSCA
	ds     *sandbox.DS
	trust  map[veriland.Environment]*chipauth.TrustStore
	svc    *binding.Service
	events []binding.Event
	mu     sync.Mutex
}

func newFixture(t testing.TB, kt sandbox.KeyType) *fixture {
	clock := newClock()
	path := filepath.Join(t.TempDir(), "veriland.db")
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	key, err := ethcrypto.GenerateKey()
	require.NoError(t, err)
	atts := &attestation.Service{
		Store:  store,
		Issuer: &attestation.Issuer{Key: key, ChainID: 1, Now: clock.Now},
		Now:    clock.Now,
	}
	csca, err := sandbox.NewTestCSCA(kt, sandbox.CertOptions{Now: clock.Now})
	require.NoError(t, err)
	ds, err := csca.NewDS(kt, sandbox.CertOptions{Now: clock.Now})
	require.NoError(t, err)
	trust := map[veriland.Environment]*chipauth.TrustStore{}
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		ts := chipauth.NewTrustStore()
		_, err := ts.AddCertificates(csca.PEM())
		require.NoError(t, err)
		trust[env] = ts
	}
	f := &fixture{clock: clock, path: path, store: store, atts: atts, csca: csca, ds: ds, trust: trust}
	f.svc = &binding.Service{
		Store:        store,
		Trust:        func(env veriland.Environment) *chipauth.TrustStore { return trust[env] },
		Pepper:       testPepper,
		Attestations: atts,
		Now:          clock.Now,
		OnEvent: func(_ context.Context, _ storage.Tx, ev binding.Event) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.events = append(f.events, ev)
			return nil
		},
	}
	return f
}

func (f *fixture) lastEvent() binding.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.events) == 0 {
		return binding.Event{}
	}
	return f.events[len(f.events)-1]
}

func holder(subject string, env veriland.Environment) veriland.Principal {
	return veriland.Principal{Subject: subject, Role: veriland.RoleHolder, Env: env}
}

// liveness issues a LIVENESS attestation of subject at level through the real
// attestation service, as the liveness package does, and returns its id.
func (f *fixture) liveness(t testing.TB, env veriland.Environment, subject, level string) string {
	var id string
	err := f.store.Update(context.Background(), func(tx storage.Tx) error {
		att, err := f.atts.Issue(context.Background(), tx, env, attestation.Draft{
			Kind:     attestation.KindLiveness,
			Subject:  subject,
			Claims:   map[string]any{"level": level},
			ValidFor: 365 * 24 * time.Hour,
		})
		if err != nil {
			return err
		}
		id = att.ID
		return nil
	})
	require.NoError(t, err)
	return id
}

// mrzFields is the test document's MRZ.
func mrzFields(number string) sandbox.MRZFields {
	return sandbox.MRZFields{
		IssuingState: "UTO", Surname: "Eriksson", GivenNames: "Anna Maria", DocumentNumber: number,
		BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC), Sex: "F",
		Expiry: time.Date(2031, 4, 15, 0, 0, 0, 0, time.UTC),
	}
}

// dg2 stands in for the facial image data group.
var dg2 = append([]byte{0x75, 0x82, 0x01, 0x00}, make([]byte, 256)...)

// document is a chip read: the SOD and the data groups.
type document struct {
	sod, dg1, dg2 []byte
}

// issueDocument issues a document for the MRZ fields, signed by ds.
func (f *fixture) issueDocument(t testing.TB, ds *sandbox.DS, fields sandbox.MRZFields) document {
	dg1, err := sandbox.BuildDG1(fields)
	require.NoError(t, err)
	scheme := sandbox.ECDSA
	if _, ok := ds.Key.Public().(*rsa.PublicKey); ok {
		scheme = sandbox.PKCS1v15
	}
	sod, err := sandbox.BuildSOD(ds, map[int][]byte{1: dg1, 2: dg2}, crypto.SHA256, scheme,
		sandbox.SODOptions{SigningTime: f.clock.Now().Add(-time.Hour)})
	require.NoError(t, err)
	return document{sod: sod, dg1: dg1, dg2: dg2}
}

// request is the body for doc with the given liveness attestation.
func (d document) request(livenessID string) binding.Request {
	return binding.Request{
		SODBase64: base64.StdEncoding.EncodeToString(d.sod),
		DataGroups: []binding.DataGroup{
			{Number: 1, ContentBase64: base64.StdEncoding.EncodeToString(d.dg1)},
			{Number: 2, ContentBase64: base64.RawURLEncoding.EncodeToString(d.dg2)},
		},
		LivenessAttestationID: livenessID,
	}
}

// template returns a deterministic face embedding of dimension n; seed varies it.
func template(n int, seed float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)*0.37 + seed))
	}
	return v
}

// requireCode asserts that err is a *veriland.Error with code and returns it.
func requireCode(t testing.TB, err error, code veriland.Code) *veriland.Error {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, veriland.CodeOf(err), "error: %v", err)
	var ve *veriland.Error
	if list, ok := err.(veriland.Errors); ok {
		return list[0]
	}
	require.ErrorAs(t, err, &ve)
	return ve
}
