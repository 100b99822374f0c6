package httpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
)

// landTitleHarness is a harness whose SANDBOX has a simulated chain with LandTitle,
// served at POST /v1/sandbox/chain.
func landTitleHarness(t *testing.T) (*harness, *landtitle.Contract) {
	t.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	// As the reference server does: the simulated chain's node on a Unix socket, and
	// LandTitle deployed on it.
	chain, err := anchor.NewSimulated(key, anchor.WithIPC(filepath.Join(shortTempDir(t), "chain.ipc")))
	require.NoError(t, err)
	t.Cleanup(func() { _ = chain.Close() })
	b := chain.Backend()
	sim, _, err := landtitle.Deploy(context.Background(), b.Client(),
		landtitle.Config{Key: key, PollInterval: time.Millisecond, AfterSend: func() { b.Commit() }}, "http://veriland.test/v1/tokens/")
	require.NoError(t, err)
	h := newHarness(t, func(c *Config) {
		c.RateLimits.Disabled = true
		c.SandboxChain = chain.RPC()
	})
	h.srv.cfg.Parcels.Titles = map[veriland.Environment]parcel.TitleChain{veriland.Sandbox: sim}
	return h, sim
}

// shortTempDir is a temporary directory with a short path: a Unix socket's path
// must stay under about 100 bytes, and t.TempDir()'s can be longer.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vl")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// runChainJobs runs the server's chain-job worker until a round does nothing.
func (h *harness) runChainJobs(t *testing.T) {
	t.Helper()
	h.srv.chainJobs.Policy.Fence = nil // one replica, and Run (which takes the lease) is not running
	for range 20 {
		n, err := h.srv.chainJobs.RunOnce(context.Background())
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
}

// rpcCall posts one JSON-RPC call to the sandbox chain and decodes the answer.
func (h *harness) rpcCall(t *testing.T, method string, params ...any) map[string]any {
	t.Helper()
	r := h.do(request{method: "POST", path: "/v1/sandbox/chain",
		body: map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params}})
	require.Equal(t, 200, r.status, string(r.body))
	return r.json(t)
}

func abiCall(selector string, args ...[]byte) string {
	data := crypto.Keccak256([]byte(selector))[:4]
	for _, a := range args {
		data = append(data, common.LeftPadBytes(a, 32)...)
	}
	return "0x" + common.Bytes2Hex(data)
}

func TestLandTitleThroughTheServer(t *testing.T) {
	h, sim := landTitleHarness(t)
	agent := h.token(veriland.RoleVerifier, veriland.Sandbox, "agency-1")
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	wallet := crypto.PubkeyToAddress(key.PublicKey)
	body := fmt.Sprintf(`{"owner":{"fullName":"Amina Bello","id_doc":"A1234567","walletAddress":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":1200,"city":"Abuja"},"notary":"NOT-SBX-1"}`, wallet.Hex())
	r := h.do(request{method: "POST", path: "/v1/parcels", token: agent, body: body})
	require.Equal(t, 201, r.status, string(r.body))
	p := attrs(t, r)
	require.Equal(t, "CERTIFIED", p["status"])
	tok := p["token"].(map[string]any)
	require.Equal(t, "PENDING", tok["status"])
	require.Equal(t, "OWNER_WALLET", tok["holderKind"])
	require.Equal(t, strings.ToLower(wallet.Hex()), tok["holder"])
	require.Equal(t, sim.Address().Hex(), tok["contract"])
	require.EqualValues(t, 1337, tok["chainId"])

	h.runChainJobs(t)
	p = attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + p["id"].(string), token: agent}))
	tok = p["token"].(map[string]any)
	require.Equal(t, "MINTED", tok["status"])
	mintTx := tok["mintTx"].(string)
	require.Regexp(t, `^0x[0-9a-f]{64}$`, mintTx)
	hash := p["certificateHash"].(string)

	// The public verification carries the title.
	v := attrs(t, h.do(request{method: "GET", path: "/v1/registry/verify/" + hash}))
	require.Equal(t, "ANCHORED", v["anchor"].(map[string]any)["status"])
	require.Equal(t, mintTx, v["token"].(map[string]any)["mintTx"])

	// The chain, read through POST /v1/sandbox/chain as a wallet would.
	id, ok := new(big.Int).SetString(tok["tokenId"].(string), 10)
	require.True(t, ok)
	contract := sim.Address().Hex()
	owner := h.rpcCall(t, "eth_call", map[string]string{"to": contract, "data": abiCall("ownerOf(uint256)", id.Bytes())}, "latest")
	require.Equal(t, "0x"+common.Bytes2Hex(common.LeftPadBytes(wallet.Bytes(), 32)), owner["result"])
	locked := h.rpcCall(t, "eth_call", map[string]string{"to": contract, "data": abiCall("locked(uint256)", id.Bytes())}, "latest")
	require.Equal(t, "0x"+strings.Repeat("0", 63)+"1", locked["result"])
	certHash := h.rpcCall(t, "eth_call", map[string]string{"to": contract, "data": abiCall("certificateHash(uint256)", id.Bytes())}, "latest")
	require.Equal(t, hash, certHash["result"])
	rcpt := h.rpcCall(t, "eth_getTransactionReceipt", mintTx)
	require.Equal(t, "0x1", rcpt["result"].(map[string]any)["status"])

	// The owner's transfer reverts with Soulbound(), revert data included.
	est := h.rpcCall(t, "eth_estimateGas", map[string]string{"from": wallet.Hex(), "to": contract,
		"data": abiCall("transferFrom(address,address,uint256)", wallet.Bytes(), common.HexToAddress("0x01").Bytes(), id.Bytes())})
	require.Nil(t, est["result"])
	rerr := est["error"].(map[string]any)
	require.EqualValues(t, 3, rerr["code"], rerr)
	require.Equal(t, "0xa4420a95", rerr["data"])

	// Batches, and what is refused.
	r = h.do(request{method: "POST", path: "/v1/sandbox/chain", skipSpec: true, // a method the document does not list
		body: `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":"b","method":"eth_sendRawTransaction","params":["0x00"]}]`})
	require.Equal(t, 200, r.status)
	var batch []map[string]any
	require.NoError(t, json.Unmarshal(r.body, &batch))
	require.Equal(t, "0x539", batch[0]["result"])
	require.EqualValues(t, -32601, batch[1]["error"].(map[string]any)["code"])
	require.Equal(t, "b", batch[1]["id"])
	for _, tc := range []struct {
		body string
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"eth_call"`, -32700},
		{`{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}`, -32600},
		{"[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},`, 21), ",") + "]", -32600},
		{`[]`, -32600},
		{`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"nope"},"latest"]}`, -32602},
	} {
		r := h.do(request{method: "POST", path: "/v1/sandbox/chain", body: tc.body, skipSpec: true})
		require.Equal(t, 200, r.status, tc.body)
		require.EqualValues(t, tc.code, r.json(t)["error"].(map[string]any)["code"], tc.body)
	}

	// An owner without a wallet: the registry's custody. Its transfer (the sandbox
	// notary approves at once) burns the title and mints the next one.
	r = h.do(request{method: "POST", path: "/v1/parcels", token: agent,
		body: `{"owner":{"fullName":"Musa Danjuma","id_doc":"C1234567"},"parcel":{"gps":[9.1,7.4],"area_m2":900,"city":"Abuja"},"notary":"NOT-SBX-1"}`})
	require.Equal(t, 201, r.status, string(r.body))
	q := attrs(t, r)
	require.Equal(t, "REGISTRY_CUSTODY", q["token"].(map[string]any)["holderKind"])
	require.Equal(t, sim.Registry().Hex(), q["token"].(map[string]any)["holder"])
	h.runChainJobs(t)
	tr := h.do(request{method: "POST", path: "/v1/parcels/" + q["id"].(string) + "/transfer", token: agent,
		body: `{"newOwner":{"fullName":"Chidi Okafor","id_doc":"B7654321"},"notary":"NOT-SBX-1"}`})
	require.Equal(t, 202, tr.status, string(tr.body))
	require.Equal(t, "COMPLETED", attrs(t, tr)["status"])
	h.runChainJobs(t)
	old := attrs(t, h.do(request{method: "GET", path: "/v1/registry/verify/" + q["certificateHash"].(string)}))["token"].(map[string]any)
	require.Equal(t, "BURNED", old["status"])
	require.Regexp(t, `^0x[0-9a-f]{64}$`, old["burnTx"])
	oldID, _ := new(big.Int).SetString(old["tokenId"].(string), 10)
	title, err := sim.Title(context.Background(), oldID)
	require.NoError(t, err)
	require.Equal(t, landtitle.Burned, title.State)
	cur := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + q["id"].(string), token: agent}))["token"].(map[string]any)
	require.Equal(t, "MINTED", cur["status"])

	// The worker's metrics.
	m := h.do(request{method: "GET", path: "/metrics"})
	require.Contains(t, string(m.body), `veriland_chain_jobs_total{kind="landtitle.sync",outcome="done"}`)
}
