package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
)

func fixedNow() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }

func newWallet(t *testing.T) (key, address string) {
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"new"}, nil, &out, &out, fixedNow))
	var w map[string]string
	require.NoError(t, json.Unmarshal(out.Bytes(), &w))
	return w["privateKey"], w["address"]
}

func TestSIWE(t *testing.T) {
	key, addr := newWallet(t)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"siwe", "-key", key, "-nonce", "abcdef123456"}, nil, &out, &errOut, fixedNow), errOut.String())
	var body map[string]string
	require.NoError(t, json.Unmarshal(out.Bytes(), &body))
	msg, err := siwe.Parse(body["message"])
	require.NoError(t, err)
	require.Equal(t, addr, msg.Address)
	require.Equal(t, "127.0.0.1:8080", msg.Domain)
	sig, err := hexutil.Decode(body["signature"])
	require.NoError(t, err)
	got, err := ethsig.Recover(ethsig.PersonalDigest([]byte(body["message"])), sig)
	require.NoError(t, err)
	require.Equal(t, common.HexToAddress(addr), got)
}

func TestConsentSignature(t *testing.T) {
	key, addr := newWallet(t)
	msg := consent.ConsentTypedData{RequestID: "vrq_x", Subject: "did:veriland:abc", Verifier: "acme", Deadline: 1795305600}
	td := msg.TypedData(1)
	delete(td.Message, "decision")
	delete(td.Message, "disclosedScopeHash")
	input, err := json.Marshal(map[string]any{"scope": []string{"is_adult", "nationality"}, "typedData": td})
	require.NoError(t, err)

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"consent", "-key", key, "-disclose", "is_adult"}, bytes.NewReader(input), &out, &errOut, fixedNow), errOut.String())
	var body struct {
		HolderAddress   string   `json:"holderAddress"`
		DisclosedScope  []string `json:"disclosedScope"`
		HolderSignature string   `json:"holderSignature"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &body))
	require.Equal(t, addr, body.HolderAddress)

	// What the service will check: the hand-written encoder's digest recovers to us.
	msg.Decision = "APPROVED"
	msg.DisclosedScopeHash = consent.DisclosedScopeHash(body.DisclosedScope)
	sig, err := hexutil.Decode(body.HolderSignature)
	require.NoError(t, err)
	got, err := ethsig.Recover(msg.Digest(1), sig)
	require.NoError(t, err)
	require.Equal(t, common.HexToAddress(addr), got)

	require.Equal(t, 1, run([]string{"consent", "-key", key}, strings.NewReader("not json"), &out, &errOut, fixedNow))
	require.Equal(t, 2, run(nil, nil, &out, &errOut, fixedNow))
}

func TestTransferSignature(t *testing.T) {
	key, addr := newWallet(t)
	msg := parcel.TransferConsent{TransferID: "trf_x", ParcelID: "prc_y", FromVersion: 1, Notary: "NOT-ABJ-0042", Deadline: 1795305600}
	msg.NewOwnerIDDocHash[0], msg.Nonce[31] = 0xab, 0x01
	td := msg.TypedData(1)
	delete(td.Message, "decision")
	owner := func(attrs map[string]any) []byte {
		b, err := json.Marshal(map[string]any{"data": map[string]any{"type": "owner-consents", "id": "trf_x", "attributes": attrs}})
		require.NoError(t, err)
		return b
	}
	for _, tc := range []struct {
		name, decision string
		input          []byte
	}{
		{"owner-consent document", "APPROVED", owner(map[string]any{"typedData": td})},
		{"transfer document", "REJECTED", owner(map[string]any{"ownerConsent": map[string]any{"typedData": td}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			require.Equal(t, 0, run([]string{"transfer", "-key", key, "-decision", tc.decision}, bytes.NewReader(tc.input), &out, &errOut, fixedNow), errOut.String())
			var body struct{ Decision, OwnerSignature, OwnerAddress string }
			require.NoError(t, json.Unmarshal(out.Bytes(), &body))
			require.Equal(t, addr, body.OwnerAddress)
			require.Equal(t, tc.decision, body.Decision)
			// What the service checks: the hand-written encoder's digest recovers to us.
			m := msg
			m.Decision = tc.decision
			sig, err := hexutil.Decode(body.OwnerSignature)
			require.NoError(t, err)
			got, err := ethsig.Recover(m.Digest(1), sig)
			require.NoError(t, err)
			require.Equal(t, common.HexToAddress(addr), got)
		})
	}
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run([]string{"transfer", "-key", key}, strings.NewReader(`{"data":{"attributes":{"ownerConsent":{"method":"NOTARY_WITNESSED"}}}}`), &out, &errOut, fixedNow))
	require.Contains(t, errOut.String(), "no data.attributes.typedData")
}
