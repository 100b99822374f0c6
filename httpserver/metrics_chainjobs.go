package httpserver

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/veriland/veriland/storage/chainjob"
)

// chainJobMetrics are the chain-job worker's series: veriland_chain_jobs (queued
// jobs per environment and kind, refreshed by Run every few seconds, never by a
// scrape), veriland_chain_jobs_total (handler calls per kind and outcome) and
// veriland_chain_job_duration_seconds (their duration per kind).
type chainJobMetrics struct {
	queued   *prometheus.GaugeVec
	outcomes *prometheus.CounterVec
	took     *prometheus.HistogramVec
}

func (m *metrics) chainJobSeries() *chainJobMetrics {
	m.chainJobsOnce.Do(func() {
		c := &chainJobMetrics{
			queued: prometheus.NewGaugeVec(prometheus.GaugeOpts{
				Name: "veriland_chain_jobs",
				Help: "Chain jobs (anchors, land-title mints and burns) waiting in the queue, by environment and kind (refreshed every 5 s).",
			}, []string{"env", "kind"}),
			outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "veriland_chain_jobs_total",
				Help: "Chain jobs run by this replica, by kind and outcome (done, retry, failed, disabled).",
			}, []string{"kind", "outcome"}),
			took: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "veriland_chain_job_duration_seconds",
				Help:    "Duration of one chain job (reading the chain, sending, waiting for the receipt), by kind.",
				Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
			}, []string{"kind"}),
		}
		m.registry.MustRegister(c.queued, c.outcomes, c.took)
		m.chainJobs = c
	})
	return m.chainJobs
}

// observeChainJob is the chain-job queue's Observe hook.
func (m *metrics) observeChainJob(kind, outcome string, took time.Duration) {
	c := m.chainJobSeries()
	c.outcomes.WithLabelValues(kind, outcome).Inc()
	c.took.WithLabelValues(kind).Observe(took.Seconds())
}

// chainJobGauges registers veriland_chain_jobs for q's kinds, refreshed with the
// other cached gauges.
func (m *metrics) chainJobGauges(q *chainjob.Queue) {
	c := m.chainJobSeries()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refreshers = append(m.refreshers, func(ctx context.Context) {
		counts, err := q.Counts(ctx)
		if err != nil {
			return
		}
		for env, kinds := range counts {
			for _, kind := range q.Kinds() {
				c.queued.WithLabelValues(string(env), kind).Set(float64(kinds[kind]))
			}
		}
	})
}
