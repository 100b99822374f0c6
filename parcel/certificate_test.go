package parcel_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
)

func TestTypedDataMatchesAPITypes(t *testing.T) {
	messages := []parcel.Message{
		{},
		{ParcelID: "prc_abcdefghijklmnopqrstuvwxyz", Version: 1, CertificateHash: crypto.Keccak256Hash([]byte("c")),
			TokenID: parcel.TokenID("prc_abcdefghijklmnopqrstuvwxyz", 1), Notary: "NOT-ABJ-0042", CertifiedAt: 1772366400},
		{ParcelID: "prc_ü", Version: 1<<64 - 1, TokenID: "0", Notary: "NOT-SBX-3", CertifiedAt: 1<<64 - 1},
	}
	for i, m := range messages {
		for _, chain := range []uint64{1, 31337} {
			td := apitypes.TypedData(m.TypedData(chain))
			digest, ds, sh, err := ethsig.APIDigest(td)
			require.NoError(t, err)
			require.Equal(t, parcel.Domain(chain).Separator(), ds, "message %d", i)
			require.Equal(t, m.StructHash(), sh, "message %d", i)
			require.Equal(t, m.Digest(chain), digest, "message %d", i)
			if m.Version >= 1<<53 || m.CertifiedAt >= 1<<53 {
				continue // JSON numbers beyond 2^53 do not survive a float64 reader
			}
			// As served: JSON round trip, then go-ethereum hashes it the same way.
			b, err := json.Marshal(m.TypedData(chain))
			require.NoError(t, err)
			var back apitypes.TypedData
			require.NoError(t, json.Unmarshal(b, &back))
			d2, _, _, err := ethsig.APIDigest(back)
			require.NoError(t, err)
			require.Equal(t, digest, d2)
		}
	}
	td := apitypes.TypedData(messages[0].TypedData(1))
	require.Equal(t, common.BytesToHash(td.TypeHash(parcel.PrimaryType)), crypto.Keccak256Hash([]byte(parcel.EncodedType)))
}

func TestTokenIDIsEncodePacked(t *testing.T) {
	// uint256(keccak256(abi.encodePacked("prc_x", uint64(2)))).
	h := crypto.Keccak256(append([]byte("prc_x"), 0, 0, 0, 0, 0, 0, 0, 2))
	require.Equal(t, new(big.Int).SetBytes(h).String(), parcel.TokenID("prc_x", 2))
}

func TestParseHash(t *testing.T) {
	good := "0x" + "Ab" + "00112233445566778899aabbccddeeff00112233445566778899aabbccddee"
	_, err := parcel.ParseHash(good)
	require.NoError(t, err)
	for _, bad := range []string{"", "0x", good[:65], good + "0", "0y" + good[2:], "0x" + "zz" + good[4:]} {
		_, err := parcel.ParseHash(bad)
		require.Equal(t, veriland.CodeValidationFailed, codeOf(err), bad)
	}
}

func TestVerifyCertificateOffline(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	sc, err := f.svc.Certificate(ctx, owner, p.ID)
	require.NoError(t, err)
	// The certificate travels as JSON: verify what a client would read back.
	b, err := json.Marshal(sc)
	require.NoError(t, err)
	var served parcel.SignedCertificate
	require.NoError(t, json.Unmarshal(b, &served))
	trusted := []common.Address{crypto.PubkeyToAddress(issuerKey.PublicKey)}
	opts := parcel.VerifyOptions{TrustedIssuers: trusted, ChainID: testChainID, Now: f.clock.Now()}

	res, err := parcel.VerifyCertificate(&served, opts)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateCurrent, res.Status)
	require.False(t, res.StatusChecked)
	require.Equal(t, p.ID, res.Certificate.ParcelID)

	// Signature through go-ethereum too: the served typed data hashes to what was signed.
	digest, _, _, err := ethsig.APIDigest(apitypes.TypedData(served.TypedData))
	require.NoError(t, err)
	require.NoError(t, ethsig.Verify(digest, served.Signature, trusted[0]))

	statuses, err := f.svc.Statuses(ctx, veriland.Production, time.Time{})
	require.NoError(t, err)
	opts.Statuses = statuses
	res, err = parcel.VerifyCertificate(&served, opts)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateCurrent, res.Status)
	require.True(t, res.StatusChecked)

	t.Run("tampered", func(t *testing.T) {
		bad := served
		bad.Certificate = json.RawMessage(string(served.Certificate[:len(served.Certificate)-1]) + `,"x":1}`)
		_, err := parcel.VerifyCertificate(&bad, opts)
		require.ErrorIs(t, err, parcel.ErrHashMismatch)
		// Tampered with the hash recomputed: the signature no longer matches the issuer.
		h, _ := parcel.HashCertificateJSON(bad.Certificate)
		bad.Hash = parcel.HashString(h)
		_, err = parcel.VerifyCertificate(&bad, opts)
		require.ErrorIs(t, err, parcel.ErrUntrustedIssuer)
	})
	t.Run("typed data swapped", func(t *testing.T) {
		bad := served
		m := parcel.Message{ParcelID: "prc_other", Version: 1}
		bad.TypedData = m.TypedData(testChainID)
		_, err := parcel.VerifyCertificate(&bad, opts)
		require.ErrorIs(t, err, parcel.ErrTypedDataMismatch)
	})
	t.Run("untrusted issuer", func(t *testing.T) {
		o := opts
		o.TrustedIssuers = []common.Address{{1}}
		o.Statuses = nil
		_, err := parcel.VerifyCertificate(&served, o)
		require.ErrorIs(t, err, parcel.ErrUntrustedIssuer)
	})
	t.Run("wrong chain", func(t *testing.T) {
		o := opts
		o.ChainID = 1
		o.Statuses = nil
		_, err := parcel.VerifyCertificate(&served, o)
		require.ErrorIs(t, err, parcel.ErrUntrustedIssuer)
		bare := served
		bare.TypedData = attestation.TypedData{}
		_, err = parcel.VerifyCertificate(&bare, opts)
		require.NoError(t, err)
	})
	t.Run("bad signature", func(t *testing.T) {
		bad := served
		bad.Signature = append([]byte{}, served.Signature[:64]...)
		_, err := parcel.VerifyCertificate(&bad, opts)
		require.ErrorIs(t, err, parcel.ErrBadSignature)
	})
	t.Run("malformed", func(t *testing.T) {
		_, err := parcel.VerifyCertificate(&parcel.SignedCertificate{Certificate: json.RawMessage(`[1]`)}, opts)
		require.ErrorIs(t, err, parcel.ErrMalformedCertificate)
		_, err = parcel.VerifyCertificate(nil, opts)
		require.ErrorIs(t, err, parcel.ErrMalformedCertificate)
	})

	// After a transfer the old certificate is SUPERSEDED according to a fresh status list.
	tr, err := f.svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	_, err = f.svc.ApproveTransfer(ctx, otherNotary, tr.ID)
	require.NoError(t, err)
	statuses, err = f.svc.Statuses(ctx, veriland.Production, time.Time{})
	require.NoError(t, err)
	sb, err := json.Marshal(statuses)
	require.NoError(t, err)
	var list parcel.StatusList
	require.NoError(t, json.Unmarshal(sb, &list))
	opts.Statuses = &list
	res, err = parcel.VerifyCertificate(&served, opts)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateSuperseded, res.Status)
	require.NotNil(t, res.StatusAt)

	t.Run("forged status list", func(t *testing.T) {
		forged := list
		forged.Entries = nil // hide the supersession
		o := opts
		o.Statuses = &forged
		_, err := parcel.VerifyCertificate(&served, o)
		require.ErrorIs(t, err, parcel.ErrBadStatusList)

		// Re-signed by another key claiming to be the issuer.
		other, _ := crypto.GenerateKey()
		resigned := list
		resigned.Entries = []parcel.StatusEntry{}
		require.NoError(t, parcel.SignStatusList(&resigned, other))
		o.Statuses = &resigned
		_, err = parcel.VerifyCertificate(&served, o)
		require.ErrorIs(t, err, parcel.ErrBadStatusList)

		future := list
		future.IssuedAt = f.clock.Now().Add(time.Hour)
		require.NoError(t, parcel.SignStatusList(&future, issuerKey))
		o.Statuses = &future
		_, err = parcel.VerifyCertificate(&served, o)
		require.ErrorIs(t, err, parcel.ErrBadStatusList)
	})
	var ve *veriland.Error
	_, err = parcel.VerifyCertificate(&parcel.SignedCertificate{}, opts)
	require.True(t, errors.As(err, &ve))
}
