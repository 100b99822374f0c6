package httpserver

import (
	"bytes"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/storage/bolt"
)

// FuzzRouter throws arbitrary methods, paths, headers and bodies at every route of
// a fully wired server: it must never panic and never answer 500.
func FuzzRouter(f *testing.F) {
	store, err := bolt.Open(filepath.Join(f.TempDir(), "fuzz.db"), bolt.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	issuerKey, err := crypto.GenerateKey()
	if err != nil {
		f.Fatal(err)
	}
	cfg, err := WithDefaultServices(Config{Store: store, Tokens: tokens, RateLimits: RateLimits{Disabled: true},
		PublicOrigin: "http://veriland.test"}, Keys{Pepper: bytes.Repeat([]byte("k"), 32), IssuerKey: issuerKey})
	if err != nil {
		f.Fatal(err)
	}
	srv, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	holder, _, _ := tokens.Mint(veriland.Principal{Subject: "did:veriland:AAAAAAAAAAAAAAAAAAAAAA", Role: veriland.RoleHolder, Env: veriland.Sandbox, Wallet: "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"}, time.Hour)
	verifier, _, _ := tokens.Mint(veriland.Principal{Subject: "verifier-acme", Role: veriland.RoleVerifier, Env: veriland.Sandbox}, time.Hour)
	admin, _, _ := tokens.Mint(veriland.Principal{Subject: "admin", Role: veriland.RoleAdmin, Env: veriland.Sandbox}, time.Hour)

	f.Add("POST", "/v1/api-keys", "Bearer "+admin, "application/json", "k1", []byte(`{"role":"verifier","sub":"a","name":"b"}`))
	f.Add("GET", "/v1/api-keys?limit=0&cursor=%%%", "Bearer "+admin, "", "", []byte(nil))
	f.Add("DELETE", "/v1/api-keys/../../x", "Bearer x.y.z", "", "", []byte(nil))
	f.Add("GET", "/v1/audit?since=yesterday", "Bearer "+admin, "", "", []byte(nil))
	f.Add("POST", "/v1/api-keys", "Bearer "+admin, "application/json; charset=utf-8", "\"quoted\"", []byte(`{"role":1,"sub":[],"name":{}}`))
	f.Add("PATCH", "/metrics", "Basic Zm9v", "text/plain", strings.Repeat("k", 300), []byte("\x00\xff"))
	f.Add("POST", "/identity/issue", "", "application/json", "", []byte(`{"subjectRef":"x","countryCode":"NG","payload":{"scenario":"review"}}`))
	f.Add("POST", "/verify/request", "Bearer "+verifier, "application/json", "", []byte(`{"subjectRef":"did:veriland:AAAAAAAAAAAAAAAAAAAAAA","scope":["is_adult"],"reason":"r","callbackUrl":"http://[::1]:1/x"}`))
	f.Add("POST", "/verify/request", "Bearer "+verifier, "application/json", "", []byte(`{"subjectRef":"did:pkh:eip155:1:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23","scope":["identity","is_adult"],"reason":"r","mode":"SELECTIVE","requireLiveness":{"minLevel":"L2","maxAgeDays":1.5},"expiresInSeconds":60}`))
	f.Add("POST", "/verify/request", "Bearer "+verifier, "application/json", "", []byte(`{"subjectRef":"x","scope":[],"reason":"r","mode":"FULL","requireLiveness":true,"verifierName":"n"}`))
	f.Add("POST", "/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", "", "application/json", "", []byte(`{"holderAddress":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","decision":"APPROVED","holderSignature":"0x00"}`))
	f.Add("POST", "/liveness/device/enroll", "Bearer "+holder, "application/json", "", []byte(`{"platform":"WEB","publicKey":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23","attestation":{"type":"MOCK","token":"mock-token"}}`))
	f.Add("POST", "/liveness/verify", "Bearer "+holder, "application/json", "", []byte(`{"sessionId":"lvs_x","frameTimestamps":[1,2.5,null],"evidence":{"timing":{"frameCount":-1,"sessionDurationMs":0.5}}}`))
	f.Add("POST", "/liveness/session", "Bearer "+holder, "", "", []byte(nil))
	f.Add("POST", "/identity/chip-verify", "Bearer "+holder, "application/json", "", []byte(`{"sodBase64":"dw==","dataGroups":[{"number":1,"contentBase64":"AA=="}],"livenessAttestationId":"att_x"}`))
	f.Add("POST", "/auth/siwe", "", "application/json", "", []byte(`{"message":"x wants you to sign in","signature":"0x","environment":"SANDBOX"}`))
	f.Add("GET", "/attestation/att_x/status", "", "", "", []byte(nil))
	f.Add("POST", "/v1/webhooks/kyc", "", "application/json", "", []byte(`{"type":"kyc.completed","data":{}}`))
	f.Fuzz(func(t *testing.T, method, path, authz, contentType, idemKey string, body []byte) {
		if !validMethod(method) || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n\t#?") && !strings.Contains(path, "?") {
			return
		}
		req, err := http.NewRequest(method, "http://veriland.test"+path, bytes.NewReader(body))
		if err != nil {
			return
		}
		for k, v := range map[string]string{"Authorization": authz, "Content-Type": contentType, "Idempotency-Key": idemKey} {
			if v != "" && validHeaderValue(v) {
				req.Header.Set(k, v)
			}
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		// 503 is a documented outcome (PRODUCTION issuance without a KYC provider);
		// anything else from 500 up is a bug.
		if w.Code >= 500 && w.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s %s answered %d: %s", method, path, w.Code, w.Body.Bytes())
		}
	})
}

func validMethod(m string) bool {
	if m == "" || len(m) > 16 {
		return false
	}
	for i := 0; i < len(m); i++ {
		if m[i] < 'A' || m[i] > 'Z' {
			return false
		}
	}
	return true
}

func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] == 0x7f {
			return false
		}
	}
	return true
}
