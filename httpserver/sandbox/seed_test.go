package sandbox_test

import (
	"crypto/rand"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

const seedChainID = 1

// seedWorld is a Seeder over the real identity, consent and parcel services in a
// temporary bbolt store.
type seedWorld struct {
	seeder  *sandbox.Seeder
	parcels *parcel.Service
}

func newSeedWorld(t *testing.T, withIdentity bool) *seedWorld {
	t.Helper()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "sandbox.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	now := func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	ring, err := fieldcrypt.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)}, rand.Reader)
	require.NoError(t, err)
	pepper := []byte(strings.Repeat("k", 32))
	log := slog.New(slog.DiscardHandler)
	ids := &identity.Service{Store: store, Pepper: pepper, KYC: identity.SandboxKYC{Now: now}, Now: now, Logger: log}
	atts := &attestation.Service{Store: store, Now: now, Issuer: &attestation.Issuer{Key: key, ChainID: seedChainID, Rand: rand.Reader, Now: now}}
	ps := &parcel.Service{Store: store, Fields: ring, Pepper: pepper, Identities: ids, Now: now, Logger: log,
		Issuer: &attestation.Issuer{Key: key, ChainID: seedChainID, Rand: rand.Reader, Now: now}}
	w := &seedWorld{parcels: ps, seeder: &sandbox.Seeder{Store: store, Parcels: ps, ChainID: seedChainID, Now: now, Logger: log,
		Consent: &consent.Service{Store: store, ChainID: seedChainID, Now: now, Logger: log,
			Wallets: consent.IdentityWallets{Identities: ids}, Attestations: atts}}}
	if withIdentity {
		w.seeder.Identity = ids
	}
	return w
}

func holderOf(t *testing.T, h sandbox.SeededHolder) veriland.Principal {
	t.Helper()
	return veriland.Principal{Subject: h.DID, Role: veriland.RoleHolder, Env: veriland.Sandbox, Wallet: strings.ToLower(h.WalletAddress)}
}

// TestSeederSeedsAWalletOwnedParcel: the seed's fifth parcel is CERTIFIED with the
// seeded holder's wallet as its owner's, bound IDENTITY_VERIFIED; the holder lists it
// as its own, and the holder's private key signs the owner's decision on a transfer.
func TestSeederSeedsAWalletOwnedParcel(t *testing.T) {
	w := newSeedWorld(t, true)
	ctx := t.Context()
	st, err := w.seeder.Ensure(ctx, "acct_1")
	require.NoError(t, err)
	s := st.Seeded
	wp := s.WalletOwnedParcel
	require.Regexp(t, `^prc_[a-z2-7]{26}$`, wp.ID)
	require.Equal(t, strings.ToLower(s.Holder.WalletAddress), wp.OwnerWallet)
	require.Equal(t, string(parcel.BindingIdentityVerified), wp.Binding)
	require.Equal(t, s.Holder.DID, wp.OwnerDID)

	// The key in seeded is the owner's wallet key.
	key, err := crypto.HexToECDSA(strings.TrimPrefix(s.Holder.PrivateKey, "0x"))
	require.NoError(t, err)
	require.Equal(t, wp.OwnerWallet, strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()))

	// The account reads it like its other parcels: certified, the wallet bound.
	agency := veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"}
	list, _, err := w.parcels.List(ctx, agency, "", 100)
	require.NoError(t, err)
	require.Len(t, list, 5)
	prc, err := w.parcels.Get(ctx, agency, wp.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.StatusCertified, prc.Status)
	require.Equal(t, sandbox.NotaryCertifies, prc.Notary)
	require.Equal(t, wp.OwnerWallet, prc.Owner.WalletAddress)
	require.Equal(t, parcel.BindingIdentityVerified, prc.Owner.Binding)
	require.Equal(t, s.Holder.DID, prc.Owner.DID)
	for _, other := range []string{s.Parcels.Certified, s.Parcels.WithOpenTransfer} {
		p, err := w.parcels.Get(ctx, agency, other)
		require.NoError(t, err)
		require.Empty(t, p.Owner.WalletAddress, "the other seeded owners have no wallet")
		require.Equal(t, parcel.BindingNone, p.Owner.Binding)
	}

	// The holder signed in with that wallet owns exactly this parcel.
	mine, _, err := w.parcels.MyParcels(ctx, holderOf(t, s.Holder), "", 10)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	require.Equal(t, wp.ID, mine[0].ID)
	require.Equal(t, parcel.BindingIdentityVerified, mine[0].Owner.Binding)

	// A transfer waits for the owner; the seeded key's signature approves it.
	tr, err := w.parcels.RequestTransfer(ctx, agency, wp.ID, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Sandbox Buyer", IDDoc: "SBX-ID-0004"}, Notary: sandbox.NotarySilent})
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingOwner, tr.Status)
	require.Equal(t, wp.OwnerWallet, tr.OwnerConsent.OwnerWallet)
	digest := parcel.TransferConsentOf(tr, parcel.DecisionApproved).Digest(seedChainID)
	sig, err := ethsig.Sign(key, digest)
	require.NoError(t, err)
	done, err := w.parcels.DecideOwner(ctx, veriland.Sandbox, tr.ID, parcel.OwnerDecision{
		Decision: parcel.DecisionApproved, OwnerSignature: hexutil.Encode(sig), OwnerAddress: s.Holder.WalletAddress})
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingNotary, done.Status)
	require.Equal(t, wp.OwnerWallet, done.OwnerConsent.Signer)
}

// TestSeederWalletOwnersApart: each account's sandbox has its own holder and
// wallet-owned parcel; a holder lists its own only. (A reset, which erases the
// holder identity before seeding again, is tested through the server.)
func TestSeederWalletOwnersApart(t *testing.T) {
	w := newSeedWorld(t, true)
	ctx := t.Context()
	a, err := w.seeder.Ensure(ctx, "acct_a")
	require.NoError(t, err)
	b, err := w.seeder.Ensure(ctx, "acct_b")
	require.NoError(t, err)
	require.NotEqual(t, a.Seeded.WalletOwnedParcel.OwnerWallet, b.Seeded.WalletOwnedParcel.OwnerWallet)
	for _, st := range []*sandbox.State{a, b} {
		mine, _, err := w.parcels.MyParcels(ctx, holderOf(t, st.Seeded.Holder), "", 10)
		require.NoError(t, err)
		require.Len(t, mine, 1)
		require.Equal(t, st.Seeded.WalletOwnedParcel.ID, mine[0].ID)
	}
	// Seeded once: the state is kept.
	again, err := w.seeder.Ensure(ctx, "acct_a")
	require.NoError(t, err)
	require.Equal(t, a.Seeded, again.Seeded)
}

// TestSeederWithoutIdentities: without an identity service there is no holder, so no
// wallet-owned parcel; the four other parcels are seeded as before.
func TestSeederWithoutIdentities(t *testing.T) {
	w := newSeedWorld(t, false)
	st, err := w.seeder.Ensure(t.Context(), "acct_1")
	require.NoError(t, err)
	require.Equal(t, sandbox.SeededWalletParcel{}, st.Seeded.WalletOwnedParcel)
	require.Equal(t, sandbox.SeededHolder{}, st.Seeded.Holder)
	require.NotEmpty(t, st.Seeded.Parcels.Certified)
	agency := veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"}
	list, _, err := w.parcels.List(t.Context(), agency, "", 100)
	require.NoError(t, err)
	require.Len(t, list, 4)
}
