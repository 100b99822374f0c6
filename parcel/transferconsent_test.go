package parcel_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
)

// TestTransferConsentMatchesAPITypes: the hand-encoded TransferConsent hash is
// go-ethereum's, for edge values and both decisions, as built and after a JSON round
// trip (what a wallet receives).
func TestTransferConsentMatchesAPITypes(t *testing.T) {
	wallet := common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")
	messages := []parcel.TransferConsent{
		{},
		{TransferID: "trf_abcdefghijklmnopqrstuvwxyz", ParcelID: "prc_abcdefghijklmnopqrstuvwxyz", FromVersion: 1,
			NewOwnerIDDocHash: crypto.Keccak256Hash([]byte("id")), NewOwnerWallet: wallet, Notary: "NOT-ABJ-0042",
			Decision: parcel.DecisionApproved, Nonce: crypto.Keccak256Hash([]byte("nonce")), Deadline: 1772971200},
		{TransferID: "trf_x", ParcelID: "prc_ü", FromVersion: 7, Notary: "NOT-SBX-1", Decision: parcel.DecisionRejected,
			Deadline: 1},
		{TransferID: strings.Repeat("t", 300), FromVersion: 1<<64 - 1, Decision: "", Deadline: 1<<64 - 1,
			NewOwnerWallet: common.HexToAddress("0xffffffffffffffffffffffffffffffffffffffff")},
	}
	for i, m := range messages {
		for _, chain := range []uint64{1, 31337} {
			td := apitypes.TypedData(m.TypedData(chain))
			digest, ds, sh, err := ethsig.APIDigest(td)
			require.NoError(t, err)
			require.Equal(t, parcel.TransferDomain(chain).Separator(), ds, "message %d", i)
			require.Equal(t, m.StructHash(), sh, "message %d", i)
			require.Equal(t, m.Digest(chain), digest, "message %d", i)
			require.Equal(t, "Land Transfer", td.Domain.Name)
			require.Equal(t, "1", td.Domain.Version)
			require.Equal(t, parcel.TransferPrimaryType, td.PrimaryType)
			if m.FromVersion >= 1<<53 || m.Deadline >= 1<<53 {
				continue // JSON numbers beyond 2^53 do not survive a float64 reader
			}
			b, err := json.Marshal(m.TypedData(chain))
			require.NoError(t, err)
			var back apitypes.TypedData
			require.NoError(t, json.Unmarshal(b, &back))
			d2, _, _, err := ethsig.APIDigest(back)
			require.NoError(t, err)
			require.Equal(t, digest, d2, "message %d after a JSON round trip", i)
		}
	}
	td := apitypes.TypedData(messages[0].TypedData(1))
	require.Equal(t, common.BytesToHash(td.TypeHash(parcel.TransferPrimaryType)), crypto.Keccak256Hash([]byte(parcel.TransferEncodedType)))
	require.Equal(t, parcel.TransferEncodedType, string(td.EncodeType(parcel.TransferPrimaryType)))
	// Every member is signed: changing any one changes the digest.
	base := messages[1]
	for name, mut := range map[string]func(m *parcel.TransferConsent){
		"transferId":        func(m *parcel.TransferConsent) { m.TransferID += "x" },
		"parcelId":          func(m *parcel.TransferConsent) { m.ParcelID += "x" },
		"fromVersion":       func(m *parcel.TransferConsent) { m.FromVersion++ },
		"newOwnerIdDocHash": func(m *parcel.TransferConsent) { m.NewOwnerIDDocHash[0] ^= 1 },
		"newOwnerWallet":    func(m *parcel.TransferConsent) { m.NewOwnerWallet = common.Address{} },
		"notary":            func(m *parcel.TransferConsent) { m.Notary = "NOT-ABJ-0043" },
		"decision":          func(m *parcel.TransferConsent) { m.Decision = parcel.DecisionRejected },
		"nonce":             func(m *parcel.TransferConsent) { m.Nonce[31] ^= 1 },
		"deadline":          func(m *parcel.TransferConsent) { m.Deadline++ },
	} {
		m := base
		mut(&m)
		require.NotEqual(t, base.Digest(1), m.Digest(1), name)
	}
	require.NotEqual(t, base.Digest(1), base.Digest(31337), "chainId")
}

// TestServedTransferConsent: the typed data a transfer serves lacks "decision" and
// every other member is the transfer's; a wallet that adds the decision hashes it to
// TransferConsentOf's digest, before and after the transfer's JSON round trip.
func TestServedTransferConsent(t *testing.T) {
	for _, withBuyerWallet := range []bool{true, false} {
		t.Run(map[bool]string{true: "new owner with a wallet", false: "new owner without"}[withBuyerWallet], func(t *testing.T) {
			f := newFixture(t, nil)
			seller, buyer := newWallet(t), newWallet(t)
			var bw *wallet
			if withBuyerWallet {
				bw = &buyer
			}
			p, tr := f.ownerTransfer(t, seller, bw, nil)
			oc := tr.OwnerConsent
			require.Equal(t, parcel.ConsentOwnerSignature, oc.Method)
			require.Equal(t, seller.lower(), oc.OwnerWallet)
			td := oc.TypedData
			require.NotNil(t, td)
			require.Equal(t, parcel.TransferPrimaryType, td.PrimaryType)
			require.Equal(t, "Land Transfer", td.Domain.Name)
			require.EqualValues(t, testChainID, (*big.Int)(td.Domain.ChainId).Uint64())
			require.NotContains(t, td.Message, "decision", "the owner's client adds the decision")
			require.Len(t, td.Types[parcel.TransferPrimaryType], 9, "the type still declares decision")

			// The served message in JSON: every member but decision, with the
			// transfer's values.
			raw, err := json.Marshal(td.Message)
			require.NoError(t, err)
			var msg map[string]any
			require.NoError(t, json.Unmarshal(raw, &msg))
			wantWallet := "0x0000000000000000000000000000000000000000"
			if withBuyerWallet {
				wantWallet = buyer.addr
			}
			require.Equal(t, tr.ID, msg["transferId"])
			require.Equal(t, p.ID, msg["parcelId"])
			require.EqualValues(t, 1, msg["fromVersion"])
			require.Equal(t, tr.NewOwner.IDDocHash, msg["newOwnerIdDocHash"])
			require.Equal(t, wantWallet, msg["newOwnerWallet"])
			require.Equal(t, "NOT-ABJ-2", msg["notary"])
			require.Regexp(t, `^0x[0-9a-f]{64}$`, msg["nonce"])
			require.EqualValues(t, oc.Deadline.Unix(), msg["deadline"])
			require.Len(t, msg, 8)

			// TransferConsentOf, from the transfer as returned and as decoded from JSON.
			b, err := json.Marshal(tr)
			require.NoError(t, err)
			var back parcel.Transfer
			require.NoError(t, json.Unmarshal(b, &back))
			for _, decision := range []string{parcel.DecisionApproved, parcel.DecisionRejected} {
				served := servedTypedData(t, tr)
				served.Message["decision"] = decision
				want, _, err := apitypes.TypedDataAndHash(served)
				require.NoError(t, err)
				require.Equal(t, [32]byte(want), parcel.TransferConsentOf(tr, decision).Digest(testChainID), decision)
				require.Equal(t, [32]byte(want), parcel.TransferConsentOf(&back, decision).Digest(testChainID), decision)
				// The message as rebuilt hashes like the served typed data, members and all.
				full := parcel.TransferConsentOf(tr, decision).TypedData(testChainID)
				d2, _, _, err := ethsig.APIDigest(apitypes.TypedData(full))
				require.NoError(t, err)
				require.Equal(t, [32]byte(want), d2)
			}
			// Every read serves the same message (the nonce is stored, not remade).
			again, err := f.svc.GetTransfer(context.Background(), owner, tr.ID)
			require.NoError(t, err)
			require.Equal(t, parcel.TransferConsentOf(tr, parcel.DecisionApproved).Digest(testChainID),
				parcel.TransferConsentOf(again, parcel.DecisionApproved).Digest(testChainID))
			ctxView, err := f.svc.OwnerConsentContext(context.Background(), tr.Env, tr.ID)
			require.NoError(t, err)
			require.Equal(t, *tr.OwnerConsent.TypedData, *ctxView.TypedData)
		})
	}
	require.Nil(t, parcel.TransferConsentOf(nil, parcel.DecisionApproved))
	require.Nil(t, parcel.TransferConsentOf(&parcel.Transfer{OwnerConsent: &parcel.OwnerConsent{Method: parcel.ConsentNotaryWitnessed}}, parcel.DecisionApproved))
}

// TestCertificateTypedDataLayouts: the certificate message with and without the
// owner's wallet matches go-ethereum's hash, and the two layouts differ only by the
// wallet member.
func TestCertificateTypedDataLayouts(t *testing.T) {
	w := common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")
	base := parcel.Message{ParcelID: "prc_abcdefghijklmnopqrstuvwxyz", Version: 2, CertificateHash: crypto.Keccak256Hash([]byte("c")),
		TokenID: parcel.TokenID("prc_abcdefghijklmnopqrstuvwxyz", 2), Notary: "NOT-ABJ-0042", CertifiedAt: 1772366400}
	withWallet := base
	withWallet.OwnerWallet = &w
	zero := base
	zero.OwnerWallet = &common.Address{}
	for name, m := range map[string]parcel.Message{"without wallet": base, "with wallet": withWallet, "zero wallet": zero} {
		for _, chain := range []uint64{1, 31337} {
			td := apitypes.TypedData(m.TypedData(chain))
			digest, _, sh, err := ethsig.APIDigest(td)
			require.NoError(t, err, name)
			require.Equal(t, m.StructHash(), sh, name)
			require.Equal(t, m.Digest(chain), digest, name)
			want := parcel.EncodedType
			if m.OwnerWallet != nil {
				want = parcel.EncodedTypeWithWallet
			}
			require.Equal(t, want, string(td.EncodeType(parcel.PrimaryType)), name)
		}
	}
	require.NotEqual(t, base.Digest(1), zero.Digest(1), "the layout itself is signed")
	require.NotEqual(t, withWallet.Digest(1), zero.Digest(1))
}

// TestVerifyCertificateWithOwnerWallet: both layouts verify offline; a changed,
// removed or added wallet does not.
func TestVerifyCertificateWithOwnerWallet(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	w := newWallet(t)
	trusted := []common.Address{crypto.PubkeyToAddress(issuerKey.PublicKey)}
	opts := parcel.VerifyOptions{TrustedIssuers: trusted, ChainID: testChainID, Now: f.clock.Now()}
	served := func(t *testing.T, id string) parcel.SignedCertificate {
		sc, err := f.svc.Certificate(ctx, owner, id)
		require.NoError(t, err)
		b, err := json.Marshal(sc)
		require.NoError(t, err)
		var out parcel.SignedCertificate
		require.NoError(t, json.Unmarshal(b, &out))
		return out
	}
	withWallet := served(t, f.walletParcel(t, w).ID)
	without := served(t, f.certified(t).ID)
	require.Contains(t, withWallet.TypedData.Message, "ownerWallet")
	require.NotContains(t, without.TypedData.Message, "ownerWallet")

	for name, sc := range map[string]parcel.SignedCertificate{"with wallet": withWallet, "without wallet": without} {
		res, err := parcel.VerifyCertificate(&sc, opts)
		require.NoError(t, err, name)
		require.Equal(t, parcel.CertificateCurrent, res.Status)
		d, _, _, err := ethsig.APIDigest(apitypes.TypedData(sc.TypedData))
		require.NoError(t, err)
		require.NoError(t, ethsig.Verify(d, sc.Signature, trusted[0]), "%s: go-ethereum's hash of the served typed data is what was signed", name)
	}
	require.Equal(t, w.lower(), mustParsed(t, withWallet).Owner.WalletAddress)

	other := newWallet(t)
	// rewrite changes the certificate's owner member and restates its hash, as a
	// forger would.
	rewrite := func(t *testing.T, sc parcel.SignedCertificate, edit func(owner map[string]any)) parcel.SignedCertificate {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Certificate, &m))
		edit(m["owner"].(map[string]any))
		b, err := json.Marshal(m)
		require.NoError(t, err)
		sc.Certificate = b
		h, err := parcel.HashCertificateJSON(b)
		require.NoError(t, err)
		sc.Hash = parcel.HashString(h)
		sc.TypedData.Message = nil
		sc.TypedData.PrimaryType = ""
		return sc
	}
	tests := []struct {
		name string
		sc   func(t *testing.T) parcel.SignedCertificate
		want error
	}{
		{"wallet changed, hash kept", func(t *testing.T) parcel.SignedCertificate {
			sc := withWallet
			sc.Certificate = json.RawMessage(strings.Replace(string(sc.Certificate), w.lower(), other.lower(), 1))
			return sc
		}, parcel.ErrHashMismatch},
		{"wallet changed, hash restated", func(t *testing.T) parcel.SignedCertificate {
			return rewrite(t, withWallet, func(o map[string]any) { o["walletAddress"] = other.lower() })
		}, parcel.ErrUntrustedIssuer},
		{"wallet removed, hash restated", func(t *testing.T) parcel.SignedCertificate {
			return rewrite(t, withWallet, func(o map[string]any) { delete(o, "walletAddress"); delete(o, "binding") })
		}, parcel.ErrUntrustedIssuer},
		{"wallet added, hash restated", func(t *testing.T) parcel.SignedCertificate {
			return rewrite(t, without, func(o map[string]any) { o["walletAddress"] = other.lower(); o["binding"] = "NOTARY_VERIFIED" })
		}, parcel.ErrUntrustedIssuer},
		{"typed data names another wallet", func(t *testing.T) parcel.SignedCertificate {
			sc := withWallet
			msg := map[string]any{}
			for k, v := range sc.TypedData.Message {
				msg[k] = v
			}
			msg["ownerWallet"] = other.addr
			sc.TypedData.Message = msg
			return sc
		}, parcel.ErrTypedDataMismatch},
		{"typed data drops the wallet", func(t *testing.T) parcel.SignedCertificate {
			sc := withWallet
			c := mustParsed(t, sc)
			h, _ := parcel.ParseHash(sc.Hash)
			m := parcel.Message{ParcelID: c.ParcelID, Version: c.Version, CertificateHash: h, TokenID: c.TokenID, Notary: c.Notary,
				CertifiedAt: uint64(c.CertifiedAt.Unix())}
			sc.TypedData = m.TypedData(testChainID)
			return sc
		}, parcel.ErrTypedDataMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := tt.sc(t)
			_, err := parcel.VerifyCertificate(&sc, opts)
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func mustParsed(t *testing.T, sc parcel.SignedCertificate) *parcel.Certificate {
	t.Helper()
	c, err := sc.Parsed()
	require.NoError(t, err)
	return c
}
