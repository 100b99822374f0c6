package httpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus collectors, in a registry of its own (no
// global state, so several servers can live in one process).
type metrics struct {
	registry      *prometheus.Registry
	requests      *prometheus.CounterVec
	latency       *prometheus.HistogramVec
	verifications *prometheus.CounterVec

	mu     sync.Mutex
	gauges []*cachedGauge // refreshed by refresh, never by a scrape
	// refreshers run at each refresh too, for labelled gauges.
	refreshers []func(ctx context.Context)

	chainJobsOnce sync.Once
	chainJobs     *chainJobMetrics
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "veriland_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "veriland_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method"}),
		verifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "veriland_verifications_total",
			Help: "Verification outcomes by kind (consent, liveness, chip, siwe) and outcome.",
		}, []string{"kind", "outcome"}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.verifications,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe counts one request. method is bounded by methodLabel, so a client cannot
// create series with made-up methods; route must come from a fixed set (a registered
// pattern or "unmatched").
func (m *metrics) observe(route, method string, status int, d time.Duration) {
	method = methodLabel(method)
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	if d > 0 {
		m.latency.WithLabelValues(route, method).Observe(d.Seconds())
	}
}

// methodLabel is the method label of a request: one of the methods of RFC 9110
// (and PATCH), or "OTHER" for anything else, so that the number of series stays
// bounded whatever methods clients make up.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// routeMetrics are one route's collectors, looked up once at registration rather than
// by label values on every request: the counter of each status is created on its
// first use and then loaded from an array, without hashing or allocating.
type routeMetrics struct {
	latency  prometheus.Observer
	byStatus [statusSlots]atomic.Pointer[prometheus.Counter]
	counter  func(status int) prometheus.Counter // the counter vector's child for status
}

// statusSlots covers the statuses 100..599 that net/http lets a handler write.
const statusSlots = 500

func (m *metrics) forRoute(route, method string) *routeMetrics {
	return &routeMetrics{
		latency: m.latency.WithLabelValues(route, method),
		counter: func(status int) prometheus.Counter {
			return m.requests.WithLabelValues(route, method, strconv.Itoa(status))
		},
	}
}

// requests is the request counter of status.
func (rm *routeMetrics) requests(status int) prometheus.Counter {
	i := status - 100
	if i < 0 || i >= statusSlots {
		return rm.counter(status)
	}
	if c := rm.byStatus[i].Load(); c != nil {
		return *c
	}
	c := rm.counter(status) // the vector returns the same child to racing callers
	rm.byStatus[i].Store(&c)
	return c
}

func (rm *routeMetrics) observe(status int, d time.Duration) {
	rm.requests(status).Inc()
	rm.latency.Observe(d.Seconds())
}

// verification counts one verification outcome.
func (m *metrics) verification(kind, outcome string) {
	m.verifications.WithLabelValues(kind, outcome).Inc()
}

// cachedGauge is a gauge whose value is costly to compute (a storage scan): refresh
// computes it off the scrape path and a scrape only loads the last value.
type cachedGauge struct {
	bits    atomic.Uint64 // math.Float64bits of the last value
	compute func(ctx context.Context) (float64, error)
}

// cachedGauge registers a gauge computed by compute at each refresh (at once, and
// then by Run every few seconds), never at scrape time. A failed computation sets
// -1; a cancelled one keeps the last value.
func (m *metrics) cachedGauge(name, help string, compute func(ctx context.Context) (float64, error)) {
	g := &cachedGauge{compute: compute}
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
		return math.Float64frombits(g.bits.Load())
	}))
	m.mu.Lock()
	m.gauges = append(m.gauges, g)
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	g.refresh(ctx)
}

func (g *cachedGauge) refresh(ctx context.Context) {
	v, err := g.compute(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		v = -1
	}
	g.bits.Store(math.Float64bits(v))
}

// refresh recomputes every cached gauge.
func (m *metrics) refresh(ctx context.Context) {
	m.mu.Lock()
	gauges := append([]*cachedGauge(nil), m.gauges...)
	refreshers := slices.Clone(m.refreshers)
	m.mu.Unlock()
	for _, g := range gauges {
		g.refresh(ctx)
	}
	for _, r := range refreshers {
		r(ctx)
	}
}

// handler serves the registry. With a non-empty token it requires
// "Authorization: Bearer <token>", compared in constant time, and answers 401
// otherwise.
func (m *metrics) handler(token string, writeError func(http.ResponseWriter, *http.Request, error)) http.Handler {
	h := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := sha256.Sum256([]byte(token)) // hashed so that the comparison leaks no length
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := auth.BearerToken(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeError(w, r, veriland.Errorf(veriland.CodeUnauthenticated, "GET /metrics requires the metrics bearer token"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// leaderGauge registers the gauge name: 1 while leading is true (this replica holds
// a lease and runs what it guards), 0 on a standby.
func (m *metrics) leaderGauge(name, help string, leading *atomic.Bool) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
		if leading.Load() {
			return 1
		}
		return 0
	}))
}
