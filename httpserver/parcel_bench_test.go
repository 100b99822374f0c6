package httpserver

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// BenchmarkParcelCertify measures durable certifications through the real server
// (httptest, bbolt with fsync) with 64 concurrent clients: each op is one POST
// /v1/parcels/{id}/certify by the named notary (the certificate's JCS hash, its
// EIP-712 signature, the token mint, the anchoring job and the audit entry, in one
// transaction). The parcels are created before the timer.
// Compare certs/s with storage/bolt's BenchmarkUpdate/writers=64 (the raw
// group-commit rate of small transactions).
func BenchmarkParcelCertify(b *testing.B) {
	h := newHarness(b, func(c *Config) { c.RateLimits.Disabled = true })
	h.skipSpecChecks = true
	f := newParcelFlow(h, veriland.Production)
	paths := make([]string, b.N)
	for i := range paths {
		r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(parcelNotary)})
		require.Equal(b, http.StatusCreated, r.status, string(r.body))
		paths[i] = h.ts.URL + "/v1/parcels/" + attrs(b, r)["id"].(string) + "/certify"
	}
	client := h.ts.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 128
	const clients = 64
	var next atomic.Int64
	before := h.store.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				req, _ := http.NewRequest("POST", paths[i-1], nil)
				req.Header.Set("Authorization", "Bearer "+f.notary)
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	st := h.store.Stats()
	commits, txs := st.Commits-before.Commits, st.Transactions-before.Transactions
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "certs/s")
	b.ReportMetric(float64(txs)/float64(max(commits, 1)), "tx/commit")
	b.ReportMetric(float64(txs)/float64(b.N), "tx/cert")
}

// BenchmarkRegistryVerify compares the public GET /v1/registry/verify/{hash} (JSON)
// with GET /v1/health through the same server and middleware; the ratio of their
// ns/op is what a registry lookup costs over the cheapest route.
func BenchmarkRegistryVerify(b *testing.B) {
	h := newHarness(b, func(c *Config) { c.RateLimits.Disabled = true })
	h.skipSpecChecks = true
	f := newParcelFlow(h, veriland.Production)
	id := attrs(b, h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(parcelNotary)}))["id"].(string)
	hash := attrs(b, h.do(request{method: "POST", path: "/v1/parcels/" + id + "/certify", token: f.notary}))["certificateHash"].(string)
	for _, bc := range []struct{ name, path, accept string }{
		{"verify-json", "/v1/registry/verify/" + hash, ""},
		{"verify-html", "/v1/registry/verify/" + hash, "text/html"},
		{"health", "/v1/health", ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			client := h.ts.Client()
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest("GET", h.ts.URL+bc.path, nil)
				if bc.accept != "" {
					req.Header.Set("Accept", bc.accept)
				}
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || (bc.accept != "" && !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html")) {
					b.Fatal(resp.StatusCode)
				}
			}
		})
	}
}
