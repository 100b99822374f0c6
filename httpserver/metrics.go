package httpserver

import (
	"net/http"
	"strconv"
	"sync"
	"time"

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

func (m *metrics) observe(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	if d > 0 {
		m.latency.WithLabelValues(route, method).Observe(d.Seconds())
	}
}

// routeMetrics are one route's collectors, looked up once at registration rather than
// by label values on every request.
type routeMetrics struct {
	latency  prometheus.Observer
	requests func(status int) prometheus.Counter
}

func (m *metrics) forRoute(route, method string) *routeMetrics {
	var byStatus sync.Map // int → prometheus.Counter
	return &routeMetrics{
		latency: m.latency.WithLabelValues(route, method),
		requests: func(status int) prometheus.Counter {
			if c, ok := byStatus.Load(status); ok {
				return c.(prometheus.Counter)
			}
			c, _ := byStatus.LoadOrStore(status, m.requests.WithLabelValues(route, method, strconv.Itoa(status)))
			return c.(prometheus.Counter)
		},
	}
}

func (rm *routeMetrics) observe(status int, d time.Duration) {
	rm.requests(status).Inc()
	rm.latency.Observe(d.Seconds())
}

// verification counts one verification outcome.
func (m *metrics) verification(kind, outcome string) {
	m.verifications.WithLabelValues(kind, outcome).Inc()
}

// gauge registers a gauge whose value is read from fn at scrape time.
func (m *metrics) gauge(name, help string, fn func() float64) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, fn))
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
