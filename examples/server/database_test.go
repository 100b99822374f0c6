package main

import (
	"context"
	"errors"
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

	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// TestKeysCreatedOnceByReplicasStartingTogether starts eight "replicas" on one empty
// keys directory at the same moment: exactly one creates the keys, and every one
// ends up with the same keys (no key generated twice, none read half-written).
func TestKeysCreatedOnceByReplicasStartingTogether(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	const replicas = 8
	var (
		wg     sync.WaitGroup
		start  = make(chan struct{})
		got    [replicas]*secrets
		firsts [replicas]bool
		errs   [replicas]error
		cscas  [replicas]string
	)
	for i := range replicas {
		wg.Go(func() {
			<-start
			got[i], firsts[i], errs[i] = loadOrCreateSecrets(dir)
			if errs[i] == nil {
				if _, errs[i] = loadTrust(dir, ""); errs[i] == nil {
					var csca *sandbox.CSCA
					csca, _, errs[i] = binding.LoadSandboxPKI(dir)
					if errs[i] == nil {
						cscas[i] = string(csca.PEM())
					}
				}
			}
		})
	}
	close(start)
	wg.Wait()
	created := 0
	for i := range replicas {
		require.NoError(t, errs[i], "replica %d", i)
		if firsts[i] {
			created++
		}
		require.Equal(t, got[0].jwtSandbox, got[i].jwtSandbox, "replica %d", i)
		require.Equal(t, got[0].jwtProduction, got[i].jwtProduction, "replica %d", i)
		require.Equal(t, got[0].pepper, got[i].pepper, "replica %d", i)
		require.True(t, got[0].issuerKey.Equal(got[i].issuerKey), "replica %d", i)
		require.Equal(t, got[0].webhookSecret, got[i].webhookSecret, "replica %d", i)
		require.Equal(t, cscas[0], cscas[i], "replica %d", i)
		require.NotEmpty(t, cscas[i])
		sealed, err := got[i].fields.Seal([]byte("owner name"), []byte("aad"))
		require.NoError(t, err)
		opened, err := got[0].fields.Open(sealed, []byte("aad"))
		require.NoError(t, err, "replica %d's field keys open what replica 0 seals", i)
		require.Equal(t, "owner name", string(opened))
	}
	require.Equal(t, 1, created, "exactly one replica creates the keys")

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.NotContains(t, e.Name(), ".tmp", "no temporary file left behind")
		fi, err := e.Info()
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), e.Name())
	}
	require.FileExists(t, filepath.Join(dir, fieldcrypt.KeyFileName))
}

func TestDatabaseFlag(t *testing.T) {
	for _, tc := range []struct {
		dsn string
		ok  bool
	}{
		{"", true},
		{"postgres://u:p@db:5432/veriland?sslmode=verify-full&pool_max_conns=16", true},
		{"postgresql://db/veriland", true},
		{"mysql://db/veriland", false},
		{"/var/lib/veriland.db", false},
		{"host=db dbname=veriland", false},
	} {
		err := checkDatabase(tc.dsn)
		require.Equal(t, tc.ok, err == nil, "%q: %v", tc.dsn, err)
	}
	require.Equal(t, "postgres://db:5432/veriland", describeDSN("postgres://user:s3cret@db:5432/veriland?sslmode=disable"))
	err := redactDSN(errors.New(`connect to user=u password=s3cret failed`), "postgres://u:s3cret@db/x")
	require.NotContains(t, err.Error(), "s3cret")

	var errOut strings.Builder
	require.Equal(t, 2, run(t.Context(), []string{"-database", "mysql://db/x"}, io.Discard, &errOut))
	require.Contains(t, errOut.String(), "postgres://")
}

// TestServeOnPostgres runs the reference server with -database on the test
// PostgreSQL and -keys-dir apart from -data: it serves, and /metrics reports the
// store's transaction counters.
func TestServeOnPostgres(t *testing.T) {
	url := os.Getenv("VERILAND_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("VERILAND_TEST_POSTGRES_URL is not set under CI=true (.ci/run starts PostgreSQL with storage/postgres/testdb.sh)")
		}
		t.Skip("VERILAND_TEST_POSTGRES_URL is not set: start one with storage/postgres/testdb.sh")
	}
	keys, data := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-database", url, "-keys-dir", keys, "-data", data, "-addr", "127.0.0.1:0"}, &out, &errOut)
	}()
	listening := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	var base string
	require.Eventually(t, func() bool {
		if m := listening.FindStringSubmatch(errOut.String()); m != nil {
			base = m[1]
		}
		return base != ""
	}, 30*time.Second, 20*time.Millisecond, errOut.String())
	require.Contains(t, errOut.String(), "kind=postgres")
	require.NotContains(t, errOut.String(), "postgres@", "no credentials in the log")

	resp, err := http.Get(base + "/v1/health")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	resp, err = http.Get(base + "/metrics")
	require.NoError(t, err)
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Regexp(t, `(?m)^veriland_storage_commits_total \d`, string(metrics))
	require.Contains(t, string(metrics), "veriland_storage_retries_total")

	require.FileExists(t, filepath.Join(keys, fileJWTSandbox), "keys go to -keys-dir")
	require.NoFileExists(t, filepath.Join(data, fileJWTSandbox))
	require.NoFileExists(t, filepath.Join(data, "veriland.db"), "no bbolt file with -database")
	cancel()
	select {
	case code := <-done:
		require.Equal(t, 0, code, errOut.String())
	case <-time.After(30 * time.Second):
		t.Fatal("no graceful shutdown")
	}
}

func TestProxyFlags(t *testing.T) {
	o, err := parseFlags([]string{"-trust-forwarded-for", "-trusted-proxies", "10.0.0.0/8, fd00::/8"}, io.Discard)
	require.NoError(t, err)
	require.True(t, o.trustForwardedFor)
	require.Len(t, o.trustedProxies, 2)
	_, err = parseFlags([]string{"-trusted-proxies", "10.0.0.0/8"}, io.Discard)
	require.ErrorContains(t, err, "needs -trust-forwarded-for")
	_, err = parseFlags([]string{"-trust-forwarded-for", "-trusted-proxies", "10.0.0.1"}, io.Discard)
	require.ErrorContains(t, err, "not a CIDR")
}
