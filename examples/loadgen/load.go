package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxBody is the most of a response body the generator reads.
const maxBody = 1 << 20

// loader holds the HTTP client of one run. The client only ever dials -addr: no
// proxy from the environment, no redirects followed.
type loader struct {
	o      *options
	bases  []string      // the -addr URLs, requests spread round-robin over them
	next   atomic.Uint64 // the round-robin counter
	hc     *http.Client
	stderr io.Writer
}

func newLoader(o *options, stderr io.Writer) *loader {
	tr := &http.Transport{
		Proxy:               nil, // never through HTTP_PROXY: only -addr is dialled
		MaxIdleConns:        o.c + 8,
		MaxIdleConnsPerHost: o.c + 8,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	bases := make([]string, len(o.addrs))
	for i, u := range o.addrs {
		bases[i] = strings.TrimRight(u.String(), "/")
	}
	return &loader{
		o:      o,
		bases:  bases,
		stderr: stderr,
		hc: &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// call is one HTTP exchange.
type call struct {
	method, path, token string
	header              map[string]string
	body                []byte
}

type answer struct {
	status int
	body   []byte
}

func (l *loader) do(ctx context.Context, c call) (answer, error) {
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
	}
	base := l.bases[(l.next.Add(1)-1)%uint64(len(l.bases))] // each request to the next replica
	req, err := http.NewRequestWithContext(ctx, c.method, base+c.path, body)
	if err != nil {
		return answer{}, err
	}
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return answer{status: resp.StatusCode}, err
	}
	return answer{status: resp.StatusCode, body: out}, nil
}

// outcome is what one timed operation reports: every HTTP status it received and
// an error when it did not get the answer it expected.
type outcome struct {
	statuses []int
	err      error
}

// measure runs op(i) for i in [0, n) on c workers, until all are done or the cap
// expires; operations cut short by the cap or by ctx are not counted.
func (l *loader) measure(ctx context.Context, scenario string, n int, op func(ctx context.Context, i int) outcome) *report {
	ctx, cancel := context.WithTimeout(ctx, l.o.duration)
	defer cancel()
	workers := min(l.o.c, n)
	type sample struct {
		lat      []time.Duration
		statuses map[int]int
		errors   int
		firstErr error
	}
	samples := make([]sample, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	start, cpu := time.Now(), processCPU()
	for w := range workers {
		wg.Go(func() {
			s := &samples[w]
			s.statuses = map[int]int{}
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				t0 := time.Now()
				out := op(ctx, i)
				d := time.Since(t0)
				if out.err != nil && ctx.Err() != nil {
					return // cut short by the cap or by the caller: not a sample
				}
				s.lat = append(s.lat, d)
				for _, st := range out.statuses {
					s.statuses[st]++
				}
				if out.err != nil {
					s.errors++
					if s.firstErr == nil {
						s.firstErr = out.err
					}
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if cpu > 0 {
		cpu = processCPU() - cpu
	}

	rep := &report{Scenario: scenario, Concurrency: workers, StatusCounts: map[string]int{}, Seconds: elapsed.Seconds(),
		CPUSeconds: round3(cpu.Seconds())}
	var lat []time.Duration
	for _, s := range samples {
		lat = append(lat, s.lat...)
		rep.Errors += s.errors
		for st, k := range s.statuses {
			rep.StatusCounts[strconv.Itoa(st)] += k
			if st == http.StatusTooManyRequests {
				rep.RateLimited += k
			}
		}
		if s.firstErr != nil && rep.FirstError == "" {
			rep.FirstError = s.firstErr.Error()
		}
	}
	rep.Requests = len(lat)
	rep.StoppedAtCap = rep.Requests < n
	if elapsed > 0 {
		rep.PerSecond = round2(float64(rep.Requests-rep.Errors) / elapsed.Seconds())
	}
	rep.Seconds = round3(rep.Seconds)
	slices.Sort(lat)
	rep.P50Ms, rep.P90Ms, rep.P99Ms = pct(lat, 50), pct(lat, 90), pct(lat, 99)
	if len(lat) > 0 {
		rep.MaxMs = ms(lat[len(lat)-1])
	}
	return rep
}

// pct is the nearest-rank percentile of sorted latencies, in milliseconds.
func pct(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 × len)
	return ms(sorted[max(rank, 1)-1])
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }
func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// report is the result of the timed phase. perSecond counts the requests that got the
// expected answer; the latencies are over every completed request.
type report struct {
	Scenario     string         `json:"scenario"`
	Requests     int            `json:"requests"`
	Errors       int            `json:"errors"`
	Seconds      float64        `json:"seconds"`
	PerSecond    float64        `json:"perSecond"`
	P50Ms        float64        `json:"p50Ms"`
	P90Ms        float64        `json:"p90Ms"`
	P99Ms        float64        `json:"p99Ms"`
	MaxMs        float64        `json:"maxMs"`
	StatusCounts map[string]int `json:"statusCounts"`
	Concurrency  int            `json:"concurrency"`
	RateLimited  int            `json:"rateLimited"`
	StoppedAtCap bool           `json:"stoppedAtCap"`
	FirstError   string         `json:"firstError,omitempty"`
	// CPUSeconds is the load generator's own CPU (user + system) in the timed phase,
	// so that a benchmark on the server's machine can tell the server's share; 0, and
	// omitted, where the system does not report it.
	CPUSeconds float64 `json:"cpuSeconds,omitempty"`
}

func (r *report) write(w io.Writer) {
	unit := map[string]string{"health": "req/s", "consent": "approvals/s", "siwe": "logins/s"}[r.Scenario]
	fmt.Fprintf(w, "scenario %s: %d requests, %d errors in %.3fs with %d workers\n", r.Scenario, r.Requests, r.Errors, r.Seconds, r.Concurrency)
	fmt.Fprintf(w, "  %.1f %s   latency p50 %.2fms  p90 %.2fms  p99 %.2fms  max %.2fms\n", r.PerSecond, unit, r.P50Ms, r.P90Ms, r.P99Ms, r.MaxMs)
	keys := make([]string, 0, len(r.StatusCounts))
	for k := range r.StatusCounts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, r.StatusCounts[k])
	}
	fmt.Fprintf(w, "  statuses: %s\n", strings.Join(parts, " "))
	if r.StoppedAtCap {
		fmt.Fprintln(w, "  stopped at the -duration cap before all requests were made")
	}
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstError)
	}
	if r.RateLimited > 0 {
		fmt.Fprintf(w, "  WARNING: %d responses were 429 (rate limited): run the server with -rate-limit off\n", r.RateLimited)
	}
}

// parallel runs f(i) for i in [0, n) on c workers and returns the first error; it
// stops handing out work after one (setup, not timed).
func parallel(ctx context.Context, n, c int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(c, n) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx) // nil when every call succeeded
}

// statusError describes an unexpected answer, pointing at the rate limit on 429.
func statusError(what string, a answer, want int) error {
	if a.status == http.StatusTooManyRequests {
		return fmt.Errorf("%s: 429 Too Many Requests: the server's rate limit is on; restart it with -rate-limit off", what)
	}
	body := strings.TrimSpace(string(a.body))
	if len(body) > 300 {
		body = body[:300] + "…"
	}
	return fmt.Errorf("%s: status %d, want %d: %s", what, a.status, want, body)
}
