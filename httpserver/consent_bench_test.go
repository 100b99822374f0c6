package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/postgres"
)

// BenchmarkConsentApprove measures consent approvals end to end: POST /consent/{id}
// through the real server on httptest, with as many concurrent clients as
// GOMAXPROCS×32 (64 on two cores). Each op is one approval (signature recovery, the
// state transition, the signed CONSENT attestation, its audit entry and webhook
// outbox record in one transaction). Requests are created and signed before the
// timer.
//
//   - bbolt: one file with fsync and group commit; tx/commit is how many approvals
//     share one commit; writer-µs/approval is the write lock's time per approval (the
//     serialised part), tx-fn-µs/approval the part of it in transaction functions.
//   - postgres/pool=N: storage/postgres on VERILAND_TEST_POSTGRES_URL with a pool of N
//     connections, SERIALIZABLE with retry; retries/commit is the contention figure.
//     views/approval counts the read-only transactions of an approval.
//     For figures with fsync on, point the variable at a durable cluster
//     (storage/postgres/testdb.sh -durable).
func BenchmarkConsentApprove(b *testing.B) {
	b.Run("bbolt", func(b *testing.B) {
		var h *harness
		var before bolt.Stats
		benchConsentApprove(b, func(x *harness) { h, before = x, x.store.Stats() }, func(b *testing.B) {
			st := h.store.Stats()
			b.ReportMetric(float64(st.Transactions-before.Transactions)/float64(max(st.Commits-before.Commits, 1)), "tx/commit")
			// The serialised part of an approval: the write lock held, of which in
			// the transaction functions (the rest is bbolt's commit and fsync).
			b.ReportMetric(float64((st.WriterTime-before.WriterTime).Microseconds())/float64(b.N), "writer-µs/approval")
			b.ReportMetric(float64((st.FunctionTime-before.FunctionTime).Microseconds())/float64(b.N), "tx-fn-µs/approval")
		})
	})
	// One pool per size: on PostgreSQL the pool bounds the concurrent transactions,
	// and with them the serialization failures (docs/operations.md).
	for _, conns := range []int{8, 16, 32} {
		b.Run(fmt.Sprintf("postgres/pool=%d", conns), func(b *testing.B) {
			pg := pgtest.Replicas(b, 1, conns)[0]
			var before postgres.Stats
			benchConsentApprove(b, func(*harness) { before = pg.Stats() }, func(b *testing.B) {
				st := pg.Stats()
				commits := st.Commits - before.Commits
				b.ReportMetric(float64(st.Retries-before.Retries)/float64(max(commits, 1)), "retries/commit")
				b.ReportMetric(float64(commits)/float64(b.N), "commits/approval")
				// Where an approval's time on the network goes: its read round
				// trips (each Get and Scan page), and the rows its one write batch
				// carries (BEGIN, the batch and COMMIT are three more waits).
				b.ReportMetric(float64(st.Reads-before.Reads)/float64(max(st.Attempts-before.Attempts, 1)), "reads/attempt")
				b.ReportMetric(float64(st.Writes-before.Writes)/float64(max(st.Attempts-before.Attempts, 1)), "writes/attempt")
				// The read-only transactions around it (authentication, idempotency,
				// the request's own read before the transition) and their reads.
				b.ReportMetric(float64(st.Views-before.Views)/float64(b.N), "views/approval")
				b.ReportMetric(float64(st.ViewReads-before.ViewReads)/float64(max(st.Views-before.Views, 1)), "reads/view")
				b.ReportMetric(float64(st.Gets-before.Gets)/float64(b.N), "gets/approval") // storage.ViewOne
			}, func(c *Config) { c.Store = pg })
		})
	}
}

// benchConsentApprove prepares b.N signed approvals, calls started just before the
// timer starts, runs them in parallel and calls report after the timer stops.
func benchConsentApprove(b *testing.B, started func(*harness), report func(*testing.B), configure ...func(*Config)) {
	// The real clock, not the harness's frozen one: time-ordered index keys (expiry,
	// audit journal, webhook lists) then spread as they do in service, which matters
	// to PostgreSQL's predicate locks.
	h := newHarness(b, append([]func(*Config){func(c *Config) { c.RateLimits.Disabled = true; c.Now = time.Now }}, configure...)...)
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
	started(h)
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
	report(b)
}
