package main

import (
	"context"
	"encoding/hex"
	"io"
	"regexp"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

// PRODUCTION's chain: the first start deploys LandTitle, records it and logs it; a
// restart on the same data binds the same contract; a -chain-id that is not the
// node's is refused; -land-title-contract binds a given deployment and refuses an
// address that is not a LandTitle of this registry.
func TestProductionLandTitleDeployment(t *testing.T) {
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	keyFile := writeAnchorKey(t, 0o600, hex.EncodeToString(crypto.FromECDSA(k)))
	node := simulatedNode(t, k)
	data := t.TempDir()
	contractRe := regexp.MustCompile(`land title contract" contract=(0x[0-9a-fA-F]{40}).*deployed=(\w+)`)
	start := func(extra ...string) (string, string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var errOut lockedBuffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, append([]string{"-data", data, "-addr", "127.0.0.1:0", "-eth-rpc", node, "-anchor-key", keyFile, "-chain-id", "1337"}, extra...), io.Discard, &errOut)
		}()
		require.Eventually(t, func() bool {
			select {
			case code := <-done:
				t.Fatalf("exited with %d: %s", code, errOut.String())
			default:
			}
			return regexp.MustCompile("listening on ").MatchString(errOut.String())
		}, 30e9, 20e6)
		m := contractRe.FindStringSubmatch(errOut.String())
		require.NotNil(t, m, errOut.String())
		cancel()
		<-done
		return m[1], m[2]
	}
	first, how := start()
	require.Equal(t, "now", how)
	again, how := start()
	require.Equal(t, "earlier", how)
	require.Equal(t, first, again, "the recorded deployment")
	given, how := start("-land-title-contract", first)
	require.Equal(t, first, given)
	require.Equal(t, "given", how)

	refused := func(want string, args ...string) {
		t.Helper()
		var errOut lockedBuffer
		code := run(context.Background(), append([]string{"-data", t.TempDir(), "-addr", "127.0.0.1:0", "-eth-rpc", node, "-anchor-key", keyFile}, args...), io.Discard, &errOut)
		require.NotZero(t, code)
		require.Contains(t, errOut.String(), want)
	}
	refused("does not match the chain id 1337", "-chain-id", "1")
	refused("-land-title-contract", "-chain-id", "1337", "-land-title-contract", crypto.PubkeyToAddress(k.PublicKey).Hex()) // an account, not a contract
	other, err := crypto.GenerateKey()
	require.NoError(t, err)
	otherFile := writeAnchorKey(t, 0o600, hex.EncodeToString(crypto.FromECDSA(other)))
	var errOut lockedBuffer
	code := run(context.Background(), []string{"-data", t.TempDir(), "-addr", "127.0.0.1:0", "-eth-rpc", node, "-anchor-key", otherFile,
		"-chain-id", "1337", "-land-title-contract", first}, io.Discard, &errOut)
	require.NotZero(t, code, "another registry account's contract")
	require.Contains(t, errOut.String(), "-land-title-contract")
}
