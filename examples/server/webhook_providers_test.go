package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/webhook"
)

const providersJSON = `{
  "vendor": {"scheme": "hmac-sha256", "header": "X-Hub-Signature-256", "prefix": "sha256=",
             "secrets": ["vendor-secret-0123456789"], "eventTypes": ["kyc.completed"], "eventIdPath": "id"},
  "anchor": {"secrets": ["whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="], "eventTypes": ["anchor.confirmed"]}
}`

func TestWebhookProvidersFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "providers.json")
	require.NoError(t, os.WriteFile(file, []byte(providersJSON), 0o600))
	for _, v := range []string{file, providersJSON} {
		o, err := parseFlags([]string{"-webhook-providers", v}, io.Discard)
		require.NoError(t, err)
		ps, err := o.inboundProviders()
		require.NoError(t, err)
		require.Len(t, ps, 2)
		require.Equal(t, webhook.SchemeHMACSHA256, ps["vendor"].Scheme)
		require.Empty(t, ps["anchor"].Scheme, "standard-webhooks by default")
	}
	t.Setenv("VERILAND_WEBHOOK_PROVIDERS", providersJSON)
	o, err := parseFlags(nil, io.Discard)
	require.NoError(t, err)
	require.Equal(t, providersJSON, o.webhookProviders)

	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"missing file": {[]string{"-webhook-providers", filepath.Join(t.TempDir(), "none.json")}, "-webhook-providers"},
		"bad JSON":     {[]string{"-webhook-providers", `{"vendor": `}, "-webhook-providers"},
		"bad scheme":   {[]string{"-webhook-providers", `{"v": {"scheme": "md5", "secrets": ["vendor-secret-0123456789"], "eventTypes": ["x"]}}`}, "scheme"},
		"kyc twice": {[]string{"-kyc-url", "https://kyc.example/check", "-kyc-secret", testKYCSecret,
			"-webhook-providers", `{"kyc": {"secrets": ["whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="], "eventTypes": ["kyc.completed"]}}`}, "-kyc-url"},
	} {
		_, err := parseFlags(c.args, io.Discard)
		require.ErrorContains(t, err, c.want, name)
		require.NotContains(t, err.Error(), "vendor-secret", name)
	}
}

// The reference server accepts a body-only HMAC-SHA256 event from a provider of
// -webhook-providers, and refuses a bad signature and an unknown provider.
func TestWebhookProvidersServer(t *testing.T) {
	base, logs := startServerLogs(t, "-webhook-providers", providersJSON)
	require.Contains(t, logs.String(), "providers=anchor:standard-webhooks,vendor:hmac-sha256")
	body := []byte(`{"id":"evt_1","type":"kyc.completed","data":{"env":"SANDBOX","did":"did:veriland:nobody","outcome":"APPROVED"}}`)
	m := hmac.New(sha256.New, []byte("vendor-secret-0123456789"))
	m.Write(body)
	post := func(provider, sig string) (int, map[string]any) {
		req, err := http.NewRequest("POST", base+"/v1/webhooks/"+provider, strings.NewReader(string(body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if sig != "" {
			req.Header.Set("X-Hub-Signature-256", sig)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var doc map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
		return resp.StatusCode, doc
	}
	good := "sha256=" + hex.EncodeToString(m.Sum(nil))
	status, doc := post("vendor", good)
	require.Equal(t, http.StatusOK, status, doc)
	data := doc["data"].(map[string]any)
	require.Equal(t, "evt_1", data["id"])
	require.Equal(t, false, data["attributes"].(map[string]any)["duplicate"])
	status, doc = post("vendor", good)
	require.Equal(t, http.StatusOK, status, doc)
	require.Equal(t, true, doc["data"].(map[string]any)["attributes"].(map[string]any)["duplicate"])
	status, _ = post("vendor", "sha256="+strings.Repeat("0", 64))
	require.Equal(t, http.StatusUnauthorized, status)
	status, _ = post("vendor", "")
	require.Equal(t, http.StatusUnauthorized, status)
	status, _ = post("kyc", good)
	require.Equal(t, http.StatusNotFound, status, "no -kyc-url")
}
