package httpserver

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
)

// requestSeries returns the veriland_http_requests_total series of a scrape.
func requestSeries(body string) []string {
	var out []string
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, "veriland_http_requests_total{") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// TestMetricsCardinality checks that made-up methods and unknown paths do not each
// create a series: the method label is one of the standard methods or OTHER, and every
// unmatched request shares the route label "unmatched".
func TestMetricsCardinality(t *testing.T) {
	h := newHarness(t)
	const n = 60
	for i := range n {
		r := h.do(request{method: fmt.Sprintf("FOO%d", i), path: fmt.Sprintf("/made-up/%d", i), skipSpec: true})
		require.Equal(t, 404, r.status)
		r = h.do(request{method: fmt.Sprintf("BAR%d", i), path: "/v1/health", skipSpec: true})
		require.Contains(t, []int{404, 405}, r.status)
		r = h.do(request{method: "GET", path: fmt.Sprintf("/nowhere-%d", i), skipSpec: true})
		require.Equal(t, 404, r.status)
	}
	m := h.do(request{method: "GET", path: "/metrics"})
	require.Equal(t, 200, m.status)
	series := requestSeries(string(m.body))
	require.LessOrEqual(t, len(series), 6, "series: %v", series)
	for _, s := range series {
		require.NotContains(t, s, "FOO")
		require.NotContains(t, s, "BAR")
		require.NotContains(t, s, "made-up")
		require.NotContains(t, s, "nowhere")
	}
	require.Contains(t, string(m.body), fmt.Sprintf(`veriland_http_requests_total{method="OTHER",route="unmatched",status="404"} %d`, n))
	require.Contains(t, string(m.body), fmt.Sprintf(`veriland_http_requests_total{method="GET",route="unmatched",status="404"} %d`, n))
}

func TestMetricsMethodLabel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GET", "GET"}, {"HEAD", "HEAD"}, {"POST", "POST"}, {"PUT", "PUT"}, {"PATCH", "PATCH"},
		{"DELETE", "DELETE"}, {"OPTIONS", "OPTIONS"}, {"CONNECT", "CONNECT"}, {"TRACE", "TRACE"},
		{"get", "OTHER"}, {"FOO", "OTHER"}, {"", "OTHER"}, {strings.Repeat("X", 5000), "OTHER"},
	} {
		require.Equal(t, tc.want, methodLabel(tc.in), "%q", tc.in)
	}
}

// countingStore counts the read transactions opened on a store.
type countingStore struct {
	storage.Store
	views atomic.Int64
}

func (c *countingStore) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	c.views.Add(1)
	return c.Store.View(ctx, fn)
}

// TestMetricsScrapeDoesNotScanQueue checks that the webhook queue depth is a cheap
// gauge: a scrape opens no storage transaction, however often it is made.
func TestMetricsScrapeDoesNotScanQueue(t *testing.T) {
	var cs *countingStore
	h := newHarness(t, func(c *Config) {
		cs = &countingStore{Store: c.Store}
		c.Store = cs
	})
	require.NotNil(t, h.srv.cfg.Outbox)
	before := cs.views.Load()
	for range 20 {
		m := h.do(request{method: "GET", path: "/metrics"})
		require.Equal(t, 200, m.status)
		require.Contains(t, string(m.body), "veriland_webhook_queue_depth 0")
	}
	require.Equal(t, before, cs.views.Load(), "a scrape read the store")
	// The periodic refresh (Run's sweep) is what reads the queue.
	require.NoError(t, cs.Update(t.Context(), func(tx storage.Tx) error {
		_, err := h.srv.cfg.Outbox.Enqueue(t.Context(), tx, veriland.Sandbox, webhook.Event{
			Type: "verification.approved", Verifier: "verifier-1", Account: "acct_1",
			CallbackURL: "https://verifier.example/cb",
			Data:        map[string]any{"requestId": "vrq_1", "status": "APPROVED"},
		})
		return err
	}))
	m := h.do(request{method: "GET", path: "/metrics"})
	require.Contains(t, string(m.body), "veriland_webhook_queue_depth 0", "not refreshed yet")
	h.srv.sweep(t.Context())
	require.Greater(t, cs.views.Load(), before)
	m = h.do(request{method: "GET", path: "/metrics"})
	require.Contains(t, string(m.body), "veriland_webhook_queue_depth 1")
}

// TestMetricsToken checks the optional bearer token of GET /metrics.
func TestMetricsToken(t *testing.T) {
	const secret = "metrics-token-0123456789"
	h := newHarness(t, func(c *Config) { c.MetricsToken = secret })
	for _, tc := range []struct {
		name, header string
		status       int
	}{
		{"no token", "", 401},
		{"wrong token", "Bearer metrics-token-0123456788", 401},
		{"prefix of token", "Bearer metrics-token", 401},
		{"token as basic", "Basic " + secret, 401},
		{"right token", "Bearer " + secret, 200},
		{"right token, lower-case scheme", "bearer " + secret, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request{method: "GET", path: "/metrics"}
			if tc.header != "" {
				req.header = map[string]string{"Authorization": tc.header}
			}
			r := h.do(req)
			require.Equal(t, tc.status, r.status, "%s", r.body)
			if tc.status == 200 {
				require.Contains(t, string(r.body), "veriland_http_requests_total")
			} else {
				require.NotContains(t, string(r.body), "veriland_http_requests_total")
			}
		})
	}
	// Without a configured token the endpoint stays public.
	open := newHarness(t)
	require.Equal(t, 200, open.do(request{method: "GET", path: "/metrics"}).status)
}
