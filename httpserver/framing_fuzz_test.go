package httpserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// FuzzServerRawHTTP drives the fully wired server with raw HTTP/1.1 bytes over a real
// TCP connection (framing, headers and bodies, not only bodies) and checks every
// answer: no status of 500 or more except 503 with the code unavailable (issue 13
// point 1, SPEC S2.2).
//
// net/http itself answers a few framings before any handler runs: 501 for a
// Transfer-Encoding it does not implement and 505 for an HTTP version it does not
// serve (RFC 9112 §6.1, RFC 9110 §15.6.6). Those answers carry no X-Request-Id, which
// every answer of the server's own handlers does; they are the only 5xx allowed
// besides 503 unavailable.
func FuzzServerRawHTTP(f *testing.F) {
	seeds := []string{
		"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /auth/siwe/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
		"POST /identity/issue HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"address\":\"0x1\"}",
		"POST /consent/cns_0123456789 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: 0f8fad5b-d9cb-469f-a165-70867728950e\r\nContent-Length: 2\r\n\r\n{}",
		"POST /v1/webhooks/kyc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nwebhook-id: msg_1\r\nwebhook-timestamp: 1\r\nwebhook-signature: v1,AAAA\r\nContent-Length: 2\r\n\r\n{}",
		"POST /auth/siwe/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
		"POST /identity/issue HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
		"POST /identity/issue HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
		"POST /auth/siwe/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;" + strings.Repeat("x", 5000) + "\r\n{}\r\n0\r\n\r\n",
		"POST /v1/webhooks/kyc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":",
		"POST /consent/cns_0123456789 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: 0f8fad5b-d9cb-469f-a165-70867728950e\r\nContent-Length: 100\r\n\r\n{",
		"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	h := newHarness(f)
	addr := h.ts.Listener.Addr().String()
	f.Fuzz(func(t *testing.T, raw []byte) {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			t.Skip("dial:", err) // the machine is out of ports or the like, not a finding
		}
		defer func() { _ = conn.Close() }()
		_ = conn.SetDeadline(time.Now().Add(300 * time.Millisecond))
		if _, err := conn.Write(raw); err != nil {
			return
		}
		_ = conn.(*net.TCPConn).CloseWrite()
		br := bufio.NewReader(conn)
		for {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				return
			}
			body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			_ = resp.Body.Close()
			checkRawAnswer(t, raw, resp, body)
			if rerr != nil || resp.Close {
				return
			}
		}
	})
}

func checkRawAnswer(t *testing.T, raw []byte, resp *http.Response, body []byte) {
	t.Helper()
	if resp.StatusCode < 500 {
		return
	}
	fromNetHTTP := resp.Header.Get("X-Request-Id") == ""
	if fromNetHTTP && (resp.StatusCode == http.StatusNotImplemented || resp.StatusCode == http.StatusHTTPVersionNotSupported) {
		return
	}
	if resp.StatusCode == http.StatusServiceUnavailable && unavailableCode(body) {
		return
	}
	t.Fatalf("status %d for %q: %s", resp.StatusCode, raw, body)
}

// unavailableCode reports whether body is a JSON:API error document whose first
// error has the code unavailable.
func unavailableCode(body []byte) bool {
	var doc struct {
		Errors []struct {
			Code string `json:"code"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return false
	}
	return len(doc.Errors) > 0 && doc.Errors[0].Code == "unavailable"
}
