package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/parcel/landtitle"
)

func TestTitle(t *testing.T) {
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "vlw") // a Unix socket's path must stay short
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ipc := filepath.Join(dir, "chain.ipc")
	chain, err := anchor.NewSimulated(key, anchor.WithIPC(ipc))
	require.NoError(t, err)
	t.Cleanup(func() { _ = chain.Close() })
	b := chain.Backend()
	ctx := context.Background()
	lt, _, err := landtitle.Deploy(ctx, b.Client(), landtitle.Config{Key: key, PollInterval: time.Millisecond, AfterSend: func() { b.Commit() }},
		"https://registry.example/v1/tokens/")
	require.NoError(t, err)
	holder := common.HexToAddress("0x1111111111111111111111111111111111111111")
	hash := crypto.Keccak256Hash([]byte("certificate"))
	_, err = lt.Mint(ctx, holder, big.NewInt(42), hash)
	require.NoError(t, err)

	read := func(stdin string, args ...string) (map[string]any, string) {
		var out, errOut bytes.Buffer
		code := run(append([]string{"title", "-rpc", ipc}, args...), strings.NewReader(stdin), &out, &errOut, fixedNow)
		if code != 0 {
			return nil, errOut.String()
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &m))
		return m, ""
	}
	parcelDoc := `{"data":{"attributes":{"token":{"contract":"` + lt.Address().Hex() + `","tokenId":"42"}}}}`
	got, errText := read(parcelDoc)
	require.Empty(t, errText)
	require.Equal(t, holder.Hex(), got["ownerOf"])
	require.Equal(t, true, got["locked"])
	require.Equal(t, hash.Hex(), got["certificateHash"])
	require.Equal(t, "https://registry.example/v1/tokens/42", got["tokenURI"])
	require.Equal(t, "reverted: Soulbound()", got["transferFromByHolder"])
	require.EqualValues(t, 1337, got["chainId"])

	_, err = lt.Burn(ctx, big.NewInt(42))
	require.NoError(t, err)
	got, errText = read("", "-contract", lt.Address().Hex(), "-token", "42")
	require.Empty(t, errText)
	require.Equal(t, false, got["exists"])
	require.Contains(t, got["ownerOf"], "reverted")
	require.Equal(t, hash.Hex(), got["certificateHash"], "a burned title keeps its hash")

	for _, tc := range []struct{ stdin, want string }{
		{"", "reading the parcel JSON"},
		{`{"data":{"attributes":{}}}`, "no token on stdin"},
		{`{"contract":"0x12","tokenId":"1"}`, "is not a 0x address"},
		{`{"contract":"` + lt.Address().Hex() + `","tokenId":"-1"}`, "is not a decimal token id"},
	} {
		_, errText := read(tc.stdin)
		require.Contains(t, errText, tc.want, tc.stdin)
	}
}
