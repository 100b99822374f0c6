package parcel_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/chainjob"
)

// simulatedChain starts go-ethereum's simulated chain with LandTitle deployed by a
// fresh registry key.
func simulatedChain(tb testing.TB) *landtitle.Simulated {
	tb.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(tb, err)
	sim, err := landtitle.NewSimulated(key, "https://registry.example/v1/tokens/")
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = sim.Close() })
	return sim
}

// simulatedTitles gives both environments a simulated chain of their own.
func simulatedTitles(tb testing.TB) map[veriland.Environment]parcel.TitleChain {
	tb.Helper()
	return map[veriland.Environment]parcel.TitleChain{
		veriland.Sandbox: simulatedChain(tb), veriland.Production: simulatedChain(tb)}
}

func tokenInt(tb testing.TB, id string) *big.Int {
	tb.Helper()
	n, ok := new(big.Int).SetString(id, 10)
	require.True(tb, ok, id)
	return n
}

// runJobs runs chain-job rounds until one does nothing.
func (f *fixture) runJobs(tb testing.TB) {
	tb.Helper()
	for range 10 {
		n, err := f.svc.ChainJobsOnce(context.Background())
		require.NoError(tb, err)
		if n == 0 {
			return
		}
	}
}

func (f *fixture) token(tb testing.TB, env veriland.Environment, id string) *parcel.Token {
	tb.Helper()
	tok, err := f.svc.Token(context.Background(), env, id)
	require.NoError(tb, err)
	return tok
}

// transferLogs counts the chain's Transfer events of tokenID from `from` to `to`.
func transferLogs(tb testing.TB, sim *landtitle.Simulated, from, to common.Address, tokenID *big.Int) []common.Hash {
	tb.Helper()
	topic := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	logs, err := sim.Backend().Client().FilterLogs(context.Background(), ethereum.FilterQuery{
		Addresses: []common.Address{sim.Address()},
		Topics:    [][]common.Hash{{topic}, {common.BytesToHash(from.Bytes())}, {common.BytesToHash(to.Bytes())}, {common.BigToHash(tokenID)}},
	})
	require.NoError(tb, err)
	var out []common.Hash
	for _, l := range logs {
		out = append(out, l.TxHash)
	}
	return out
}

func TestTitleMintedToOwnerWallet(t *testing.T) {
	sim := simulatedChain(t)
	f := newFixture(t, map[veriland.Environment]parcel.TitleChain{veriland.Production: sim})
	ctx := context.Background()
	w := newWallet(t)
	p := f.walletParcel(t, w)

	tok := p.Token
	require.Equal(t, parcel.TokenPending, tok.Status)
	require.Equal(t, parcel.HolderOwnerWallet, tok.HolderKind)
	require.Equal(t, w.lower(), tok.Holder)
	require.Equal(t, sim.Address().Hex(), tok.Contract)
	require.Equal(t, sim.ChainID(), tok.ChainID)
	require.Equal(t, "PENDING", string(tok.Anchor.Status))

	f.runJobs(t)
	tok = f.token(t, veriland.Production, tok.TokenID)
	require.Equal(t, parcel.TokenMinted, tok.Status)
	require.NotEmpty(t, tok.MintTx)
	require.NotNil(t, tok.MintedAt)
	require.Equal(t, "ANCHORED", string(tok.Anchor.Status))
	require.Equal(t, tok.MintTx, tok.Anchor.TxHash)

	id := tokenInt(t, tok.TokenID)
	title, err := sim.Title(ctx, id)
	require.NoError(t, err)
	require.Equal(t, landtitle.Minted, title.State)
	require.Equal(t, common.HexToAddress(w.addr), title.Holder)
	require.Equal(t, common.HexToHash(p.CertificateHash), title.CertificateHash)
	require.Equal(t, []common.Hash{common.HexToHash(tok.MintTx)}, transferLogs(t, sim, common.Address{}, common.HexToAddress(w.addr), id))

	// The version in the history and the public verification say it too.
	h, _ := parcel.ParseHash(p.CertificateHash)
	v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
	require.NoError(t, err)
	require.Equal(t, "ANCHORED", string(v.Anchor.Status))
	require.Equal(t, parcel.TokenMinted, v.History[0].TokenStatus)
}

func TestTitleCustodyAndTransfer(t *testing.T) {
	sim := simulatedChain(t)
	f := newFixture(t, map[veriland.Environment]parcel.TitleChain{veriland.Production: sim})
	ctx := context.Background()
	seller, buyer := newWallet(t), newWallet(t)

	// An owner without a wallet: the registry's custody.
	p := f.certified(t)
	require.Equal(t, parcel.HolderRegistryCustody, p.Token.HolderKind)
	require.Equal(t, sim.Registry().Hex(), p.Token.Holder)
	f.runJobs(t)
	title, err := sim.Title(ctx, tokenInt(t, p.Token.TokenID))
	require.NoError(t, err)
	require.Equal(t, landtitle.Minted, title.State)
	require.Equal(t, sim.Registry(), title.Holder)

	// A transfer from a wallet to a wallet: the old title is burned, the new one
	// minted to the buyer.
	p, tr := f.ownerTransfer(t, seller, &buyer, nil)
	f.runJobs(t) // the seller's title
	oldID := p.Token.TokenID
	require.Equal(t, parcel.TokenMinted, f.token(t, veriland.Production, oldID).Status)
	_, err = f.svc.DecideOwner(ctx, veriland.Production, tr.ID, signDecision(t, tr, seller.key, "APPROVED"))
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	cur, err := f.svc.Get(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TokenPending, cur.Token.Status)
	require.Equal(t, buyer.lower(), cur.Token.Holder)
	old := f.token(t, veriland.Production, oldID)
	require.Equal(t, parcel.TokenMinted, old.Status, "burned only once the chain did")
	require.NotNil(t, old.BurnRequestedAt)

	f.runJobs(t)
	old = f.token(t, veriland.Production, oldID)
	require.Equal(t, parcel.TokenBurned, old.Status)
	require.NotEmpty(t, old.BurnTx)
	require.NotNil(t, old.BurnedAt)
	ot, err := sim.Title(ctx, tokenInt(t, oldID))
	require.NoError(t, err)
	require.Equal(t, landtitle.Burned, ot.State)
	require.Equal(t, common.HexToHash(old.MetadataHash), ot.CertificateHash, "the burned title keeps its hash")

	nt, err := sim.Title(ctx, tokenInt(t, cur.Token.TokenID))
	require.NoError(t, err)
	require.Equal(t, landtitle.Minted, nt.State)
	require.Equal(t, common.HexToAddress(buyer.addr), nt.Holder)
	require.Equal(t, parcel.TokenMinted, f.token(t, veriland.Production, cur.Token.TokenID).Status)

	hist, err := f.svc.History(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TokenBurned, hist[0].TokenStatus)
	require.Equal(t, parcel.TokenMinted, hist[1].TokenStatus)
}

func TestTitleWithoutChain(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	require.Equal(t, parcel.TokenDisabled, p.Token.Status)
	require.Equal(t, "DISABLED", string(p.Token.Anchor.Status))
	require.Equal(t, parcel.HolderRegistryCustody, p.Token.HolderKind)
	require.Empty(t, p.Token.Holder, "no chain, no custody account")
	_, err := f.svc.Revoke(ctx, admin, p.ID, "")
	require.NoError(t, err)
	tok := f.token(t, veriland.Production, p.Token.TokenID)
	require.Equal(t, parcel.TokenBurned, tok.Status)
	require.Empty(t, tok.BurnTx)
	require.NotNil(t, tok.BurnedAt)
	n, err := f.svc.ChainJobsOnce(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing queued")
}

func TestTitleClosedBeforeMint(t *testing.T) {
	sim := simulatedChain(t)
	f := newFixture(t, map[veriland.Environment]parcel.TitleChain{veriland.Production: sim})
	ctx := context.Background()
	p := f.certified(t)
	_, err := f.svc.Revoke(ctx, admin, p.ID, "")
	require.NoError(t, err)
	f.runJobs(t)
	tok := f.token(t, veriland.Production, p.Token.TokenID)
	require.Equal(t, parcel.TokenBurned, tok.Status)
	require.Empty(t, tok.MintTx)
	require.Empty(t, tok.BurnTx)
	title, err := sim.Title(ctx, tokenInt(t, p.Token.TokenID))
	require.NoError(t, err)
	require.Equal(t, landtitle.Unminted, title.State, "never on chain")
}

// flakyChain fails its first `failures` mints without sending.
type flakyChain struct {
	parcel.TitleChain
	failures atomic.Int32
}

func (c *flakyChain) Mint(ctx context.Context, to common.Address, id *big.Int, h common.Hash) (landtitle.Receipt, error) {
	if c.failures.Add(-1) >= 0 {
		return landtitle.Receipt{}, errors.New("node unreachable")
	}
	return c.TitleChain.Mint(ctx, to, id, h)
}

func TestTitleRetriesThenFails(t *testing.T) {
	sim := simulatedChain(t)
	flaky := &flakyChain{TitleChain: sim}
	flaky.failures.Store(1)
	f := newFixture(t, map[veriland.Environment]parcel.TitleChain{veriland.Production: flaky})
	f.svc.ChainJobs = parcel.ChainPolicy{MaxAttempts: 2, Backoff: 10 * time.Second}
	ctx := context.Background()
	p := f.certified(t)

	n, err := f.svc.ChainJobsOnce(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, parcel.TokenPending, f.token(t, veriland.Production, p.Token.TokenID).Status)
	n, err = f.svc.ChainJobsOnce(ctx) // not due before the backoff
	require.NoError(t, err)
	require.Zero(t, n)
	f.clock.Advance(10 * time.Second)
	n, err = f.svc.ChainJobsOnce(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, parcel.TokenMinted, f.token(t, veriland.Production, p.Token.TokenID).Status)

	// A chain that stays down: FAILED after MaxAttempts, with the error.
	flaky.failures.Store(100)
	q := f.certifiedAt(t, 1)
	for range 2 {
		_, err = f.svc.ChainJobsOnce(ctx)
		require.NoError(t, err)
		f.clock.Advance(time.Minute)
	}
	tok := f.token(t, veriland.Production, q.Token.TokenID)
	require.Equal(t, parcel.TokenFailed, tok.Status)
	require.Contains(t, tok.Error, "node unreachable")
	require.Equal(t, "FAILED", string(tok.Anchor.Status))
}

// certifiedAt certifies a parcel whose GPS point is shifted by seq, to keep parcels
// apart.
func (f *fixture) certifiedAt(t testing.TB, seq int) *parcel.Parcel {
	t.Helper()
	ctx := context.Background()
	req := validRequest()
	req.Parcel.GPS = []float64{9.0765 + float64(seq)*0.01, 7.3986}
	p, err := f.svc.Create(ctx, owner, req)
	require.NoError(t, err)
	p, err = f.svc.Certify(ctx, notary, p.ID)
	require.NoError(t, err)
	return p
}

// dyingChain sends the mint for real, then "dies": it cancels the worker's context,
// so that the worker stops without recording anything, as a killed process would.
type dyingChain struct {
	parcel.TitleChain
	cancel context.CancelFunc
	sent   common.Hash
}

func (c *dyingChain) Mint(ctx context.Context, to common.Address, id *big.Int, h common.Hash) (landtitle.Receipt, error) {
	r, err := c.TitleChain.Mint(ctx, to, id, h)
	c.sent = r.TxHash
	c.cancel()
	return landtitle.Receipt{}, errors.Join(err, context.Canceled)
}

// A worker that dies between sending a mint and recording it, and a new process on
// the same store after the claim's lease: exactly one token on chain, and the record
// names the transaction that minted it.
func TestTitleCrashBetweenSendAndRecord(t *testing.T) {
	sim := simulatedChain(t)
	f := newFixture(t, map[veriland.Environment]parcel.TitleChain{veriland.Production: sim})
	f.svc.ChainJobs = parcel.ChainPolicy{Lease: time.Minute}
	w := newWallet(t)
	p := f.walletParcel(t, w)
	id := tokenInt(t, p.Token.TokenID)

	ctx, cancel := context.WithCancel(context.Background())
	dying := &dyingChain{TitleChain: sim, cancel: cancel}
	f.svc.Titles = map[veriland.Environment]parcel.TitleChain{veriland.Production: dying}
	_, err := f.svc.ChainJobsOnce(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.NotEqual(t, common.Hash{}, dying.sent)
	require.Equal(t, parcel.TokenPending, f.token(t, veriland.Production, p.Token.TokenID).Status, "nothing recorded")

	// "Restart": the store closed and opened again, a new Service, the same chain.
	require.NoError(t, f.store.Close())
	store, err := bolt.Open(f.path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	restarted := &parcel.Service{Store: store, Issuer: f.svc.Issuer, Fields: f.svc.Fields, Pepper: f.svc.Pepper,
		Titles: map[veriland.Environment]parcel.TitleChain{veriland.Production: sim}, ChainJobs: f.svc.ChainJobs,
		Now: f.clock.Now, Logger: f.svc.Logger}

	n, err := restarted.ChainJobsOnce(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "claimed by the dead worker until its lease ends")
	f.clock.Advance(time.Minute + time.Second)
	n, err = restarted.ChainJobsOnce(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)

	tok, err := restarted.Token(context.Background(), veriland.Production, p.Token.TokenID)
	require.NoError(t, err)
	require.Equal(t, parcel.TokenMinted, tok.Status)
	require.Equal(t, dying.sent.Hex(), tok.MintTx, "the first process's transaction")
	require.Equal(t, []common.Hash{dying.sent}, transferLogs(t, sim, common.Address{}, common.HexToAddress(w.addr), id), "exactly one mint")
}

// StartTitles: a token stored before land titles went on chain is queued for
// minting; with a fresh chain, current titles are minted again on it.
func TestStartTitles(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	// Rewrite the token as a version before the chain stored it.
	legacy := map[string]any{"tokenId": p.Token.TokenID, "standard": "ERC-5192", "locked": true, "chainId": testChainID,
		"owner": "0x1111111111111111111111111111111111111111", "metadataHash": p.CertificateHash, "status": "ACTIVE",
		"parcelId": p.ID, "version": 1, "city": "Abuja", "area_m2": 1250.5, "mintedAt": "2026-03-01T12:00:00Z",
		"anchor": map[string]any{"status": "DISABLED"}}
	raw, err := json.Marshal(legacy)
	require.NoError(t, err)
	require.NoError(t, f.store.Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Bucket(veriland.Production, "parcel_tokens"), []byte(p.Token.TokenID), raw)
	}))
	tok := f.token(t, veriland.Production, p.Token.TokenID)
	require.Equal(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), tok.IssuedAt)
	require.Nil(t, tok.MintedAt)

	sim := simulatedChain(t)
	f.svc.Titles = map[veriland.Environment]parcel.TitleChain{veriland.Production: sim}
	n, err := f.svc.StartTitles(ctx, veriland.Production, false)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = f.svc.StartTitles(ctx, veriland.Production, false)
	require.NoError(t, err)
	require.Zero(t, n, "the same contract: no second scan")
	f.runJobs(t)
	tok = f.token(t, veriland.Production, p.Token.TokenID)
	require.Equal(t, parcel.TokenMinted, tok.Status)
	require.Equal(t, sim.Registry().Hex(), tok.Holder)

	// A fresh chain (the sandbox's at each start): minted again there.
	sim2 := simulatedChain(t)
	f.svc.Titles = map[veriland.Environment]parcel.TitleChain{veriland.Production: sim2}
	n, err = f.svc.StartTitles(ctx, veriland.Production, true)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	f.runJobs(t)
	tok = f.token(t, veriland.Production, p.Token.TokenID)
	require.Equal(t, parcel.TokenMinted, tok.Status)
	require.Equal(t, sim2.Address().Hex(), tok.Contract)
	title, err := sim2.Title(ctx, tokenInt(t, tok.TokenID))
	require.NoError(t, err)
	require.Equal(t, landtitle.Minted, title.State)

	counts, err := (&chainjob.Queue{Store: f.store}).Counts(ctx)
	require.NoError(t, err)
	require.Empty(t, counts[veriland.Production], "every job settled")
}
