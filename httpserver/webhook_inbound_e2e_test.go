package httpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

// hmacOf is HMAC-SHA256(key, body), computed independently of package webhook, as a
// body-only provider (GitHub, Shopify) computes it.
func hmacOf(key string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write(body)
	return m.Sum(nil)
}

// Providers sign differently (SPEC S15): a body-only HMAC-SHA256 provider (hex with a
// "sha256=" prefix, deduplicated by its event id; base64, deduplicated by the HMAC) and
// a Standard Webhooks one each finish a PENDING_KYC identity through the server.
func TestInboundWebhookProviderSchemes(t *testing.T) {
	const vendorKey, vendorOldKey, shopKey = "vendor-secret-0123456789", "vendor-old-secret-0123456789", "shop-secret-0123456789"
	swSecret, err := webhook.NewSecret(rand.Reader)
	require.NoError(t, err)
	ps, err := webhook.ParseProviders([]byte(`{
	  "vendor": {"scheme": "hmac-sha256", "header": "X-Hub-Signature-256", "prefix": "sha256=", "encoding": "hex",
	             "secrets": ["` + vendorKey + `", "` + vendorOldKey + `"], "eventTypes": ["kyc.completed"], "eventIdPath": "id"},
	  "shop": {"scheme": "hmac-sha256", "header": "X-Shop-Hmac-Sha256", "encoding": "base64",
	           "secrets": ["` + shopKey + `"], "eventTypes": ["kyc.completed"]},
	  "kyc": {"scheme": "standard-webhooks", "secrets": ["` + swSecret.String() + `"], "eventTypes": ["kyc.completed"]}
	}`))
	require.NoError(t, err)
	h := newHarness(t, func(c *Config) { c.WebhookProviders = ps })
	now := h.clock.Now()
	post := func(provider string, body []byte, hdr map[string]string) response {
		return h.do(request{method: "POST", path: "/v1/webhooks/" + provider, body: body, header: hdr})
	}
	pending := func(name string) string {
		wallet, _ := crypto.GenerateKey()
		issued := h.issueIdentity(t, name, wallet, "timeout")
		require.Equal(t, "PENDING_KYC", issued["status"])
		return issued["did"].(string)
	}
	status := func(did string) string {
		r := h.do(request{method: "GET", path: "/identity/" + did + "/status"})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		return r.json(t)["status"].(string)
	}
	completed := func(id, did, outcome string) []byte {
		data := map[string]any{"env": "SANDBOX", "did": did, "outcome": outcome}
		if id == "" {
			return kycCompletedBody(t, now, data)
		}
		b := kycCompletedBody(t, now, data)
		return append([]byte(`{"id":"`+id+`",`), b[1:]...)
	}
	vendorSig := func(key string, b []byte) map[string]string {
		return map[string]string{"X-Hub-Signature-256": "sha256=" + hex.EncodeToString(hmacOf(key, b))}
	}
	shopSig := func(b []byte) map[string]string {
		return map[string]string{"X-Shop-Hmac-Sha256": base64.StdEncoding.EncodeToString(hmacOf(shopKey, b))}
	}

	// Body-only, hex with a prefix, signed with the old secret during a rotation.
	did := pending("vendor-subject")
	body := completed("evt_vendor_1", did, "APPROVED")
	r := post("vendor", body, vendorSig(vendorOldKey, body))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, "evt_vendor_1", r.json(t)["data"].(map[string]any)["id"], "deduplicated by the event id")
	require.Equal(t, map[string]any{"provider": "vendor", "type": "kyc.completed", "duplicate": false, "processed": true}, attrs(t, r))
	require.Equal(t, "ACTIVE", status(did))
	ev, err := h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, "vendor", "evt_vendor_1")
	require.NoError(t, err)
	require.Equal(t, body, ev.Body, "stored as received")
	// The same event id again, even with another validly signed body: a duplicate.
	for _, b := range [][]byte{body, completed("evt_vendor_1", did, "REJECTED")} {
		r = post("vendor", b, vendorSig(vendorKey, b))
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		require.Equal(t, map[string]any{"provider": "vendor", "type": "kyc.completed", "duplicate": true, "processed": false}, attrs(t, r))
	}
	require.Equal(t, "ACTIVE", status(did))

	// Body-only, base64, no event id: deduplicated by the HMAC itself.
	did2 := pending("shop-subject")
	body2 := completed("", did2, "APPROVED")
	r = post("shop", body2, shopSig(body2))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, "hmac-sha256:"+hex.EncodeToString(hmacOf(shopKey, body2)), r.json(t)["data"].(map[string]any)["id"])
	require.Equal(t, true, attrs(t, r)["processed"])
	require.Equal(t, "ACTIVE", status(did2))
	r = post("shop", body2, shopSig(body2))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, true, attrs(t, r)["duplicate"])

	// Standard Webhooks, alongside.
	did3 := pending("sw-subject")
	body3 := completed("", did3, "APPROVED")
	r = post("kyc", body3, signInbound(swSecret, "msg_sw_1", now, body3))
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, "msg_sw_1", r.json(t)["data"].(map[string]any)["id"])
	require.Equal(t, "ACTIVE", status(did3))

	// Refusals: 401 for a bad or missing signature, each scheme's; 404 for an unknown
	// provider; nothing stored.
	did4 := pending("refused-subject")
	body4 := completed("evt_vendor_2", did4, "APPROVED")
	tampered := completed("evt_vendor_2", did4, "REJECTED")
	for name, c := range map[string]struct {
		provider string
		body     []byte
		hdr      map[string]string
	}{
		"wrong secret":              {"vendor", body4, vendorSig("another-secret-0123456789", body4)},
		"tampered body":             {"vendor", tampered, vendorSig(vendorKey, body4)},
		"missing header":            {"vendor", body4, nil},
		"missing prefix":            {"vendor", body4, map[string]string{"X-Hub-Signature-256": hex.EncodeToString(hmacOf(vendorKey, body4))}},
		"standard webhooks":         {"vendor", body4, signInbound(swSecret, "msg_x", now, body4)},
		"base64 under hex":          {"vendor", body4, map[string]string{"X-Hub-Signature-256": "sha256=" + base64.StdEncoding.EncodeToString(hmacOf(vendorKey, body4))}},
		"body-only to sw":           {"kyc", body4, vendorSig(vendorKey, body4)},
		"sw stale":                  {"kyc", body4, signInbound(swSecret, "msg_stale", now.Add(-6*time.Minute), body4)},
		"another provider's header": {"shop", body4, vendorSig(shopKey, body4)},
	} {
		r = post(c.provider, c.body, c.hdr)
		require.Equal(t, http.StatusUnauthorized, r.status, "%s: %s", name, r.body)
		require.Equal(t, "invalid_webhook_signature", r.errorCode(t), name)
	}
	r = post("nobody", body4, vendorSig(vendorKey, body4))
	require.Equal(t, http.StatusNotFound, r.status, string(r.body))
	_, err = h.srv.cfg.Inbox.Get(t.Context(), veriland.Sandbox, "vendor", "evt_vendor_2")
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
	require.Equal(t, "PENDING_KYC", status(did4))
}
