package ratelimit

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage/bolt"
)

// byHeader limits requests carrying X-Wallet under a one-request policy.
func byHeader(r *http.Request) (veriland.Environment, string, Policy, bool) {
	w := r.Header.Get("X-Wallet")
	return veriland.Sandbox, w, Policy{Name: "wallet", Limit: 60, Window: time.Minute, Burst: 1}, w != ""
}

func deny(w http.ResponseWriter, _ *http.Request, d Decision) {
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte("limited"))
}

var ok = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })

func serve(h http.Handler, wallet string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/consent", nil)
	if wallet != "" {
		r.Header.Set("X-Wallet", wallet)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestMiddleware(t *testing.T) {
	l, clock := newLimiter(t)
	h := Middleware(l, byHeader, deny)(ok)

	first := serve(h, "0xa")
	require.Equal(t, http.StatusOK, first.Code)
	require.Equal(t, `"wallet";q=60;w=60`, first.Header().Get("RateLimit-Policy"))
	require.Equal(t, `"wallet";r=0;t=1`, first.Header().Get("RateLimit"))
	require.Empty(t, first.Header().Get("Retry-After"))

	second := serve(h, "0xa")
	require.Equal(t, http.StatusTooManyRequests, second.Code)
	require.Equal(t, "limited", second.Body.String())
	require.Equal(t, `"wallet";r=0;t=1`, second.Header().Get("RateLimit"))
	require.Equal(t, "1", second.Header().Get("Retry-After"))

	other := serve(h, "0xb")
	require.Equal(t, http.StatusOK, other.Code)

	unlimited := serve(h, "")
	require.Equal(t, http.StatusOK, unlimited.Code)
	require.Empty(t, unlimited.Header().Get("RateLimit"))

	clock.Advance(time.Second)
	require.Equal(t, http.StatusOK, serve(h, "0xa").Code)
}

func TestMiddlewareDisabled(t *testing.T) {
	for _, l := range []*Limiter{nil, {Disabled: true}} {
		h := Middleware(l, byHeader, deny)(ok)
		for range 5 {
			w := serve(h, "0xa")
			require.Equal(t, http.StatusOK, w.Code)
			require.Empty(t, w.Header().Get("RateLimit"))
		}
	}
}

func TestMiddlewareFailsOpen(t *testing.T) {
	var logs bytes.Buffer
	store, err := bolt.Open(t.TempDir()+"/closed.db", bolt.Options{})
	require.NoError(t, err)
	require.NoError(t, store.Close())
	l := &Limiter{Store: store, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	h := Middleware(l, byHeader, deny)(ok)
	for range 3 {
		w := serve(h, "0xa")
		require.Equal(t, http.StatusOK, w.Code)
		require.Empty(t, w.Header().Get("RateLimit"))
	}
	require.Contains(t, logs.String(), "rate limit check failed")
	require.Contains(t, logs.String(), "level=ERROR")
}
