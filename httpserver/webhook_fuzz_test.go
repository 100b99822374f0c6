package httpserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/veriland/veriland/httpserver/webhook"
)

// FuzzInboundWebhook throws arbitrary providers, webhook-id, webhook-timestamp and
// webhook-signature values and bodies at POST /v1/webhooks/{provider} of a real server.
// It never panics nor answers 5xx, and its verdict agrees with webhook.Verify: a request
// to the configured provider that does not verify is 401, one that verifies is never
// 401, and only verified requests are ever 200. With sign set, the request is signed
// with the provider's secret over the fuzzed id, timestamp and body, so the fuzzer also
// reaches the envelope, event type, inbox and dispatch code behind the signature check.
func FuzzInboundWebhook(f *testing.F) {
	h := newHarness(f, func(c *Config) { c.RateLimits.Disabled = true })
	now := strconv.FormatInt(h.clock.Now().Unix(), 10)
	valid := []byte(`{"type":"kyc.completed","timestamp":"2026-11-21T12:00:00Z","data":{"env":"SANDBOX","did":"did:veriland:00000000000000000000000000","outcome":"APPROVED","claims":{"is_adult":true}}}`)

	f.Add("kyc", "msg_seed_1", now, "", valid, true)
	f.Add("kyc", "msg_seed_2", now, rawSign(h.kycSecret, "msg_seed_2", now, valid), valid, false)
	f.Add("kyc", "msg_seed_3", now, "v1,AAAA v2,xyz "+rawSign(h.kycSecret, "msg_seed_3", now, valid), valid, false)
	f.Add("kyc", "msg_seed_4", strconv.FormatInt(h.clock.Now().Unix()-301, 10), "", valid, true)
	f.Add("kyc", "msg seed\x00\xff", now, "", valid, true)
	f.Add("kyc", strings.Repeat("i", 300), now, "", valid, true)
	f.Add("kyc", "msg_seed_5", now, "", []byte(`{"type":"kyc.completed","data":null}`), true)
	f.Add("kyc", "msg_seed_6", now, "", []byte(`{"type":"kyc.completed","data":{"env":"PRODUCTION","providerRef":"x","outcome":"MAYBE","extra":1}}`), true)
	f.Add("kyc", "msg_seed_7", now, "", []byte(`{"type":"anchor.confirmed","data":{}}`), true)
	f.Add("kyc", "msg_seed_8", now, "", []byte(`[1,2,3]`), true)
	f.Add("kyc", "msg_seed_9", now, "", []byte(`{"type":"kyc.completed","data":{"env":"SANDBOX","did":"did:veriland:x`), true)
	f.Add("kyc", "msg_seed_10", "-1", "v1,", []byte(nil), false)
	f.Add("kyc", "msg_seed_11", "99999999999999999999", "v1,"+strings.Repeat("A", 44), valid, false)
	f.Add("kyc", "", "", "", []byte(`{}`), false)
	f.Add("anchor", "msg_seed_12", now, "", valid, true)
	f.Add("secret", "msg_seed_13", now, "", valid, true)
	f.Add("KYC", "msg_seed_14", now, "", valid, true)

	f.Fuzz(func(t *testing.T, provider, msgID, ts, sig string, body []byte, sign bool) {
		if sign {
			sig = rawSign(h.kycSecret, msgID, ts, body)
		}
		req := httptest.NewRequest(http.MethodPost, "http://veriland.test/v1/webhooks/"+url.PathEscape(provider), bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range map[string]string{webhook.HeaderID: msgID, webhook.HeaderTimestamp: ts, webhook.HeaderSignature: sig} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		verr := webhook.Verify(req.Header, body, []webhook.Secret{h.kycSecret}, h.clock.Now())
		w := httptest.NewRecorder()
		h.srv.ServeHTTP(w, req)

		if w.Code >= 500 {
			t.Fatalf("answered %d: %s", w.Code, w.Body.Bytes())
		}
		switch {
		case len(body) > limitJSON:
			// The body limit comes first.
		case provider != "kyc":
			if w.Code == http.StatusOK || w.Code == http.StatusUnauthorized {
				t.Fatalf("provider %q answered %d: %s", provider, w.Code, w.Body.Bytes())
			}
		case verr != nil:
			if w.Code != http.StatusUnauthorized {
				t.Fatalf("unverifiable request (%v) answered %d: %s", verr, w.Code, w.Body.Bytes())
			}
		default:
			if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
				t.Fatalf("verified request answered %d: %s", w.Code, w.Body.Bytes())
			}
		}
	})
}
