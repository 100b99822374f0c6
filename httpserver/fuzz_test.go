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

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/storage/bolt"
)

// FuzzRouter throws arbitrary methods, paths, headers and bodies at the whole
// router: it must never panic and never answer 500.
func FuzzRouter(f *testing.F) {
	store, err := bolt.Open(filepath.Join(f.TempDir(), "fuzz.db"), bolt.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	srv, err := New(Config{Store: store, Tokens: tokens, RateLimits: RateLimits{Disabled: true}})
	if err != nil {
		f.Fatal(err)
	}
	admin, _, _ := tokens.Mint(veriland.Principal{Subject: "admin", Role: veriland.RoleAdmin, Env: veriland.Sandbox}, time.Hour)

	f.Add("POST", "/v1/api-keys", "Bearer "+admin, "application/json", "k1", []byte(`{"role":"verifier","sub":"a","name":"b"}`))
	f.Add("GET", "/v1/api-keys?limit=0&cursor=%%%", "Bearer "+admin, "", "", []byte(nil))
	f.Add("DELETE", "/v1/api-keys/../../x", "Bearer x.y.z", "", "", []byte(nil))
	f.Add("GET", "/v1/audit?since=yesterday", "Bearer "+admin, "", "", []byte(nil))
	f.Add("POST", "/v1/api-keys", "Bearer "+admin, "application/json; charset=utf-8", "\"quoted\"", []byte(`{"role":1,"sub":[],"name":{}}`))
	f.Add("PATCH", "/metrics", "Basic Zm9v", "text/plain", strings.Repeat("k", 300), []byte("\x00\xff"))
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
		if w.Code >= 500 {
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
