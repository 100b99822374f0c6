package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// BenchmarkConsentApprove measures consent approvals end to end: POST /consent/{id}
// through the real server on httptest and bbolt with fsync, with as many concurrent
// clients as GOMAXPROCS×32. Each op is one approval (signature recovery, the state
// transition, the signed CONSENT attestation, its audit entry and webhook outbox
// record in one transaction). Requests are created and signed before the timer.
func BenchmarkConsentApprove(b *testing.B) {
	h := newHarness(b, func(c *Config) { c.RateLimits.Disabled = true })
	h.skipSpecChecks = true
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	_, verifierTok := createKey(b, h, admin, "verifier", "verifier-bench")
	wallet, _ := crypto.GenerateKey()
	holder := crypto.PubkeyToAddress(wallet.PublicKey).Hex()
	did := h.issueIdentity(b, "bench-subject", wallet, "success")["did"].(string)

	type prepared struct {
		path string
		body []byte
	}
	reqs := make([]prepared, b.N)
	for i := range reqs {
		r := h.do(request{method: "POST", path: "/verify/request", token: verifierTok, body: map[string]any{
			"subjectRef": did, "scope": []string{"is_adult"}, "reason": "bench", "callbackUrl": "https://verifier.example/hooks"}})
		require.Equal(b, http.StatusCreated, r.status, string(r.body))
		id := r.json(b)["requestId"].(string)
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(b)
		body, _ := json.Marshal(map[string]any{"holderAddress": holder, "decision": "APPROVED",
			"disclosedScope": []string{"is_adult"}, "holderSignature": signConsent(b, ctx, wallet, "APPROVED", []string{"is_adult"})})
		reqs[i] = prepared{path: "/consent/" + id, body: body}
	}
	client := h.ts.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 256
	var next atomic.Int64
	b.SetParallelism(32)
	b.ReportAllocs()
	before := h.store.Stats()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := reqs[next.Add(1)-1]
			resp, err := client.Post(h.ts.URL+p.path, "application/json", bytes.NewReader(p.body))
			if err != nil {
				b.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "approvals/s")
	st := h.store.Stats()
	commits, txs := st.Commits-before.Commits, st.Transactions-before.Transactions
	b.ReportMetric(float64(txs)/float64(max(commits, 1)), "tx/commit")
	b.ReportMetric(float64(txs)/float64(b.N), "tx/approval")
}
