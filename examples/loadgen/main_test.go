package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage/bolt"
)

// startServer runs the real server on httptest over bbolt in a temp dir, with rate
// limits off, and returns its URL and a SANDBOX admin token.
func startServer(t *testing.T, configure ...func(*httpserver.Config)) (string, string) {
	t.Helper()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{})
	require.NoError(t, err)
	tokens := &auth.Tokens{
		Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)},
		Rand:    rand.Reader,
	}
	issuerKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	pepper := make([]byte, 32)
	_, err = rand.Read(pepper)
	require.NoError(t, err)

	// The listener exists before the server so that the public origin (checked in
	// SIWE messages) is the address the generator is given.
	var srv *httpserver.Server
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.ServeHTTP(w, r) }))
	cfg := httpserver.Config{Store: store, Tokens: tokens, PublicOrigin: "http://" + ts.Listener.Addr().String(),
		RateLimits: httpserver.RateLimits{Disabled: true}}
	for _, f := range configure {
		f(&cfg)
	}
	cfg, err = httpserver.WithDefaultServices(cfg, httpserver.Keys{Pepper: pepper, IssuerKey: issuerKey})
	require.NoError(t, err)
	srv, err = httpserver.New(cfg)
	require.NoError(t, err)
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		require.NoError(t, store.Close())
	})
	admin, _, err := tokens.Mint(veriland.Principal{Subject: "admin", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_load"}, time.Hour)
	require.NoError(t, err)
	return ts.URL, admin
}

func runJSON(t *testing.T, args ...string) (int, report, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(t.Context(), append(args, "-json"), &out, &errOut)
	var rep report
	if code == 0 || code == 1 {
		dec := json.NewDecoder(&out)
		require.NoError(t, dec.Decode(&rep), "stdout: %s\nstderr: %s", out.String(), errOut.String())
		require.False(t, dec.More(), "exactly one JSON object on stdout")
	}
	return code, rep, errOut.String()
}

func TestScenarios(t *testing.T) {
	base, admin := startServer(t)
	for _, tc := range []struct {
		scenario string
		status   string
		perReq   int // HTTP calls per request
	}{
		{"health", "200", 1},
		{"consent", "201", 1},
		{"siwe", "201", 2},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			code, rep, stderr := runJSON(t, "-addr", base, "-token", admin, "-scenario", tc.scenario, "-n", "20", "-c", "4")
			require.Equal(t, 0, code, stderr)
			require.Equal(t, tc.scenario, rep.Scenario)
			require.Equal(t, 20, rep.Requests)
			require.Zero(t, rep.Errors, rep.FirstError)
			require.Zero(t, rep.RateLimited)
			require.False(t, rep.StoppedAtCap)
			require.Equal(t, map[string]int{tc.status: 20 * tc.perReq}, rep.StatusCounts)
			require.Equal(t, 4, rep.Concurrency)
			require.Positive(t, rep.Seconds)
			require.Positive(t, rep.PerSecond)
			require.Positive(t, rep.P50Ms)
			require.LessOrEqual(t, rep.P50Ms, rep.P90Ms)
			require.LessOrEqual(t, rep.P90Ms, rep.P99Ms)
			require.LessOrEqual(t, rep.P99Ms, rep.MaxMs)
			if processCPU() > 0 { // the system reports CPU time (unix)
				require.Positive(t, rep.CPUSeconds, "the timed phase's CPU (the test's server runs in this process too)")
			}
		})
	}

	t.Run("human report", func(t *testing.T) {
		var out, errOut bytes.Buffer
		require.Equal(t, 0, run(t.Context(), []string{"-addr", base, "-n", "5", "-c", "2"}, &out, &errOut), errOut.String())
		require.Contains(t, out.String(), "scenario health: 5 requests, 0 errors")
		require.Contains(t, out.String(), "statuses: 200×5")
	})

	t.Run("token from the environment", func(t *testing.T) {
		t.Setenv("VERILAND_TOKEN", admin)
		code, rep, stderr := runJSON(t, "-addr", base, "-scenario", "consent", "-n", "3", "-c", "8")
		require.Equal(t, 0, code, stderr)
		require.Equal(t, 3, rep.Requests)
		require.Equal(t, 3, rep.Concurrency, "never more workers than requests")
	})

	t.Run("a wrong origin fails every login", func(t *testing.T) {
		code, rep, _ := runJSON(t, "-addr", base, "-scenario", "siwe", "-origin", "http://elsewhere.test", "-n", "3", "-c", "1")
		require.Equal(t, 1, code)
		require.Equal(t, 3, rep.Errors)
		require.NotEmpty(t, rep.FirstError)
	})
}

func TestRateLimitIsReported(t *testing.T) {
	base, _ := startServer(t, func(c *httpserver.Config) {
		c.RateLimits = httpserver.RateLimits{Public: ratelimit.Policy{Name: "ip", Limit: 10, Window: time.Minute, Burst: 10}}
	})
	// Public routes are rate limited per client IP; 60 SIWE round trips exceed 10 a minute.
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"-addr", base, "-scenario", "siwe", "-n", "60", "-c", "4"}, &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, out.String(), "429 (rate limited): run the server with -rate-limit off")
	require.Contains(t, errOut.String(), "restart it with -rate-limit off")
}

func TestStopsAtTheCap(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(50 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer slow.Close()
	start := time.Now()
	code, rep, stderr := runJSON(t, "-addr", slow.URL, "-n", "100000", "-c", "2", "-duration", "300ms")
	require.Equal(t, 0, code, stderr)
	require.Less(t, time.Since(start), 3*time.Second)
	require.True(t, rep.StoppedAtCap)
	require.Less(t, rep.Requests, 100)
	require.Zero(t, rep.Errors)
}

func TestRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"-addr", "http://example.com"},
		{"-addr", "http://10.0.0.1:8080"},
		{"-addr", "http://127.0.0.1.example.com"},
		{"-addr", "ftp://127.0.0.1"},
		{"-addr", "http://user:pw@127.0.0.1"},
		{"-addr", "127.0.0.1:8080"},
		{"-scenario", "health", "-callback", "http://example.com/hooks"},
		{"-scenario", "flood"},
		{"-n", "0"},
		{"-n", "100001"},
		{"-c", "0"},
		{"-c", "1025"},
		{"-duration", "0s"},
		{"-duration", "2h"},
		{"-bogus"},
		{"-n", "many"},
		{"extra"},
		{"-scenario", "consent", "-token", ""},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Setenv("VERILAND_TOKEN", "")
			var out, errOut bytes.Buffer
			require.Equal(t, 2, run(t.Context(), args, &out, &errOut))
			require.Empty(t, out.String())
			require.Contains(t, errOut.String(), "usage: loadgen")
		})
	}

	// -allow-remote lifts the loopback rule (parsing only; nothing is dialled here).
	o, err := parseFlags([]string{"-addr", "http://example.com", "-allow-remote"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, "example.com", o.addrs[0].Host)
	o, err = parseFlags([]string{"-addr", "http://127.0.0.1:1, http://[::1]:2"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Len(t, o.addrs, 2)
	require.Equal(t, "http://127.0.0.1:1", o.origin, "the origin is the first address")
	_, err = parseFlags([]string{"-addr", "http://127.0.0.1:1,http://example.com"}, &bytes.Buffer{})
	require.Error(t, err, "every address of the list is checked")
	for _, ok := range []string{"http://localhost:8080", "http://LOCALHOST", "http://127.0.0.2:1", "http://[::1]:8080", "https://127.0.0.1"} {
		_, err := checkAddr(ok, false)
		require.NoError(t, err, ok)
	}
}

func TestHelp(t *testing.T) {
	var errOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"-h"}, &bytes.Buffer{}, &errOut))
	require.Contains(t, errOut.String(), "usage: loadgen")
	require.Contains(t, errOut.String(), "-allow-remote")
}

// TestReplicasRoundRobin spreads the requests of one run over several base URLs, as
// over replicas behind no load balancer: each front gets its share.
func TestReplicasRoundRobin(t *testing.T) {
	base, _ := startServer(t)
	backend, err := http.NewRequest(http.MethodGet, base, nil)
	require.NoError(t, err)
	var mu sync.Mutex
	hits := map[string]int{}
	var fronts []string
	for _, name := range []string{"a", "b", "c"} {
		proxy := httputil.NewSingleHostReverseProxy(backend.URL)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits[name]++
			mu.Unlock()
			proxy.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		fronts = append(fronts, front.URL)
	}
	code, rep, stderr := runJSON(t, "-addr", strings.Join(fronts, ","), "-scenario", "health", "-n", "30", "-c", "3")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 30, rep.Requests)
	require.Equal(t, map[string]int{"a": 10, "b": 10, "c": 10}, hits)
}
