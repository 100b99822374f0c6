package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage/fieldcrypt"
)

// lockedBuffer is a bytes.Buffer safe for the server goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestMintToken(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"-data", dir, "-mint-token", "-role", "verifier", "-env", "PRODUCTION", "-sub", "acme", "-ttl", "1h"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 1, "exactly one token on stdout")
	require.Len(t, strings.Split(lines[0], "."), 3)

	for _, name := range []string{fileJWTSandbox, fileJWTProduction, fileIssuerKey, fileWebhookSecret, filePepper, fieldcrypt.KeyFileName} {
		fi, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err, name)
		require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), name)
	}

	require.Equal(t, 2, run(t.Context(), []string{"-data", dir, "-mint-token", "-role", "root"}, io.Discard, io.Discard))
	require.Equal(t, 2, run(t.Context(), []string{"-data", dir, "-mint-token", "-env", "STAGING"}, io.Discard, io.Discard))
	require.Equal(t, 2, run(t.Context(), []string{"-rate-limit", "maybe"}, io.Discard, io.Discard))
}

func TestSecretsReadableByOthersAreRefused(t *testing.T) {
	for _, name := range []string{fileIssuerKey, fieldcrypt.KeyFileName} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.Equal(t, 0, run(t.Context(), []string{"-data", dir, "-mint-token"}, io.Discard, io.Discard))
			require.NoError(t, os.Chmod(filepath.Join(dir, name), 0o644))
			var errOut bytes.Buffer
			require.Equal(t, 1, run(t.Context(), []string{"-data", dir, "-mint-token"}, io.Discard, &errOut))
			require.Contains(t, errOut.String(), "chmod 600")
		})
	}
}

func TestServeFirstStartAndShutdown(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"-data", dir, "-addr", "127.0.0.1:0"}, &out, &errOut) }()

	listening := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	var base string
	require.Eventually(t, func() bool {
		m := listening.FindStringSubmatch(errOut.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	}, 20*time.Second, 20*time.Millisecond, errOut.String())
	require.Contains(t, out.String(), "SANDBOX admin token (shown once")
	token := strings.TrimSpace(strings.Split(out.String(), "\n")[1])

	resp, err := http.Get(base + "/v1/health")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)

	req, _ := http.NewRequest("GET", base+"/v1/audit/verify", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, "the bootstrap token is an admin token")

	// The field keyring is wired: a response kept for Idempotency-Key replay (here a
	// new API key's token, in that response only) is sealed in the database file.
	req, _ = http.NewRequest("POST", base+"/v1/api-keys", strings.NewReader(`{"role":"verifier","sub":"acme","name":"Acme"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "first-key")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	created, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 201, resp.StatusCode, string(created))
	apiToken := regexp.MustCompile(`"token":"([^"]+)"`).FindSubmatch(created)
	require.NotNil(t, apiToken, string(created))
	db, err := os.ReadFile(filepath.Join(dir, "veriland.db"))
	require.NoError(t, err)
	require.False(t, bytes.Contains(db, apiToken[1]), "the stored response is in clear")
	require.False(t, bytes.Contains(db, []byte(base64.StdEncoding.EncodeToString(created))), "the stored response is in clear")

	cancel()
	select {
	case code := <-done:
		require.Equal(t, 0, code, errOut.String())
	case <-time.After(20 * time.Second):
		t.Fatal("no graceful shutdown")
	}

	// A second start finds the keys and prints no new admin token.
	ctx2, cancel2 := context.WithCancel(t.Context())
	var out2, errOut2 lockedBuffer
	done2 := make(chan int, 1)
	go func() { done2 <- run(ctx2, []string{"-data", dir, "-addr", "127.0.0.1:0"}, &out2, &errOut2) }()
	require.Eventually(t, func() bool { return listening.MatchString(errOut2.String()) }, 20*time.Second, 20*time.Millisecond)
	cancel2()
	require.Equal(t, 0, <-done2)
	require.NotContains(t, out2.String(), "admin token")
}
