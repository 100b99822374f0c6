package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
)

// The SANDBOX chain is in-process (go-ethereum's simulated backend), so no wallet,
// explorer or script could see its land titles. POST /v1/sandbox/chain serves it as a
// read-only Ethereum JSON-RPC 2.0 endpoint, single calls and batches, so that
// ethers' JsonRpcProvider, viem's http transport, cast or curl can read ownerOf,
// locked and certificateHash of the sandbox's titles, and estimate a transfer (which
// reverts with Soulbound()). Only the methods of sandboxChainMethods are served:
// nothing that sends, signs or mines. The answers are JSON-RPC's own (HTTP 200 with
// a result or an error object, revert data included), not JSON:API documents.

// sandboxChainMethods are the JSON-RPC methods POST /v1/sandbox/chain forwards.
var sandboxChainMethods = map[string]bool{
	"eth_chainId": true, "net_version": true, "web3_clientVersion": true, "eth_blockNumber": true,
	"eth_call": true, "eth_estimateGas": true, "eth_getCode": true, "eth_getLogs": true,
	"eth_getBalance": true, "eth_getTransactionCount": true, "eth_getStorageAt": true,
	"eth_getTransactionByHash": true, "eth_getTransactionReceipt": true,
	"eth_getBlockByNumber": true, "eth_getBlockByHash": true,
	"eth_gasPrice": true, "eth_maxPriorityFeePerGas": true, "eth_feeHistory": true,
}

const (
	sandboxChainMaxBatch = 20
	sandboxChainTimeout  = 10 * time.Second
)

// JSON-RPC 2.0 error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
)

type rpcRequest struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id,omitempty"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// sandboxChain answers POST /v1/sandbox/chain (public).
func (s *Server) sandboxChain(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(r, nil)
	if err != nil {
		return err
	}
	body = bytes.TrimSpace(body)
	write := func(v any) error {
		w.Header().Set("Content-Type", mediaJSON)
		w.Header().Set("Cache-Control", "no-store")
		return json.NewEncoder(w).Encode(v)
	}
	if len(body) > 0 && body[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(body, &batch); err != nil {
			return write(rpcFailure(nil, rpcParseError, "parse error: "+err.Error()))
		}
		if len(batch) == 0 || len(batch) > sandboxChainMaxBatch {
			return write(rpcFailure(nil, rpcInvalidRequest, "a batch holds 1 to 20 calls"))
		}
		out := make([]rpcResponse, len(batch))
		for i, raw := range batch {
			out[i] = s.sandboxChainCall(r.Context(), raw)
		}
		return write(out)
	}
	return write(s.sandboxChainCall(r.Context(), body))
}

func rpcFailure(id json.RawMessage, code int, msg string) rpcResponse {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return rpcResponse{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

// sandboxChainCall forwards one call to the sandbox chain.
func (s *Server) sandboxChainCall(ctx context.Context, raw json.RawMessage) rpcResponse {
	var req rpcRequest
	if !json.Valid(raw) {
		return rpcFailure(nil, rpcParseError, "parse error: the body is not JSON")
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return rpcFailure(nil, rpcInvalidRequest, "invalid request: "+err.Error())
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		return rpcFailure(req.ID, rpcInvalidRequest, `invalid request: jsonrpc must be "2.0" and method set`)
	}
	if !sandboxChainMethods[req.Method] {
		return rpcFailure(req.ID, rpcMethodNotFound, "method "+req.Method+" is not served: the sandbox chain is read-only here (eth_call, eth_estimateGas, eth_getLogs, receipts, blocks)")
	}
	ctx, cancel := context.WithTimeout(ctx, sandboxChainTimeout)
	defer cancel()
	params := make([]any, len(req.Params))
	for i, p := range req.Params {
		params[i] = p
	}
	var result json.RawMessage
	if err := s.cfg.SandboxChain.CallContext(ctx, &result, req.Method, params...); err != nil {
		resp := rpcFailure(req.ID, rpcInternalError, err.Error())
		var re rpc.Error
		if errors.As(err, &re) {
			resp.Error.Code = re.ErrorCode()
		}
		var de rpc.DataError
		if errors.As(err, &de) {
			resp.Error.Data = de.ErrorData()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			s.log.WarnContext(ctx, "sandbox chain call timed out", "method", req.Method)
		}
		return resp
	}
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	if len(req.ID) == 0 {
		req.ID = json.RawMessage("null")
	}
	return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: result}
}
