package main

import (
	"crypto/ecdsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation/anchor"
)

// simulatedNode serves go-ethereum's simulated chain, whose genesis funds key, as an
// HTTP JSON-RPC node on loopback (what -eth-rpc dials), mining a block after each
// transaction it receives. The path of its URL is ignored (a provider's API key goes
// there). The chain id is 1337.
func simulatedNode(t *testing.T, key *ecdsa.PrivateKey) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vln") // a Unix socket's path must stay short
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	chain, err := anchor.NewSimulated(key, anchor.WithIPC(filepath.Join(dir, "node.ipc")))
	require.NoError(t, err)
	t.Cleanup(func() { _ = chain.Close() })
	node := chain.RPC()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		params := make([]any, len(req.Params))
		for i, p := range req.Params {
			params[i] = p
		}
		var result json.RawMessage
		out := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if err := node.CallContext(r.Context(), &result, req.Method, params...); err != nil {
			e := map[string]any{"code": -32000, "message": err.Error()}
			if re, ok := err.(rpc.Error); ok {
				e["code"] = re.ErrorCode()
			}
			if de, ok := err.(rpc.DataError); ok {
				e["data"] = de.ErrorData()
			}
			out["error"] = e
		} else {
			out["result"] = result
			if req.Method == "eth_sendRawTransaction" {
				chain.Backend().Commit()
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v3/s3cret"
}
