package httpserver

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/storage"
)

func createKey(t testing.TB, h *harness, adminTok, role, sub string) (string, string) {
	t.Helper()
	r := h.do(request{method: "POST", path: "/v1/api-keys", token: adminTok, body: map[string]any{"role": role, "sub": sub, "name": "key for " + sub}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	data := r.json(t)["data"].(map[string]any)
	return data["id"].(string), data["attributes"].(map[string]any)["token"].(string)
}

func TestAuthenticationRefusals(t *testing.T) {
	h := newHarness(t)
	now := h.clock.Now()
	claims := func(env string) jwt.MapClaims {
		return jwt.MapClaims{"iss": "veriland", "sub": "admin", "role": "admin", "env": env, "acct": "acct_test",
			"jti": "jti_1", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	}
	sign := func(m jwt.SigningMethod, key any, kid string, c jwt.MapClaims) string {
		tok := jwt.NewWithClaims(m, c)
		tok.Header["kid"] = kid
		s, err := tok.SignedString(key)
		require.NoError(t, err)
		return s
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	expired := claims("SANDBOX")
	expired["exp"] = now.Add(-2 * time.Minute).Unix()

	adminTok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	keyID, revokedTok := createKey(t, h, adminTok, "admin", "soon-revoked")
	require.Equal(t, http.StatusNoContent, h.do(request{method: "DELETE", path: "/v1/api-keys/" + keyID, token: adminTok}).status)

	cases := []struct {
		name, token, code string
		status            int
	}{
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "sandbox", claims("SANDBOX")), "unauthenticated", 401},
		{"RS256", sign(jwt.SigningMethodRS256, rsaKey, "sandbox", claims("SANDBOX")), "unauthenticated", 401},
		{"wrong kid", sign(jwt.SigningMethodHS256, h.tokens.Secrets.Sandbox, "staging", claims("SANDBOX")), "unauthenticated", 401},
		{"env disagrees with kid", sign(jwt.SigningMethodHS256, h.tokens.Secrets.Sandbox, "sandbox", claims("PRODUCTION")), "unauthenticated", 401},
		{"expired", sign(jwt.SigningMethodHS256, h.tokens.Secrets.Sandbox, "sandbox", expired), "token_expired", 401},
		{"revoked", revokedTok, "unauthenticated", 401},
		{"not a JWT", "abc", "unauthenticated", 401},
		{"wrong role", h.token(veriland.RoleVerifier, veriland.Sandbox, "acme"), "forbidden", 403},
		{"holder", h.token(veriland.RoleHolder, veriland.Sandbox, "did:veriland:x"), "forbidden", 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "GET", path: "/v1/api-keys", token: tc.token})
			require.Equal(t, tc.status, r.status, string(r.body))
			require.Equal(t, tc.code, r.errorCode(t))
			if tc.status == 401 {
				require.Contains(t, r.header.Get("WWW-Authenticate"), "Bearer")
			}
		})
	}
	t.Run("no token", func(t *testing.T) {
		r := h.do(request{method: "GET", path: "/v1/api-keys"})
		require.Equal(t, 401, r.status)
	})
	t.Run("valid", func(t *testing.T) {
		require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/api-keys", token: adminTok}).status)
	})
}

func TestEnvironmentIsolation(t *testing.T) {
	h := newHarness(t)
	prodAdmin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	sbxAdmin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	prodKey, _ := createKey(t, h, prodAdmin, "verifier", "acme")

	r := h.do(request{method: "DELETE", path: "/v1/api-keys/" + prodKey, token: sbxAdmin})
	require.Equal(t, http.StatusNotFound, r.status)
	require.Equal(t, "not_found", r.errorCode(t))

	list := h.do(request{method: "GET", path: "/v1/api-keys", token: sbxAdmin}).json(t)
	require.Empty(t, list["data"])
	list = h.do(request{method: "GET", path: "/v1/api-keys", token: prodAdmin}).json(t)
	require.Len(t, list["data"], 1)

	// Another account's sandbox is invisible too.
	other := h.token(veriland.RoleAdmin, veriland.Production, "admin", func(p *veriland.Principal) { p.Account = "acct_other" })
	require.Equal(t, http.StatusNotFound, h.do(request{method: "DELETE", path: "/v1/api-keys/" + prodKey, token: other}).status)
}

func TestBodyRules(t *testing.T) {
	h := newHarness(t)
	adminTok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	cases := []struct {
		name    string
		body    any
		header  map[string]string
		status  int
		code    string
		pointer string
	}{
		{"oversized", `{"name":"` + strings.Repeat("a", limitJSON) + `"}`, nil, 413, "payload_too_large", ""},
		{"wrong content type", `{}`, map[string]string{"Content-Type": "text/plain"}, 415, "unsupported_media_type", ""},
		{"form content type", `a=b`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type", ""},
		{"unknown member", `{"role":"verifier","sub":"a","name":"n","image":"AAAA"}`, nil, 400, "unknown_field", "/image"},
		{"case-folded member is unknown", `{"Role":"verifier","sub":"a","name":"n"}`, nil, 400, "unknown_field", "/Role"},
		{"wrong type", `{"role":"verifier","sub":"a","name":"n","ttlDays":"ten"}`, nil, 400, "validation_failed", "/ttlDays"},
		{"malformed", `{"role":`, nil, 400, "invalid_json", ""},
		{"trailing data", `{"role":"verifier","sub":"a","name":"n"} {}`, nil, 400, "invalid_json", ""},
		{"array", `[]`, nil, 400, "invalid_json", ""},
		{"out of range", `{"role":"verifier","sub":"a","name":"n","ttlDays":366}`, nil, 400, "validation_failed", "/ttlDays"},
		{"missing members", `{}`, nil, 400, "validation_failed", "/role"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "POST", path: "/v1/api-keys", token: adminTok, body: tc.body, header: tc.header})
			require.Equal(t, tc.status, r.status, string(r.body))
			require.Equal(t, tc.code, r.errorCode(t))
			if tc.pointer != "" {
				e := r.json(t)["errors"].([]any)[0].(map[string]any)
				require.Equal(t, tc.pointer, e["source"].(map[string]any)["pointer"])
			}
		})
	}
	t.Run("every invalid member is listed", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/v1/api-keys", token: adminTok, body: `{"role":"holder","sub":"","name":""}`})
		require.Equal(t, 400, r.status)
		require.Len(t, r.json(t)["errors"], 3)
	})
}

func TestUnmatchedRoutes(t *testing.T) {
	h := newHarness(t)
	r := h.do(request{method: "GET", path: "/v1/nothing-here"})
	require.Equal(t, 404, r.status)
	require.Equal(t, "not_found", r.errorCode(t))
	r = h.do(request{method: "POST", path: "/v1/health", body: `{}`, skipSpec: true})
	require.Equal(t, 405, r.status)
	require.Equal(t, "GET", r.header.Get("Allow"))
}

func TestRequestID(t *testing.T) {
	h := newHarness(t)
	r := h.do(request{method: "GET", path: "/v1/health", header: map[string]string{"X-Request-Id": "client-chosen.id_1"}})
	require.Equal(t, "client-chosen.id_1", r.header.Get("X-Request-Id"))
	r = h.do(request{method: "GET", path: "/v1/health", header: map[string]string{"X-Request-Id": "bad id<script>"}})
	require.True(t, strings.HasPrefix(r.header.Get("X-Request-Id"), "req_"))
}

func TestHealthAndMetrics(t *testing.T) {
	h := newHarness(t)
	r := h.do(request{method: "GET", path: "/v1/health"})
	require.Equal(t, 200, r.status)
	require.Equal(t, "ok", r.json(t)["status"])
	require.Empty(t, r.header.Get("RateLimit"), "health is never rate limited")
	m := h.do(request{method: "GET", path: "/metrics"})
	require.Equal(t, 200, m.status)
	require.Contains(t, string(m.body), `veriland_http_requests_total{method="GET",route="GET /v1/health",status="200"} 1`)
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.RateLimits.Key = ratelimit.Policy{Name: "key", Limit: 60, Window: time.Minute, Burst: 3}
	})
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	for i := range 3 {
		r := h.do(request{method: "GET", path: "/v1/api-keys", token: tok})
		require.Equal(t, 200, r.status)
		require.Equal(t, `"key";q=60;w=60`, r.header.Get("RateLimit-Policy"))
		require.Equal(t, fmt.Sprintf(`"key";r=%d;t=%d`, 2-i, i+1), r.header.Get("RateLimit"))
	}
	r := h.do(request{method: "GET", path: "/v1/api-keys", token: tok})
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, "rate_limited", r.errorCode(t))
	require.Equal(t, "1", r.header.Get("Retry-After"))
	require.NotEmpty(t, r.header.Get("RateLimit"))

	h.clock.Advance(time.Second)
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/api-keys", token: tok}).status)

	// Another subject has its own allowance.
	other := h.token(veriland.RoleAdmin, veriland.Sandbox, "other-admin")
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/api-keys", token: other}).status)
}

func TestAuditTamperIsReported(t *testing.T) {
	h := newHarness(t)
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	// The first request seeds the account's sandbox, whose records are audited too.
	seeded := h.do(request{method: "GET", path: "/v1/audit/verify", token: tok}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)["entries"].(float64)
	for i := range 3 {
		createKey(t, h, tok, "verifier", fmt.Sprintf("v%d", i))
	}
	rep := h.do(request{method: "GET", path: "/v1/audit/verify", token: tok}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, true, rep["valid"])
	require.EqualValues(t, seeded+3, rep["entries"])

	list := h.do(request{method: "GET", path: "/v1/audit?action=api_key.create", token: tok}).json(t)
	require.Len(t, list["data"], 3)

	// Rewrite the second key's entry behind the API's back.
	key := make([]byte, 8)
	binary.BigEndian.PutUint64(key, uint64(seeded)+2)
	err := h.store.Update(t.Context(), func(tx storage.Tx) error {
		raw, err := tx.Get(storage.Bucket(veriland.Sandbox, "audit"), key)
		if err != nil {
			return err
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		m["actor"] = "someone-else"
		raw, _ = json.Marshal(m)
		return tx.Put(storage.Bucket(veriland.Sandbox, "audit"), key, raw)
	})
	require.NoError(t, err)
	rep = h.do(request{method: "GET", path: "/v1/audit/verify", token: tok}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, false, rep["valid"])
	require.EqualValues(t, seeded+2, rep["firstBrokenSeq"])

	// The other environment's chain is untouched.
	prod := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	rep = h.do(request{method: "GET", path: "/v1/audit/verify", token: prod}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, true, rep["valid"])
}

func TestOpenAPIMatchesRoutes(t *testing.T) {
	h := newHarness(t)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument, &doc))
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	require.ElementsMatch(t, h.srv.Routes(), documented)

	r := h.do(request{method: "GET", path: "/v1/openapi.json"})
	require.Equal(t, 200, r.status)
	require.JSONEq(t, string(openAPIDocument), string(r.body))
}

func TestIdempotency(t *testing.T) {
	h := newHarness(t)
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	body := `{"role":"verifier","sub":"acme","name":"Acme"}`
	key := map[string]string{"Idempotency-Key": "create-acme-1"}

	first := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: key})
	require.Equal(t, 201, first.status)
	require.Empty(t, first.header.Get("Idempotent-Replayed"))

	again := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: key})
	require.Equal(t, 201, again.status)
	require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
	require.Equal(t, first.body, again.body, "replayed byte for byte")
	require.Equal(t, first.header.Get("Location"), again.header.Get("Location"))
	require.Equal(t, first.header.Get("Content-Type"), again.header.Get("Content-Type"))

	quoted := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: map[string]string{"Idempotency-Key": `"create-acme-1"`}})
	require.Equal(t, first.body, quoted.body, "a quoted key is the same key")

	reused := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: `{"role":"verifier","sub":"other","name":"Other"}`, header: key})
	require.Equal(t, 422, reused.status)
	require.Equal(t, "idempotency_key_reused", reused.errorCode(t))

	bad := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: map[string]string{"Idempotency-Key": strings.Repeat("k", 256)}})
	require.Equal(t, 400, bad.status)
	require.Equal(t, "invalid_idempotency_key", bad.errorCode(t))

	list := h.do(request{method: "GET", path: "/v1/api-keys", token: tok}).json(t)
	require.Len(t, list["data"], 1, "no side effect ran twice")

	// Another subject's identical key is another request.
	other := h.token(veriland.RoleAdmin, veriland.Sandbox, "other-admin")
	require.Empty(t, h.do(request{method: "POST", path: "/v1/api-keys", token: other, body: body, header: key}).header.Get("Idempotent-Replayed"))

	// After 24 hours the key is forgotten.
	h.clock.Advance(24*time.Hour + time.Minute)
	tok = h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	late := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: key})
	require.Equal(t, 201, late.status)
	require.Empty(t, late.header.Get("Idempotent-Replayed"))
}

func TestIdempotencyUnderConcurrency(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	body := `{"role":"verifier","sub":"acme","name":"Acme"}`
	h.sameKeyConcurrently(t, 100, request{method: "POST", path: "/v1/api-keys", token: tok, body: body,
		header: map[string]string{"Idempotency-Key": "same-key"}})
	list := h.do(request{method: "GET", path: "/v1/api-keys", token: tok}).json(t)
	require.Len(t, list["data"], 1, "exactly one API key created")
}

// sameKeyConcurrently sends req n times at once (req carries the Idempotency-Key)
// and checks SPEC S2.4 under concurrency: every answer is 201 (the first, or its
// replay) or 409 in flight, and every 201 is the same response, byte for byte.
func (h *harness) sameKeyConcurrently(t *testing.T, n int, req request) {
	t.Helper()
	statuses := make(chan int, n)
	bodies := make(chan []byte, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			r := h.do(req)
			statuses <- r.status
			if r.status == 201 {
				bodies <- r.body
			}
		})
	}
	wg.Wait()
	close(statuses)
	close(bodies)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	require.Equal(t, n, count[201]+count[409], "only 201 (first or replay) and 409 in flight: %v", count)
	var first []byte
	for b := range bodies {
		if first == nil {
			first = b
		}
		require.Equal(t, first, b, "every 201 is the same response")
	}
}

func TestIdempotencyInFlight(t *testing.T) {
	h := newHarness(t)
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	started, release := make(chan struct{}), make(chan struct{})
	// A slow route, registered only in this test, holds the key while it runs.
	h.srv.add(route{method: "POST", path: "/v1/test-slow", roles: admin, handle: func(w http.ResponseWriter, r *http.Request) error {
		close(started)
		<-release
		s := h.srv
		s.writeJSON(w, r, 201, map[string]string{"ok": "yes"})
		return nil
	}})
	done := make(chan response)
	go func() {
		done <- h.do(request{method: "POST", path: "/v1/test-slow", token: tok, body: `{}`, header: map[string]string{"Idempotency-Key": "slow"}})
	}()
	<-started
	r := h.do(request{method: "POST", path: "/v1/test-slow", token: tok, body: `{}`, header: map[string]string{"Idempotency-Key": "slow"}})
	require.Equal(t, 409, r.status)
	require.Equal(t, "idempotency_key_in_flight", r.errorCode(t))
	close(release)
	require.Equal(t, 201, (<-done).status)
	replay := h.do(request{method: "POST", path: "/v1/test-slow", token: tok, body: `{}`, header: map[string]string{"Idempotency-Key": "slow"}})
	require.Equal(t, "true", replay.header.Get("Idempotent-Replayed"))
}

func TestSweepPrunesExpiredRecords(t *testing.T) {
	h := newHarness(t)
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	r := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: `{"role":"verifier","sub":"a","name":"b"}`,
		header: map[string]string{"Idempotency-Key": "k1"}})
	require.Equal(t, 201, r.status)
	count := func(bucket string) int {
		n := 0
		require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) error {
			return tx.Scan(storage.Bucket(veriland.Sandbox, bucket), storage.Range{}, func(_, _ []byte) error { n++; return nil })
		}))
		return n
	}
	require.Equal(t, 1, count("idempotency"))
	require.Equal(t, 1, count("ratelimit"))

	h.clock.Advance(25 * time.Hour)
	h.srv.sweep(t.Context())
	require.Zero(t, count("idempotency"), "expired idempotency records are deleted")
	require.Zero(t, count("ratelimit"), "idle rate limit keys are deleted")
}

func TestHealthReportsStorageDown(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.store.Close())
	r := h.do(request{method: "GET", path: "/v1/health"})
	require.Equal(t, http.StatusServiceUnavailable, r.status)
	m := r.json(t)
	require.Equal(t, "down", m["status"])
	require.Equal(t, "down", m["checks"].(map[string]any)["storage"])

	// Every other route degrades to 503 unavailable, never 500.
	tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	r = h.do(request{method: "GET", path: "/v1/api-keys", token: tok})
	require.Equal(t, http.StatusServiceUnavailable, r.status, string(r.body))
}

func TestSandboxAuditIsolatedPerAccount(t *testing.T) {
	h := newHarness(t)
	adminA := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-a")
	adminB := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin-b", func(p *veriland.Principal) { p.Account = "acct_other" })
	// Both accounts' first requests seed their sandboxes (audited too).
	var seeded float64
	for _, tok := range []string{adminA, adminB} {
		seeded = h.do(request{method: "GET", path: "/v1/audit/verify", token: tok}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)["entries"].(float64)
	}
	createKey(t, h, adminA, "verifier", "verifier-a")
	createKey(t, h, adminB, "verifier", "verifier-b1")
	createKey(t, h, adminB, "verifier", "verifier-b2")

	countActions := func(tok string) int {
		list := h.do(request{method: "GET", path: "/v1/audit?action=api_key.create", token: tok}).json(t)
		for _, item := range list["data"].([]any) {
			detail := item.(map[string]any)["attributes"].(map[string]any)["detail"].(map[string]any)
			require.NotNil(t, detail["account"])
		}
		return len(list["data"].([]any))
	}
	require.Equal(t, 1, countActions(adminA))
	require.Equal(t, 2, countActions(adminB))

	// The chain itself is one per environment and still verifies.
	rep := h.do(request{method: "GET", path: "/v1/audit/verify", token: adminA}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, true, rep["valid"])
	require.EqualValues(t, seeded+3, rep["entries"])
}
