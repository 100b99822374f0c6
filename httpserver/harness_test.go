package httpserver

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// testClock is a settable clock shared by the server under test and the test.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// harness is a real server on httptest with bbolt in a temp dir; every exchange
// is checked against the OpenAPI document.
type harness struct {
	t      testing.TB
	srv    *Server
	ts     *httptest.Server
	store  *bolt.Store
	tokens *auth.Tokens
	clock  *testClock
	router routers.Router

	issuerKey *ecdsa.PrivateKey
	kycSecret webhook.Secret
	sandboxDS *sandbox.DS // signs sandbox passports the server trusts
	storePath string

	skipSpecChecks bool // benchmarks: do not validate exchanges against the document
}

func newHarness(t testing.TB, configure ...func(*Config)) *harness {
	t.Helper()
	storePath := filepath.Join(t.TempDir(), "veriland.db")
	store, err := bolt.Open(storePath, bolt.Options{})
	require.NoError(t, err)
	clock := &testClock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	tokens := &auth.Tokens{
		Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)},
		Now:     clock.Now, Rand: rand.Reader,
	}
	issuerKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	kycSecret, err := webhook.NewSecret(rand.Reader)
	require.NoError(t, err)
	fields, err := fieldcrypt.NewKeyring("test", map[string][]byte{"test": bytes.Repeat([]byte("f"), 32)}, rand.Reader)
	require.NoError(t, err)
	// POST /v1/sandbox/chain is registered with a sandbox chain; an empty JSON-RPC
	// server stands for it (landtitle_e2e_test.go serves a real simulated chain).
	cfg := Config{Store: store, Tokens: tokens, Now: clock.Now, PublicOrigin: "http://veriland.test", Fields: fields,
		SandboxChain: rpc.DialInProc(rpc.NewServer())}
	for _, f := range configure {
		f(&cfg)
	}
	csca, ds, err := binding.NewSandboxPKI(rand.Reader, clock.Now)
	require.NoError(t, err)
	sandboxTrust := chipauth.NewTrustStore()
	_, err = sandboxTrust.AddCertificates(csca.PEM())
	require.NoError(t, err)
	cfg, err = WithDefaultServices(cfg, Keys{
		Trust:  map[veriland.Environment]*chipauth.TrustStore{veriland.Sandbox: sandboxTrust},
		Pepper: bytes.Repeat([]byte("k"), 32), IssuerKey: issuerKey,
		WebhookProviders: webhook.Providers{
			"kyc": {Secrets: []webhook.Secret{kycSecret}, EventTypes: []string{webhook.EventKYCCompleted}},
		},
	})
	require.NoError(t, err)
	srv, err := New(cfg)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		_ = store.Close() // a test may have closed it to read the file
	})
	return &harness{t: t, srv: srv, ts: ts, store: store, tokens: tokens, clock: clock, router: openAPIRouter(t),
		issuerKey: issuerKey, kycSecret: kycSecret, sandboxDS: ds, storePath: storePath}
}

// openAPIRouter returns the router over the embedded OpenAPI document that every
// harness checks its exchanges against. It is built once per test binary: loading and
// validating the document costs about 3 s under -race, and the package makes a
// harness a hundred times. The router and the document are only read afterwards.
func openAPIRouter(t testing.TB) routers.Router {
	t.Helper()
	sharedRouter.once.Do(func() {
		openapi3filter.RegisterBodyDecoder(mediaJSONAPI, openapi3filter.JSONBodyDecoder)
		doc, err := openapi3.NewLoader().LoadFromData(openAPIDocument)
		if err == nil {
			err = doc.Validate(context.Background())
		}
		if err == nil {
			doc.Servers = nil
			sharedRouter.router, err = legacy.NewRouter(doc)
		}
		sharedRouter.err = err
	})
	require.NoError(t, sharedRouter.err)
	return sharedRouter.router
}

// sharedRouter is openAPIRouter's result.
var sharedRouter struct {
	once   sync.Once
	router routers.Router
	err    error
}

// token mints a token for the given role and environment.
func (h *harness) token(role veriland.Role, env veriland.Environment, sub string, mods ...func(*veriland.Principal)) string {
	h.t.Helper()
	p := veriland.Principal{Subject: sub, Role: role, Env: env, Account: "acct_test"}
	for _, m := range mods {
		m(&p)
	}
	tok, _, err := h.tokens.Mint(p, time.Hour)
	require.NoError(h.t, err)
	return tok
}

// response is a finished exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), string(r.body))
	return m
}

// members lists the members of a JSON object, sorted.
func members(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// errorPointers lists the JSON pointers of an error document, in order.
func errorPointers(t testing.TB, r response) []string {
	t.Helper()
	var out []string
	for _, e := range r.json(t)["errors"].([]any) {
		src, _ := e.(map[string]any)["source"].(map[string]any)
		p, _ := src["pointer"].(string)
		out = append(out, p)
	}
	return out
}

// errorCode returns the code of the first error object.
func (r response) errorCode(t testing.TB) string {
	t.Helper()
	errs, _ := r.json(t)["errors"].([]any)
	require.NotEmpty(t, errs, string(r.body))
	return errs[0].(map[string]any)["code"].(string)
}

// request is one call; body may be a string (sent as is), []byte, or a value to
// encode as JSON.
type request struct {
	method, path, token string
	body                any
	header              map[string]string
	skipSpec            bool // the exchange is deliberately outside the document
}

func (h *harness) do(req request) response {
	h.t.Helper()
	var body []byte
	switch b := req.body.(type) {
	case nil:
	case string:
		body = []byte(b)
	case []byte:
		body = b
	default:
		var err error
		body, err = json.Marshal(b)
		require.NoError(h.t, err)
	}
	hr, err := http.NewRequest(req.method, h.ts.URL+req.path, bytes.NewReader(body))
	require.NoError(h.t, err)
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if req.token != "" {
		hr.Header.Set("Authorization", "Bearer "+req.token)
	}
	for k, v := range req.header {
		hr.Header.Set(k, v)
	}
	resp, err := h.ts.Client().Do(hr)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err)
	r := response{status: resp.StatusCode, header: resp.Header, body: out}
	require.NotEmpty(h.t, r.header.Get("X-Request-Id"))
	require.NotEqual(h.t, http.StatusInternalServerError, r.status, "500: %s", out)
	if !req.skipSpec && !h.skipSpecChecks {
		h.checkSpec(hr, body, r)
	}
	return r
}

// checkSpec validates a request and its response against the OpenAPI document.
func (h *harness) checkSpec(hr *http.Request, body []byte, r response) {
	h.t.Helper()
	route, params, err := h.router.FindRoute(hr)
	if err != nil {
		return // unknown routes are tested elsewhere (404/405)
	}
	hr.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{
		Request: hr, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if r.status < 400 {
		require.NoError(h.t, openapi3filter.ValidateRequest(context.Background(), in), "request %s %s does not match the OpenAPI document", hr.Method, hr.URL.Path)
	}
	ct := r.header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/plain") {
		return
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: r.status, Header: r.header,
		Body: io.NopCloser(bytes.NewReader(r.body)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	require.NoError(h.t, openapi3filter.ValidateResponse(context.Background(), out),
		"response %d to %s %s does not match the OpenAPI document: %s", r.status, hr.Method, hr.URL.Path, r.body)
	h.checkErrorCodes(route, r)
}
