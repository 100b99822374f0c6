package httpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkHealth compares GET /v1/health through the full middleware chain
// (request id, recovery, routing, metrics, auth, rate-limit exemption) with the same
// storage probe in a bare handler; the closing note reports the ratio.
func BenchmarkHealth(b *testing.B) {
	store, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	srv, err := New(Config{Store: store, Tokens: tokens})
	if err != nil {
		b.Fatal(err)
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = store.View(r.Context(), func(tx storage.Tx) error {
			_, _ = tx.Get(storage.Global("health"), []byte("probe"))
			return nil
		})
		body, _ := json.Marshal(healthBody{Status: "ok", Version: "dev", Checks: map[string]string{"storage": "ok"}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"full-chain", srv}, {"bare", bare}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/v1/health", nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				bc.h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}

// BenchmarkAttestationStatus measures the public GET /attestation/{id}/status through
// Server.ServeHTTP from parallel goroutines (the shape of scripts/bench.sh's HTTP row
// without the network): the attestation of one consent approval in SANDBOX, read
// without a token or environment header, so both environments are looked in, as
// scripts/bench.sh does. limits=on keeps the per-IP public limit on with a policy
// large enough never to answer 429 (each request is one durable write of the
// limiter); limits=default has the default per-IP policy, so that nearly every
// request of the flood is refused with 429, as one client hammering the route is.
func BenchmarkAttestationStatus(b *testing.B) {
	for _, limits := range []string{"off", "on", "default"} {
		b.Run("limits="+limits, func(b *testing.B) {
			h := newHarness(b, func(c *Config) {
				c.Now = time.Now
				c.RateLimits.Disabled = limits == "off"
				if limits == "on" {
					c.RateLimits.Public = ratelimit.Policy{Name: "ip", Limit: 1 << 30, Window: time.Minute, Burst: 1 << 30}
				}
			})
			h.skipSpecChecks = true
			attID := benchAttestation(b, h)
			path := "/attestation/" + attID + "/status"
			b.ReportAllocs()
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				req := httptest.NewRequest("GET", path, nil)
				for pb.Next() {
					w := httptest.NewRecorder()
					h.srv.ServeHTTP(w, req)
					if w.Code != http.StatusOK && (limits != "default" || w.Code != http.StatusTooManyRequests) {
						b.Errorf("status %d: %s", w.Code, w.Body)
						return
					}
				}
			})
		})
	}
}

// benchAttestation approves one consent request in SANDBOX and returns the id of its
// attestation.
func benchAttestation(b *testing.B, h *harness) string {
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	_, verifierTok := createKey(b, h, admin, "verifier", "verifier-bench")
	wallet, _ := crypto.GenerateKey()
	did := h.issueIdentity(b, "bench-subject", wallet, "success")["did"].(string)
	r := h.do(request{method: "POST", path: "/verify/request", token: verifierTok, body: map[string]any{
		"subjectRef": did, "scope": []string{"is_adult"}, "reason": "bench"}})
	require.Equal(b, http.StatusCreated, r.status, string(r.body))
	id := r.json(b)["requestId"].(string)
	ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(b)
	r = h.do(request{method: "POST", path: "/consent/" + id, body: map[string]any{
		"holderAddress": crypto.PubkeyToAddress(wallet.PublicKey).Hex(), "decision": "APPROVED",
		"disclosedScope": []string{"is_adult"}, "holderSignature": signConsent(b, ctx, wallet, "APPROVED", []string{"is_adult"})}})
	require.Equal(b, http.StatusCreated, r.status, string(r.body))
	return r.json(b)["attestation"].(map[string]any)["id"].(string)
}
