package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/identity"
)

const testKYCSecret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes

func TestKYCFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"url without secret", []string{"-kyc-url", "https://kyc.example/check"}, "go together"},
		{"secret without url", []string{"-kyc-secret", testKYCSecret}, "go together"},
		{"http on a public host", []string{"-kyc-url", "http://kyc.example/check", "-kyc-secret", testKYCSecret}, "https"},
		{"not a URL", []string{"-kyc-url", "kyc.example", "-kyc-secret", testKYCSecret}, "https"},
		{"secret without prefix", []string{"-kyc-url", "https://kyc.example/check", "-kyc-secret", "c2VjcmV0c2VjcmV0c2VjcmV0"}, "whsec_"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var errOut strings.Builder
			_, err := parseFlags(c.args, &errOut)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.NotContains(t, err.Error(), "c2VjcmV0", "the secret is never repeated")
		})
	}
	o, err := parseFlags([]string{"-kyc-url", "http://127.0.0.1:9/check", "-kyc-secret", testKYCSecret}, io.Discard)
	require.NoError(t, err, "http is allowed on loopback")
	require.Equal(t, "http://127.0.0.1:9/check", o.kycURL)

	t.Setenv("VERILAND_KYC_URL", "https://kyc.example/check")
	t.Setenv("VERILAND_KYC_SECRET", testKYCSecret)
	o, err = parseFlags(nil, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "https://kyc.example/check", o.kycURL)
	require.Equal(t, testKYCSecret, o.kycSecret)
}

// startServer runs the reference server in the background and returns its base URL.
func startServer(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"-data", t.TempDir(), "-addr", "127.0.0.1:0"}, args...), &out, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("no graceful shutdown")
		}
	})
	listening := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	var base string
	require.Eventually(t, func() bool {
		if m := listening.FindStringSubmatch(errOut.String()); m != nil {
			base = m[1]
		}
		return base != ""
	}, 20*time.Second, 20*time.Millisecond, errOut.String())
	return base
}

func issueProduction(t *testing.T, base, subject string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(base+"/identity/issue", "application/json",
		strings.NewReader(`{"subjectRef":"`+subject+`","countryCode":"FR","payload":{"document":"scan"}}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var m map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return resp.StatusCode, m
}

// Without a PRODUCTION KYC provider, issuance answers 503 with a detail that says
// what to configure; with -kyc-url and -kyc-secret it reaches the provider.
func TestProductionKYCProvider(t *testing.T) {
	t.Run("not configured", func(t *testing.T) {
		base := startServer(t)
		status, m := issueProduction(t, base, "prod-subject")
		require.Equal(t, http.StatusServiceUnavailable, status)
		e := m["errors"].([]any)[0].(map[string]any)
		require.Equal(t, "unavailable", e["code"])
		detail := e["detail"].(string)
		for _, want := range []string{"-kyc-url", "-kyc-secret", "VERILAND_KYC_URL", "VERILAND_KYC_SECRET", "identity.Service.KYC"} {
			require.Contains(t, detail, want)
		}
	})
	t.Run("configured", func(t *testing.T) {
		var got http.Header
		var body []byte
		provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.Header.Clone()
			body, _ = io.ReadAll(r.Body)
			require.Contains(t, string(body), `"env":"PRODUCTION"`)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"outcome":"APPROVED","claims":{"is_adult":true,"kyc_level":"enhanced"}}`)
		}))
		defer provider.Close()
		base := startServer(t, "-kyc-url", provider.URL+"/check", "-kyc-secret", testKYCSecret)
		status, m := issueProduction(t, base, "prod-subject")
		require.Equal(t, http.StatusCreated, status, "%v", m)
		require.Equal(t, string(identity.StatusActive), m["status"])
		// Signed with the secret's key, as the provider verifies it.
		want := identity.SignKYCRequest([]byte("0123456789abcdef0123456789abcdef"), got.Get(identity.HeaderKYCID),
			got.Get(identity.HeaderKYCTimestamp), body)
		require.Equal(t, want, got.Get(identity.HeaderKYCSignature))
	})
}
