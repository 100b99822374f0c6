package httpserver

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/idempotency"
	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/parcel"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/chainjob"
	"github.com/veriland/veriland/storage/fieldcrypt"
	"github.com/veriland/veriland/storage/lease"

	"github.com/prometheus/client_golang/prometheus"
)

// Config wires a Server. Store and Tokens are required; everything else has a
// default.
type Config struct {
	Store   storage.Store
	Tokens  *auth.Tokens
	Logger  *slog.Logger
	Now     func() time.Time
	Rand    io.Reader
	Version string

	// PublicOrigin is the scheme://host[:port] clients reach the server at, used in
	// links (consent URLs) and to check SIWE messages.
	PublicOrigin string
	// ChainID is the EIP-712 chainId of every signing domain (default 1).
	ChainID uint64
	// TrustForwardedFor takes the client IP (rate limits, coalesced audit entries) from
	// X-Forwarded-For, read from the right: the rightmost address that is not one of
	// TrustedProxies (with none: the rightmost, for exactly one proxy in front). Set
	// it only behind proxies that append to the header; replicas behind a load
	// balancer need it, or every client shares the balancer's per-IP limit.
	TrustForwardedFor bool
	// TrustedProxies are the proxies whose X-Forwarded-For entries are skipped, for
	// several hops of proxies; with any set, a request whose peer is not one of them
	// is keyed on its peer address.
	TrustedProxies []netip.Prefix
	// MetricsToken, when set, protects GET /metrics: a scrape must send
	// "Authorization: Bearer <MetricsToken>" (compared in constant time) or gets 401.
	// Empty leaves the endpoint public.
	MetricsToken string
	// MetricsCollectors are registered with the server's own Prometheus registry and
	// served at GET /metrics beside its collectors: the reference server adds the
	// PostgreSQL store's transaction and retry counters. Names must not collide with
	// the server's (veriland_http_*, veriland_verifications_total,
	// veriland_webhook_queue_depth, veriland_anchoring_leader, go_*, process_*).
	MetricsCollectors []prometheus.Collector
	// RateLimits configures per-wallet, per-key and per-IP limits (SPEC S2.5, S15).
	RateLimits RateLimits
	// Fields encrypts personal data at rest (storage/fieldcrypt): the responses the
	// idempotency store keeps for replay (SPEC S2.4), and the records of services that
	// hold personal data (parcel owner names, SPEC S9). nil stores responses in clear.
	Fields *fieldcrypt.Keyring
	// IdempotencyFingerprintKey keys the idempotency store's request fingerprints
	// (HMAC-SHA256), so that the fingerprint of a request that held personal data
	// cannot confirm a guess. WithDefaultServices derives it from Keys.Pepper; nil
	// fingerprints with plain SHA-256.
	IdempotencyFingerprintKey []byte

	// Domain services. A route family is registered when its service is set; New
	// installs hooks that write audit entries and webhook outbox records on services
	// whose hooks are unset.
	Identity     *identity.Service
	SIWE         *siwe.Service
	Attestations *attestation.Service
	Liveness     *liveness.Service
	Consent      *consent.Service
	ChipBinding  *binding.Service
	// Parcels is the land parcel registry (SPEC S9): its routes under /v1/parcels,
	// /v1/transfers, /v1/registry and /v1/tokens.
	Parcels *parcel.Service
	// Assistant is the multilingual assistant (SPEC S11): its routes under
	// /v1/assistant.
	Assistant *assistant.Service
	// Sandbox seeds each account's SANDBOX on its first authenticated request and
	// serves /v1/sandbox (SPEC S10); nil: no seeding and no sandbox routes.
	Sandbox *sandbox.Seeder

	// Webhooks: the durable outbox of verifier callbacks, the per-verifier secrets
	// that sign them, and the inbound provider events.
	Outbox           *webhook.Outbox
	WebhookSecrets   *webhook.SecretStore
	Inbox            *webhook.Inbox
	WebhookProviders webhook.Providers

	// ChainJobs tunes the one chain-job worker (storage/chainjob) that sends every
	// transaction: attestation and revocation anchors, land-title mints and burns.
	// Its Fence is set to the anchoring lease when left nil.
	ChainJobs chainjob.Policy
	// SandboxChain is a JSON-RPC client of the SANDBOX chain (for the in-process
	// simulated chain: its node's in-process client). When set, POST
	// /v1/sandbox/chain serves it read-only to anyone, so that wallets and scripts can
	// read the sandbox's land titles. nil: the route is not registered.
	SandboxChain *rpc.Client
	// FreshChains are the environments whose chain starts empty with the process
	// (an in-process simulated chain): when this replica becomes the anchoring leader,
	// the environment's current land titles are minted again on its chain
	// (parcel.Service.StartTitles with fresh). Other environments only get their
	// pre-chain tokens queued.
	FreshChains []veriland.Environment

	// ReplicaID names this process among the replicas that share Store, in the
	// anchoring lease that lets one replica at a time anchor (Run). Empty: a random id
	// per process. Two replicas given the same id still never lead together.
	ReplicaID string
}

// Server is veriland's HTTP API: an http.Handler with the documented routes.
type Server struct {
	cfg     Config
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler
	routes  []route
	metrics *metrics

	auditLog    *audit.Log
	coalescer   *audit.Coalescer
	limiter     *ratelimit.Limiter
	idempotency func(http.Handler) http.Handler
	// idempotencyStore keeps the Idempotency-Key records that Run prunes.
	idempotencyStore *idempotency.Store
	// lastPrune is when Run last deleted expired records (Run's goroutine only).
	lastPrune time.Time
	// healthOK and healthDown are GET /v1/health's two possible bodies: its checks
	// besides storage (anchor, webhooks) report the configuration, which is fixed once
	// New returns, so the bodies are encoded once (healthBodies).
	healthOK, healthDown []byte
	// probeDeadline bounds the health probes (healthTimeout).
	probeDeadline sharedDeadline
	// sealLease elects the one replica that seals journaled audit entries while the
	// replicas run (runSealing).
	sealLease *lease.Lease
	// sealLeading is true while this replica seals (veriland_audit_sealing_leader).
	sealLeading atomic.Bool
	// anchorLease elects the one replica that runs the anchoring workers (nil: no
	// anchoring service).
	anchorLease *lease.Lease
	// anchorLeading is true while this replica runs the anchoring workers
	// (veriland_anchoring_leader).
	anchorLeading atomic.Bool
	// chainJobs is the one queue of chain work, run by the anchoring leader.
	chainJobs *chainjob.Queue
}

// New builds a Server from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("httpserver: Config.Store is required")
	}
	if cfg.Tokens == nil {
		return nil, errors.New("httpserver: Config.Tokens is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if cfg.ChainID == 0 {
		cfg.ChainID = 1
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	cfg.RateLimits = cfg.RateLimits.withDefaults()
	s := &Server{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(), metrics: newMetrics()}
	for _, c := range cfg.MetricsCollectors {
		if err := s.metrics.registry.Register(c); err != nil {
			return nil, fmt.Errorf("httpserver: Config.MetricsCollectors: %w", err)
		}
	}
	if err := s.setup(); err != nil {
		return nil, err
	}
	s.installHooks()
	s.registerRoutes()
	s.mux.Handle("/", http.HandlerFunc(s.unmatched))
	s.handler = withRequestID(s.withRecovery(s.mux))
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Routes lists the registered routes as "METHOD /path" patterns.
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range s.routes {
		if len(rt.documents) == 0 {
			out = append(out, rt.method+" "+rt.path)
		}
		for _, p := range rt.documents {
			out = append(out, rt.method+" "+p)
		}
	}
	slices.Sort(out)
	return out
}

// handlerFunc is a route handler; a returned error is written as an error document.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// route is one registered route and the checks that run before its handler.
type route struct {
	method    string
	path      string
	roles     []veriland.Role // empty: public
	bodyLimit int64           // 0: limitJSON
	media     string          // request content type; "" for JSON, "-" for none
	rate      rateGroup
	handle    handlerFunc
	// documents lists the documented paths this registration serves when one mux
	// pattern must serve several (net/http refuses overlapping patterns); empty means
	// path itself.
	documents []string
	// optionalBody accepts a request with no body and no Content-Type (the route's
	// members are all optional); a body that is sent must still be of type media.
	optionalBody bool
	// ownAuth skips bearer-JWT authentication: the handler checks the Authorization
	// header itself (GET /metrics with Config.MetricsToken). roles must be empty.
	ownAuth bool
}

func (s *Server) add(rt route) {
	if rt.bodyLimit == 0 {
		rt.bodyLimit = limitJSON
	}
	if rt.media == "" {
		rt.media = mediaJSON
	}
	s.routes = append(s.routes, rt)
	pattern := rt.method + " " + rt.path
	s.mux.Handle(pattern, s.withObservation(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.serveRoute(rt, w, r); err != nil {
			s.writeError(w, r, err)
		}
	})))
}

// serveRoute runs the checks every route shares, in order: body limit, content type,
// authentication and role, rate limit, idempotency, then the handler.
func (s *Server) serveRoute(rt route, w http.ResponseWriter, r *http.Request) error {
	if r.Body != http.NoBody { // nothing to limit, and no reader to allocate
		r.Body = http.MaxBytesReader(w, r.Body, rt.bodyLimit)
	}
	if r.ContentLength > rt.bodyLimit {
		return &http.MaxBytesError{Limit: rt.bodyLimit}
	}
	if hasBody(r) && rt.media != "-" && !(rt.optionalBody && noBody(r)) {
		if err := checkContentType(r, rt.media); err != nil {
			return err
		}
	}
	if !rt.ownAuth {
		ctx, err := s.authenticate(r, rt.roles)
		if err != nil {
			return err
		}
		if ctx != r.Context() { // a public request without a token keeps its request
			r = r.WithContext(ctx)
			s.ensureSandbox(r)
		}
	}
	if err := s.limit(w, r, rt.rate); err != nil {
		return err
	}
	if r.Method == http.MethodPost {
		return s.idempotent(w, r, rt.handle)
	}
	return rt.handle(w, r)
}

// noBody reports whether r came without a Content-Type and without a body: no
// Content-Length or a zero one, or a chunked body that is empty (it then reads the
// body's first byte; a non-empty body is refused with 415 anyway).
func noBody(r *http.Request) bool {
	if r.Header.Get("Content-Type") != "" || r.ContentLength > 0 {
		return false
	}
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return true
	}
	var one [1]byte
	n, _ := io.ReadFull(r.Body, one[:])
	return n == 0
}

func hasBody(r *http.Request) bool {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return true
	}
	return r.ContentLength > 0
}

// authenticate verifies the bearer token, refuses revoked ones, and checks the role.
// Public routes (no roles) accept a request without a token; a token that is sent
// must be valid all the same.
func (s *Server) authenticate(r *http.Request, roles []veriland.Role) (context.Context, error) {
	ctx := r.Context()
	header := r.Header.Get("Authorization")
	if header == "" {
		if len(roles) == 0 {
			return ctx, nil
		}
		return ctx, veriland.Errorf(veriland.CodeUnauthenticated, "an Authorization: Bearer token is required")
	}
	raw, ok := auth.BearerToken(header)
	if !ok {
		s.recordAuthFailure(r, "malformed_authorization")
		return ctx, veriland.Errorf(veriland.CodeUnauthenticated, "the Authorization header must be \"Bearer <token>\"")
	}
	p, err := s.cfg.Tokens.Verify(raw)
	if err != nil {
		s.recordAuthFailure(r, string(veriland.CodeOf(err)))
		return ctx, err
	}
	revoked, err := s.tokenRevoked(r, p)
	if err != nil {
		return ctx, err
	}
	if revoked {
		s.recordAuthFailure(r, "revoked")
		return ctx, veriland.Errorf(veriland.CodeUnauthenticated, "the token has been revoked")
	}
	if len(roles) > 0 && !slices.Contains(roles, p.Role) {
		return ctx, veriland.Errorf(veriland.CodeForbidden, "this route is not open to the %s role", p.Role)
	}
	return veriland.WithPrincipal(ctx, p), nil
}

// principal returns the authenticated principal of a route that requires one.
func principal(r *http.Request) veriland.Principal {
	p, _ := veriland.PrincipalFrom(r.Context())
	return p
}

// unmatched answers requests no route matched: 405 with Allow when the path exists
// under other methods, else 404.
func (s *Server) unmatched(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host, Header: http.Header{}}
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	s.metrics.observe("unmatched", r.Method, map[bool]int{true: 405, false: 404}[len(allow) > 0], 0)
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeError(w, r, veriland.Errorf(veriland.CodeMethodNotAllowed, "%s is not allowed here", r.Method))
		return
	}
	s.writeError(w, r, veriland.Errorf(veriland.CodeNotFound, "no route for %s %s", r.Method, r.URL.Path))
}
