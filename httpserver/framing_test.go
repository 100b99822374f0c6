package httpserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// lockedBuffer is a log sink safe for concurrent handlers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// withLog sends the server's log lines (debug and up) to buf.
func withLog(buf *lockedBuffer) func(*Config) {
	return func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
}

// rawExchange writes raw request bytes to addr, half-closes the connection when
// closeWrite is set (a client that hangs up after sending), and returns the status
// code of the answer's status line (0 when the server answered nothing).
func rawExchange(t testing.TB, addr string, raw []byte, closeWrite bool, deadline time.Duration) (int, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	require.NoError(t, err)
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(deadline))
	if _, err := conn.Write(raw); err != nil {
		return 0, ""
	}
	if closeWrite {
		_ = conn.(*net.TCPConn).CloseWrite()
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, ""
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(body)
}

// TestMalformedFramingIsNot500 sends bodies whose HTTP framing is broken (issue 13
// point 1): the server must answer 4xx, never 500, and log no ERROR line.
func TestMalformedFramingIsNot500(t *testing.T) {
	var logs lockedBuffer
	h := newHarness(t, withLog(&logs))
	addr := h.ts.Listener.Addr().String()

	framings := []struct {
		name       string
		headers    string // framing headers, each ending in \r\n
		body       string
		closeWrite bool
	}{
		{"bad chunk size", "Transfer-Encoding: chunked\r\n", "zz\r\n{}\r\n0\r\n\r\n", false},
		{"oversized chunk size", "Transfer-Encoding: chunked\r\n", "fffffffffffffffffffff\r\n{}\r\n0\r\n\r\n", false},
		{"long chunk extension", "Transfer-Encoding: chunked\r\n", "2;" + strings.Repeat("x", 5000) + "\r\n{}\r\n0\r\n\r\n", false},
		{"body shorter than Content-Length", "Content-Length: 100\r\n", `{"a":`, true},
	}
	routes := []string{"/identity/issue", "/auth/siwe/nonce", "/consent/cns_0123456789", "/v1/webhooks/kyc"}
	for _, f := range framings {
		for _, path := range routes {
			for _, key := range []string{"", "Idempotency-Key: 0f8fad5b-d9cb-469f-a165-70867728950e\r\n"} {
				name := f.name + " " + path
				if key != "" {
					name += " idempotent"
				}
				t.Run(name, func(t *testing.T) {
					raw := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
						key + f.headers + "\r\n" + f.body
					status, body := rawExchange(t, addr, []byte(raw), f.closeWrite, 5*time.Second)
					if status != 0 { // a client that hung up may get no answer at all
						assert.Less(t, status, 500, "status %d: %s", status, body)
						assert.GreaterOrEqual(t, status, 400, "status %d: %s", status, body)
					}
				})
			}
		}
	}
	time.Sleep(50 * time.Millisecond) // handlers of half-closed connections finish
	assert.NotContains(t, logs.String(), "level=ERROR")
}

// cancellingStore is a storage.Store whose transactions find the request's context
// cancelled: the client went away while the storage call was running.
// Until armed it passes every call through.
// With driverError it answers the way a database driver may: a broken connection
// (storage.ErrUnavailable) that does not wrap the cancellation.
type cancellingStore struct {
	storage.Store
	armed       *atomic.Bool
	cancel      context.CancelFunc
	driverError bool
}

func (s cancellingStore) View(ctx context.Context, fn func(storage.Tx) error) error {
	if !s.armed.Load() {
		return s.Store.View(ctx, fn)
	}
	s.cancel()
	if s.driverError {
		return fmt.Errorf("%w: conn closed", storage.ErrUnavailable)
	}
	return s.Store.View(ctx, fn)
}

func (s cancellingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if !s.armed.Load() {
		return s.Store.Update(ctx, fn)
	}
	s.cancel()
	if s.driverError {
		return fmt.Errorf("%w: conn closed", storage.ErrUnavailable)
	}
	return s.Store.Update(ctx, fn)
}

// TestCancelledContextIsNotStorageDown checks issue 13 point 3: a request whose
// context is cancelled at the storage call (the client hung up) is not answered 503
// "storage down" / unavailable, and no ERROR line is logged.
func TestCancelledContextIsNotStorageDown(t *testing.T) {
	for _, tc := range []struct {
		name        string
		method      string
		path        string
		body        string
		driverError bool
	}{
		{"health", http.MethodGet, "/v1/health", "", false},
		{"siwe nonce", http.MethodPost, "/auth/siwe/nonce", `{}`, false},
		{"health driver error", http.MethodGet, "/v1/health", "", true},
		{"siwe nonce driver error", http.MethodPost, "/auth/siwe/nonce", `{}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs lockedBuffer
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			armed := new(atomic.Bool)
			h := newHarness(t, withLog(&logs), func(c *Config) {
				c.Store = cancellingStore{Store: c.Store, armed: armed, cancel: cancel, driverError: tc.driverError}
			})
			armed.Store(true)
			req, err := http.NewRequestWithContext(ctx, tc.method, "/", strings.NewReader(tc.body))
			require.NoError(t, err)
			req.URL.Path = tc.path
			req.RequestURI = tc.path
			req.Host = "x"
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			rec := newCaptureWriter()
			h.srv.ServeHTTP(rec, req)
			assert.NotEqual(t, http.StatusServiceUnavailable, rec.status, rec.body.String())
			assert.Less(t, rec.status, 500, rec.body.String())
			assert.NotContains(t, rec.body.String(), "down")
			assert.NotContains(t, rec.body.String(), "unavailable")
			assert.NotContains(t, logs.String(), "level=ERROR")
		})
	}
}

// captureWriter is a minimal http.ResponseWriter that records the status and body.
type captureWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newCaptureWriter() *captureWriter { return &captureWriter{header: http.Header{}} }

func (w *captureWriter) Header() http.Header { return w.header }

func (w *captureWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *captureWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}
