package httpserver

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// fakeEth is a JSON-RPC service with two of the served methods.
type fakeEth struct{}

func (fakeEth) ChainId() hexutil.Uint64 { return 1337 }

func (fakeEth) Call(args map[string]any, block string) (hexutil.Bytes, error) {
	if args["to"] == nil {
		return nil, &rpcTestError{}
	}
	return hexutil.Bytes{1}, nil
}

type rpcTestError struct{}

func (*rpcTestError) Error() string          { return "execution reverted" }
func (*rpcTestError) ErrorCode() int         { return 3 }
func (*rpcTestError) ErrorData() interface{} { return "0xa4420a95" }

// FuzzSandboxChain: whatever the body, POST /v1/sandbox/chain answers 200 with one
// JSON-RPC response per call (an array for a batch), never a 500 or a panic, and a
// method outside the served list never reaches the node.
func FuzzSandboxChain(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":"x","method":"eth_call","params":[{"to":"0x01"},"latest"]}]`,
		`{"jsonrpc":"2.0","id":null,"method":"eth_call","params":[{},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"admin_peers"}`,
		`{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x00"]}`,
		`[]`, `[1,2]`, `{"jsonrpc":"2.0"`, `null`, `"x"`, `{"jsonrpc":"2.0","id":{},"method":"eth_chainId","params":"no"}`,
	} {
		f.Add(seed)
	}
	server := rpc.NewServer()
	if err := server.RegisterName("eth", fakeEth{}); err != nil {
		f.Fatal(err)
	}
	srv := &Server{cfg: Config{SandboxChain: rpc.DialInProc(server)}, log: slog.New(slog.DiscardHandler)}
	f.Fuzz(func(t *testing.T, body string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/v1/sandbox/chain", strings.NewReader(body))
		if err := srv.sandboxChain(w, r); err != nil {
			t.Fatalf("error %v for %q", err, body)
		}
		if w.Code != 200 {
			t.Fatalf("status %d for %q", w.Code, body)
		}
		out := strings.TrimSpace(w.Body.String())
		var one rpcResponse
		var many []rpcResponse
		switch {
		case json.Unmarshal([]byte(out), &many) == nil:
			for _, m := range many {
				checkRPCResponse(t, body, m)
			}
		case json.Unmarshal([]byte(out), &one) == nil:
			checkRPCResponse(t, body, one)
		default:
			t.Fatalf("answer %q is not JSON-RPC, for %q", out, body)
		}
	})
}

func checkRPCResponse(t *testing.T, body string, r rpcResponse) {
	t.Helper()
	if r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) {
		t.Fatalf("response %+v for %q: exactly one of result and error", r, body)
	}
}
