package consent_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	gethmath "github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

const testChainID = 31337

// fakeClock is the shared settable test clock.
type fakeClock = clocktest.Clock

func newClock() *fakeClock {
	return clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// storedAttestations issues through the real attestation Service and keeps its own
// (subject, kind) → id index in the same transaction, so that the liveness gate can
// list a subject's attestations inside a transaction (the Service has GetTx but no
// in-transaction listing yet).
type storedAttestations struct {
	svc *attestation.Service
}

const bucketTestAttestations = "test_attestations"

func (a *storedAttestations) Issue(ctx context.Context, tx storage.Tx, env veriland.Environment, d attestation.Draft) (*attestation.Attestation, error) {
	att, err := a.svc.Issue(ctx, tx, env, d)
	if err != nil {
		return nil, err
	}
	key := att.Subject + "\x00" + string(att.Kind) + "\x00" + att.ID
	if err := tx.Put(storage.Bucket(env, bucketTestAttestations), []byte(key), []byte(att.ID)); err != nil {
		return nil, err
	}
	return att, nil
}

func (a *storedAttestations) ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error) {
	var out []*attestation.Attestation
	prefix := []byte(subject + "\x00" + string(kind) + "\x00")
	err := tx.Scan(storage.Bucket(env, bucketTestAttestations), storage.Range{Prefix: prefix}, func(_, v []byte) error {
		att, err := a.svc.GetTx(tx, env, string(v))
		if err != nil {
			return err
		}
		out = append(out, att)
		return nil
	})
	return out, err
}

// recorded is one event as the hook stored it inside the transaction.
type recorded struct {
	Type          consent.EventType
	RequestID     string
	Status        consent.Status
	CallbackURL   string
	AttestationID string
	Actor         string
}

const bucketTestEvents = "test_events"

// recordEvent is an EventHook that appends the event to a bucket inside the
// transaction, as the audit log and webhook outbox do: an event counts only if its
// transaction committed, however often the hook ran.
func recordEvent(_ context.Context, tx storage.Tx, ev consent.Event) error {
	if ev.Request == nil || ev.Env == "" || ev.Type == "" {
		return errors.New("incomplete event")
	}
	if (ev.Type == consent.EventApproved) != (ev.Attestation != nil) {
		return errors.New("attestation iff approved")
	}
	bucket := storage.Bucket(ev.Env, bucketTestEvents)
	var n uint64
	if b, err := tx.Get(bucket, []byte("n")); err == nil {
		n = binary.BigEndian.Uint64(b)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	rec := recorded{Type: ev.Type, RequestID: ev.Request.ID, Status: ev.Request.Status, CallbackURL: ev.Request.CallbackURL, Actor: ev.Actor}
	if ev.Attestation != nil {
		rec.AttestationID = ev.Attestation.ID
	}
	b, _ := json.Marshal(rec)
	if err := tx.Put(bucket, []byte(fmt.Sprintf("e%08d", n)), b); err != nil {
		return err
	}
	return tx.Put(bucket, []byte("n"), binary.BigEndian.AppendUint64(nil, n+1))
}

type fixture struct {
	t        testing.TB
	ctx      context.Context
	store    storage.Store
	clock    *fakeClock
	svc      *consent.Service
	atts     *storedAttestations
	ids      *identity.Service
	issuer   *attestation.Issuer
	verifier veriland.Principal
	holder   *ecdsa.PrivateKey
	did      string // an ACTIVE identity whose wallet is holder's
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return newFixtureOn(t, store)
}

// newFixtureOn is newFixture on store.
func newFixtureOn(t testing.TB, store storage.Store) *fixture {
	t.Helper()
	clock := newClock()
	issuerKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	issuer := &attestation.Issuer{Key: issuerKey, ChainID: testChainID, Now: clock.Now}
	atts := &storedAttestations{svc: &attestation.Service{Store: store, Issuer: issuer, Now: clock.Now, Logger: slog.New(slog.DiscardHandler)}}
	ids := &identity.Service{
		Store:  store,
		Pepper: []byte("a test pepper of 16+ bytes"),
		KYC:    identity.SandboxKYC{AllowProduction: true}, // identities of both environments
		Now:    clock.Now,
		Logger: slog.New(slog.DiscardHandler),
	}
	f := &fixture{
		t: t, ctx: context.Background(), store: store, clock: clock, atts: atts, ids: ids, issuer: issuer,
		verifier: veriland.Principal{Subject: "verifier-acme", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"},
	}
	f.svc = &consent.Service{
		Store:        store,
		ChainID:      testChainID,
		Wallets:      consent.IdentityWallets{Identities: ids},
		Attestations: atts,
		Liveness:     consent.AttestationLivenessGate{Attestations: atts, Now: clock.Now},
		OnEvent:      recordEvent,
		Now:          clock.Now,
		Logger:       slog.New(slog.DiscardHandler),
	}
	f.holder, f.did = f.newIdentity(veriland.Sandbox)
	return f
}

// newIdentity issues an ACTIVE identity bound to a fresh wallet key.
func (f *fixture) newIdentity(env veriland.Environment) (*ecdsa.PrivateKey, string) {
	f.t.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(f.t, err)
	res, err := f.ids.Issue(f.ctx, env, identity.IssueRequest{
		SubjectRef:    "customer-" + crypto.PubkeyToAddress(key.PublicKey).Hex(),
		CountryCode:   "NG",
		WalletAddress: crypto.PubkeyToAddress(key.PublicKey).Hex(),
		Payload:       json.RawMessage(`{"scenario":"success"}`),
	})
	require.NoError(f.t, err)
	require.Equal(f.t, identity.StatusActive, res.Status)
	return key, res.DID
}

func (f *fixture) create(mut func(*consent.CreateRequest)) *consent.Request {
	f.t.Helper()
	c := consent.CreateRequest{
		SubjectRef:  f.did,
		Scope:       []string{"is_adult", "nationality"},
		Reason:      "Opening a savings account",
		CallbackURL: "https://verifier.example/hooks/veriland",
	}
	if mut != nil {
		mut(&c)
	}
	r, err := f.svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
	require.NoError(f.t, err)
	return r
}

func addr(key *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(key.PublicKey) }

// signView completes the view's typed data the way a wallet page does — fills
// decision and disclosedScopeHash — and signs it with eth_signTypedData_v4 semantics
// (go-ethereum's generic encoder), v 27/28 unless v01.
func signView(t testing.TB, view *consent.View, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string, v01 bool) string {
	t.Helper()
	return signTypedData(t, apitypes.TypedData(view.TypedData), key, decision, disclosed, 0, v01)
}

// signTypedData fills decision and disclosedScopeHash into td's message (a copy), sets
// its domain's chainId to chainID unless 0, and signs the digest go-ethereum's
// apitypes.TypedDataAndHash computes: an implementation independent of the
// production digest (consent.ConsentMessage(...).Digest), so a wrong production
// digest fails the tests that sign this way.
func signTypedData(t testing.TB, td apitypes.TypedData, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string, chainID uint64, v01 bool) string {
	t.Helper()
	msg := apitypes.TypedDataMessage{}
	for k, v := range td.Message {
		msg[k] = v
	}
	msg["decision"] = string(decision)
	h := ethsig.HashStrings(disclosed)
	msg["disclosedScopeHash"] = hexutil.Encode(h[:])
	td.Message = msg
	if chainID != 0 {
		td.Domain.ChainId = (*gethmath.HexOrDecimal256)(new(big.Int).SetUint64(chainID))
	}
	digest, _, err := apitypes.TypedDataAndHash(td)
	require.NoError(t, err)
	sig, err := crypto.Sign(digest, key)
	require.NoError(t, err)
	if !v01 {
		sig[64] += 27
	}
	return hexutil.Encode(sig)
}

// signServed signs the consent of r over the typed data the service serves for it
// (Service.Context), as a wallet does, for chainID (0: the served one).
func (f *fixture) signServed(t testing.TB, r *consent.Request, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string, chainID uint64) string {
	t.Helper()
	view, err := f.svc.Context(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	if disclosed == nil {
		disclosed = []string{}
	}
	return signTypedData(t, apitypes.TypedData(view.TypedData), key, decision, disclosed, chainID, false)
}

// signedServed is signed with the signature from signServed.
func (f *fixture) signedServed(t testing.TB, r *consent.Request, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string) consent.Decision {
	t.Helper()
	if disclosed == nil {
		disclosed = []string{}
	}
	return consent.Decision{
		HolderAddress: addr(key).Hex(), Decision: decision, DisclosedScope: disclosed,
		Signature: f.signServed(t, r, key, decision, disclosed, 0),
	}
}

// sign signs the consent of r directly, for chainID.
func sign(t testing.TB, r *consent.Request, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string, chainID uint64) string {
	t.Helper()
	digest := consent.ConsentMessage(r, decision, disclosed).Digest(chainID)
	sig, err := ethsig.Sign(key, digest)
	require.NoError(t, err)
	return hexutil.Encode(sig)
}

// badChecksum flips the case of the first letter of a checksummed address.
func badChecksum(a common.Address) string {
	b := []byte(a.Hex())
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	panic("address without letters")
}

// signed returns the decision key signs on r, holderAddress being key's address; a
// nil disclosed is sent as [].
func signed(t testing.TB, r *consent.Request, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string) consent.Decision {
	t.Helper()
	if disclosed == nil {
		disclosed = []string{}
	}
	return consent.Decision{
		HolderAddress: addr(key).Hex(), Decision: decision, DisclosedScope: disclosed,
		Signature: sign(t, r, key, decision, disclosed, testChainID),
	}
}

// highS returns the malleable twin of a 27/28 signature: s' = n - s, v flipped.
func highS(t testing.TB, sigHex string) string {
	t.Helper()
	return hexutil.Encode(ethsigtest.HighS(hexutil.MustDecode(sigHex)))
}

func (f *fixture) events(env veriland.Environment) []recorded {
	f.t.Helper()
	var out []recorded
	err := f.store.View(f.ctx, func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, bucketTestEvents), storage.Range{Prefix: []byte("e")}, func(_, v []byte) error {
			var r recorded
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
	})
	require.NoError(f.t, err)
	return out
}

func (f *fixture) eventsOf(env veriland.Environment, id string, typ consent.EventType) int {
	n := 0
	for _, e := range f.events(env) {
		if e.RequestID == id && e.Type == typ {
			n++
		}
	}
	return n
}

func (f *fixture) attestationCount(env veriland.Environment) int {
	f.t.Helper()
	n := 0
	err := f.store.View(f.ctx, func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, bucketTestAttestations), storage.Range{}, func(k, _ []byte) error {
			if strings.Contains(string(k), "\x00CONSENT\x00") {
				n++
			}
			return nil
		})
	})
	require.NoError(f.t, err)
	return n
}

// requireCode checks err's code and, when pointer is not "-", the pointer of its
// first error.
func requireCode(t testing.TB, err error, code veriland.Code, pointer string) *veriland.Error {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, veriland.CodeOf(err), "error: %v", err)
	var e *veriland.Error
	var list veriland.Errors
	if errors.As(err, &list) {
		e = list[0]
	} else {
		require.True(t, errors.As(err, &e))
	}
	if pointer != "-" {
		require.Equal(t, pointer, e.Pointer, "error: %v", err)
	}
	return e
}

func pointers(err error) []string {
	var list veriland.Errors
	if errors.As(err, &list) {
		out := make([]string, len(list))
		for i, e := range list {
			out[i] = e.Pointer
		}
		return out
	}
	var e *veriland.Error
	if errors.As(err, &e) {
		return []string{e.Pointer}
	}
	return nil
}

// walletsFunc adapts a function to consent.Wallets (and is no IdentityGetter).
type walletsFunc func(ctx context.Context, env veriland.Environment, subject string) (string, error)

func (f walletsFunc) WalletOf(ctx context.Context, env veriland.Environment, subject string) (string, error) {
	return f(ctx, env, subject)
}
