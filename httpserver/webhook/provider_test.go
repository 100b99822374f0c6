package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

// GitHub's published example ("Validating webhook deliveries"): an independent vector
// for the body-only scheme.
const (
	githubSecret    = "It's a Secret to Everybody"
	githubPayload   = "Hello, World!"
	githubSignature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
)

func providerSecret(t testing.TB, scheme webhook.Scheme, text string) webhook.Secret {
	t.Helper()
	s, err := webhook.ParseProviderSecret(scheme, text)
	require.NoError(t, err)
	return s
}

// rawHMAC is HMAC-SHA256(key, body), computed here independently of the package.
func rawHMAC(key string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write(body)
	return m.Sum(nil)
}

func TestProviderSignatureSchemes(t *testing.T) {
	const oldKey, newKey, otherKey = "old-secret-0123456789", "new-secret-0123456789", "not-the-secret-0123456"
	swSecret, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	require.NoError(t, err)
	swOther, err := webhook.ParseSecret("whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	require.NoError(t, err)
	body := []byte(`{"type":"kyc.completed","id":"evt_42","data":{"did":"did:veriland:x"}}`)
	tampered := []byte(strings.Replace(string(body), "did:veriland:x", "did:veriland:y", 1))
	now := time.Unix(1_790_000_000, 0)

	bodyOnly := func(header string, enc webhook.Encoding, prefix string, keys ...string) webhook.Provider {
		p := webhook.Provider{Scheme: webhook.SchemeHMACSHA256, Header: header, Encoding: enc, Prefix: prefix, EventTypes: []string{"kyc.completed"}}
		for _, k := range keys {
			p.Secrets = append(p.Secrets, providerSecret(t, webhook.SchemeHMACSHA256, k))
		}
		return p
	}
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return h
	}
	hexOf := func(key string, b []byte) string { return hex.EncodeToString(rawHMAC(key, b)) }
	b64Of := func(key string, b []byte) string { return base64.StdEncoding.EncodeToString(rawHMAC(key, b)) }
	swHeader := func(secrets []webhook.Secret, id string, at time.Time, b []byte) http.Header {
		h := http.Header{}
		webhook.SetHeaders(h, secrets, id, at, b)
		return h
	}
	sw := webhook.Provider{Secrets: []webhook.Secret{swSecret}, EventTypes: []string{"kyc.completed"}}
	swRotating := webhook.Provider{Scheme: webhook.SchemeStandardWebhooks, Secrets: []webhook.Secret{swOther, swSecret}, EventTypes: []string{"kyc.completed"}}

	cases := []struct {
		name  string
		p     webhook.Provider
		h     http.Header
		body  []byte
		cause error // nil: accepted
	}{
		{"hex", bodyOnly("", "", "", newKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), body, nil},
		{"hex upper case", bodyOnly("", "", "", newKey), hdr(webhook.DefaultSignatureHeader, strings.ToUpper(hexOf(newKey, body))), body, nil},
		{"hex with prefix", bodyOnly("X-Hub-Signature-256", webhook.EncodingHex, "sha256=", newKey), hdr("X-Hub-Signature-256", "sha256="+hexOf(newKey, body)), body, nil},
		{"base64 (Shopify)", bodyOnly("X-Shopify-Hmac-Sha256", webhook.EncodingBase64, "", newKey), hdr("X-Shopify-Hmac-Sha256", b64Of(newKey, body)), body, nil},
		{"base64 unpadded", bodyOnly("X-Sig", webhook.EncodingBase64, "", newKey), hdr("X-Sig", strings.TrimRight(b64Of(newKey, body), "=")), body, nil},
		{"header name case-insensitive", bodyOnly("x-hub-signature-256", "", "sha256=", newKey), hdr("X-HUB-SIGNATURE-256", "sha256="+hexOf(newKey, body)), body, nil},
		{"rotation: old secret", bodyOnly("", "", "", newKey, oldKey), hdr(webhook.DefaultSignatureHeader, hexOf(oldKey, body)), body, nil},
		{"rotation: new secret", bodyOnly("", "", "", newKey, oldKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), body, nil},
		{"GitHub vector", bodyOnly("X-Hub-Signature-256", "", "sha256=", githubSecret), hdr("X-Hub-Signature-256", githubSignature), []byte(githubPayload), nil},
		{"wrong secret", bodyOnly("", "", "", newKey, oldKey), hdr(webhook.DefaultSignatureHeader, hexOf(otherKey, body)), body, webhook.ErrNoMatchingSignature},
		{"tampered body", bodyOnly("", "", "", newKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), tampered, webhook.ErrNoMatchingSignature},
		{"missing header", bodyOnly("", "", "", newKey), hdr(), body, webhook.ErrMissingHeaders},
		{"empty header", bodyOnly("", "", "", newKey), hdr(webhook.DefaultSignatureHeader, " "), body, webhook.ErrMissingHeaders},
		{"signature in another header", bodyOnly("X-Hub-Signature-256", "", "sha256=", newKey), hdr(webhook.DefaultSignatureHeader, "sha256="+hexOf(newKey, body)), body, webhook.ErrMissingHeaders},
		{"missing prefix", bodyOnly("", "", "sha256=", newKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), body, webhook.ErrInvalidHeader},
		{"base64 where hex expected", bodyOnly("", webhook.EncodingHex, "", newKey), hdr(webhook.DefaultSignatureHeader, b64Of(newKey, body)), body, webhook.ErrInvalidHeader},
		{"hex where base64 expected", bodyOnly("", webhook.EncodingBase64, "", newKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), body, webhook.ErrInvalidHeader},
		{"truncated", bodyOnly("", "", "", newKey), hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)[:62]), body, webhook.ErrInvalidHeader},
		{"Standard Webhooks signature to a body-only provider", bodyOnly("", "", "", newKey), swHeader([]webhook.Secret{swSecret}, "msg_1", now, body), body, webhook.ErrMissingHeaders},

		{"standard webhooks", sw, swHeader([]webhook.Secret{swSecret}, "msg_1", now, body), body, nil},
		{"standard webhooks rotation", swRotating, swHeader([]webhook.Secret{swSecret}, "msg_1", now, body), body, nil},
		{"standard webhooks wrong secret", sw, swHeader([]webhook.Secret{swOther}, "msg_1", now, body), body, webhook.ErrNoMatchingSignature},
		{"standard webhooks tampered body", sw, swHeader([]webhook.Secret{swSecret}, "msg_1", now, body), tampered, webhook.ErrNoMatchingSignature},
		{"standard webhooks missing header", sw, hdr(), body, webhook.ErrMissingHeaders},
		{"standard webhooks stale", sw, swHeader([]webhook.Secret{swSecret}, "msg_1", now.Add(-6*time.Minute), body), body, webhook.ErrStaleTimestamp},
		{"body-only signature to a Standard Webhooks provider", sw, hdr(webhook.DefaultSignatureHeader, hexOf(newKey, body)), body, webhook.ErrMissingHeaders},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id, err := c.p.VerifyDelivery(c.h, c.body, now)
			if c.cause == nil {
				require.NoError(t, err)
				require.NotEmpty(t, id)
				return
			}
			require.ErrorIs(t, err, c.cause)
			require.True(t, veriland.IsCode(err, veriland.CodeInvalidWebhookSig), "%v", err)
			require.Empty(t, id)
		})
	}

	// SignBody writes what Verify accepts, and what an independent HMAC computes.
	bv := webhook.BodyVerifier{Prefix: "sha256=", Encoding: webhook.EncodingHex}
	require.Equal(t, githubSignature, bv.SignBody(providerSecret(t, webhook.SchemeHMACSHA256, githubSecret), []byte(githubPayload)))
}

// Body-only deliveries carry no message id: they are deduplicated by the event id the
// provider names, else by the HMAC (under the first secret, whichever one signed).
func TestProviderDeliveryIDs(t *testing.T) {
	const newKey, oldKey = "new-secret-0123456789", "old-secret-0123456789"
	p := webhook.Provider{Scheme: webhook.SchemeHMACSHA256, EventTypes: []string{"kyc.completed"},
		Secrets: []webhook.Secret{providerSecret(t, webhook.SchemeHMACSHA256, newKey), providerSecret(t, webhook.SchemeHMACSHA256, oldKey)}}
	signed := func(key string, body []byte) http.Header {
		h := http.Header{}
		h.Set(webhook.DefaultSignatureHeader, hex.EncodeToString(rawHMAC(key, body)))
		return h
	}
	id := func(p webhook.Provider, key string, body string) string {
		t.Helper()
		got, err := p.VerifyDelivery(signed(key, []byte(body)), []byte(body), time.Now())
		require.NoError(t, err)
		return got
	}
	a := `{"type":"kyc.completed","id":"evt_1","data":{"n":1}}`
	b := `{"type":"kyc.completed","id":"evt_1","data":{"n":2}}`

	// By the HMAC: the same body is one delivery whichever secret signed it; another
	// body is another.
	byMAC := id(p, newKey, a)
	require.Equal(t, "hmac-sha256:"+hex.EncodeToString(rawHMAC(newKey, []byte(a))), byMAC)
	require.Equal(t, byMAC, id(p, oldKey, a))
	require.NotEqual(t, byMAC, id(p, newKey, b))

	// By the event id at EventIDPath: a resend with another body is the same event.
	p.EventIDPath = "id"
	require.Equal(t, "evt_1", id(p, newKey, a))
	require.Equal(t, "evt_1", id(p, newKey, b))
	p.EventIDPath = "data.eventId"
	require.Equal(t, "12345", id(p, newKey, `{"type":"kyc.completed","data":{"eventId":12345}}`))
	// No such member, or one unfit for an id: the HMAC.
	for _, body := range []string{a, `{"data":{"eventId":{"x":1}}}`, `{"data":{"eventId":"has space"}}`, `{"data":{"eventId":""}}`, `[1]`} {
		require.Equal(t, "hmac-sha256:"+hex.EncodeToString(rawHMAC(newKey, []byte(body))), id(p, newKey, body), body)
	}

	// Through the inbox: the second delivery of either kind is a duplicate.
	store := openStore(t, filepath.Join(t.TempDir(), "inbox.db"))
	defer store.Close()
	in := &webhook.Inbox{Store: store}
	for _, msgID := range []string{"evt_1", byMAC} {
		dup, err := in.Accept(t.Context(), veriland.Sandbox, "vendor", msgID, "kyc.completed", []byte(a))
		require.NoError(t, err)
		require.False(t, dup)
		dup, err = in.Accept(t.Context(), veriland.Sandbox, "vendor", msgID, "kyc.completed", []byte(b))
		require.NoError(t, err)
		require.True(t, dup, msgID)
	}
}

func TestParseProviders(t *testing.T) {
	ps, err := webhook.ParseProviders([]byte(`{
	  "kyc": {"secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["kyc.completed"], "toleranceSeconds": 60},
	  "vendor": {"scheme": "hmac-sha256", "header": "X-Hub-Signature-256", "prefix": "sha256=", "encoding": "hex",
	             "secrets": ["It's a Secret to Everybody", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
	             "eventTypes": ["kyc.completed", "anchor.confirmed"], "eventIdPath": "data.id"}
	}`))
	require.NoError(t, err)
	require.Len(t, ps, 2)
	require.Equal(t, time.Minute, ps["kyc"].Tolerance)
	v := ps["vendor"]
	require.Equal(t, webhook.SchemeHMACSHA256, v.Scheme)
	require.Len(t, v.Secrets, 2)
	require.True(t, v.Accepts("anchor.confirmed"))
	h := http.Header{}
	h.Set("X-Hub-Signature-256", githubSignature)
	got, err := v.VerifyDelivery(h, []byte(githubPayload), time.Now())
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(got, "hmac-sha256:"))

	for name, c := range map[string]string{
		"not JSON":               `{`,
		"unknown member":         `{"p": {"secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["x"], "algorithm": "sha1"}}`,
		"unknown scheme":         `{"p": {"scheme": "sha1", "secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["x"]}}`,
		"text secret for sw":     `{"p": {"secrets": ["a plain secret of some length"], "eventTypes": ["x"]}}`,
		"short text secret":      `{"p": {"scheme": "hmac-sha256", "secrets": ["short"], "eventTypes": ["x"]}}`,
		"no secret":              `{"p": {"scheme": "hmac-sha256", "secrets": [], "eventTypes": ["x"]}}`,
		"no event type":          `{"p": {"scheme": "hmac-sha256", "secrets": ["a plain secret of some length"]}}`,
		"bad encoding":           `{"p": {"scheme": "hmac-sha256", "encoding": "base32", "secrets": ["a plain secret of some length"], "eventTypes": ["x"]}}`,
		"bad header":             `{"p": {"scheme": "hmac-sha256", "header": "X Sig", "secrets": ["a plain secret of some length"], "eventTypes": ["x"]}}`,
		"bad path":               `{"p": {"scheme": "hmac-sha256", "eventIdPath": "data..id", "secrets": ["a plain secret of some length"], "eventTypes": ["x"]}}`,
		"header for sw":          `{"p": {"header": "X-Sig", "secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["x"]}}`,
		"bad name":               `{"Bad": {"secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["x"]}}`,
		"tolerance out of range": `{"p": {"secrets": ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "eventTypes": ["x"], "toleranceSeconds": -1}}`,
	} {
		_, err := webhook.ParseProviders([]byte(c))
		require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%s: %v", name, err)
		require.NotContains(t, err.Error(), "plain secret", name)
	}
}
