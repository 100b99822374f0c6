// Command httpload is the HTTP load client of scripts/bench.sh when wrk is not
// installed: -c keep-alive connections each send GET -url back to back for
// -duration (after -warmup, not counted), and it prints one JSON object with the
// successful requests per second and latency percentiles. Every HTTP row of the
// bench table uses the same client with the same flags, so the server is the only
// difference between a route and its anchor. Like examples/loadgen it only dials
// loopback addresses.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// result is what httpload prints.
type result struct {
	URL       string  `json:"url"`
	Requests  int     `json:"requests"`
	Errors    int     `json:"errors"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"perSecond"`
	P50Ms     float64 `json:"p50Ms"`
	P99Ms     float64 `json:"p99Ms"`
}

func main() {
	target := flag.String("url", "", "URL to GET (loopback host only)")
	conns := flag.Int("c", 32, "concurrent connections (1..1024)")
	duration := flag.Duration("duration", 5*time.Second, "measured time (at most 10m)")
	warmup := flag.Duration("warmup", time.Second, "unmeasured time before it")
	flag.Parse()
	if err := checkTarget(*target); err != nil {
		fmt.Fprintln(os.Stderr, "httpload: -url:", err)
		os.Exit(2)
	}
	if *conns < 1 || *conns > 1024 || *duration <= 0 || *duration > 10*time.Minute || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "httpload: -c must be 1..1024, -duration in (0, 10m], -warmup ≥ 0")
		os.Exit(2)
	}
	res := run(*target, *conns, *warmup, *duration)
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "httpload:", err)
		os.Exit(1)
	}
	if res.Errors > 0 || res.Requests == 0 {
		fmt.Fprintf(os.Stderr, "httpload: %d of %d requests failed\n", res.Errors, res.Requests)
		os.Exit(1)
	}
}

// checkTarget accepts only http(s) URLs on localhost or a loopback IP.
func checkTarget(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("host %s is not a loopback address", host)
}

// run loads target with conns workers: warmup first, then duration measured.
func run(target string, conns int, warmup, duration time.Duration) result {
	client := &http.Client{Transport: &http.Transport{
		Proxy: nil, MaxIdleConns: conns, MaxIdleConnsPerHost: conns, DisableCompression: true,
	}}
	start := time.Now()
	measureFrom, end := start.Add(warmup), start.Add(warmup+duration)
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	var mu sync.Mutex
	var latencies []time.Duration
	errors := 0
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for {
				t := time.Now()
				ok := get(ctx, client, target)
				done := time.Now()
				if done.After(end) {
					break // cut by the deadline: not counted
				}
				if t.Before(measureFrom) {
					continue
				}
				if !ok {
					bad++
					continue
				}
				mine = append(mine, done.Sub(t))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			errors += bad
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(latencies)
	secs := duration.Seconds()
	return result{URL: target, Requests: len(latencies) + errors, Errors: errors, Seconds: secs,
		PerSecond: float64(len(latencies)) / secs,
		P50Ms:     percentile(latencies, 50), P99Ms: percentile(latencies, 99)}
}

// get sends one GET and reads the whole body; only a 200 counts as success.
func get(ctx context.Context, client *http.Client, target string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err == nil && resp.StatusCode == http.StatusOK
}

// percentile is the nearest-rank p-th percentile of sorted, in milliseconds.
func percentile(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 × n)
	return float64(sorted[max(rank, 1)-1].Microseconds()) / 1000
}
