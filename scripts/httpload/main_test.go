package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		out := make([]time.Duration, len(n))
		for i, v := range n {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, c := range []struct {
		sorted []time.Duration
		p      int
		want   float64
	}{
		{nil, 99, 0},
		{ms(7), 50, 7},
		{ms(7), 99, 7},
		{ms(1, 2), 50, 1},
		{ms(1, 2, 3), 50, 2},
		{ms(hundred...), 50, 50},
		{ms(hundred...), 99, 99},
		{ms(hundred...), 100, 100},
	} {
		if got := percentile(c.sorted, c.p); got != c.want {
			t.Errorf("percentile(%d of %d) = %v, want %v", c.p, len(c.sorted), got, c.want)
		}
	}
}

func TestCheckTarget(t *testing.T) {
	for _, c := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080/v1/health", true},
		{"http://localhost:1/", true},
		{"http://[::1]:80/", true},
		{"https://127.0.0.2/x", true},
		{"http://10.0.0.1/", false},
		{"http://example.com/", false},
		{"ftp://127.0.0.1/", false},
		{"127.0.0.1:8080", false},
		{"", false},
	} {
		if err := checkTarget(c.url); (err == nil) != c.ok {
			t.Errorf("checkTarget(%q) = %v, want ok=%v", c.url, err, c.ok)
		}
	}
}

// TestRun counts the successful GETs and the failed ones separately.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		status     int
		wantErrors bool
	}{{http.StatusOK, false}, {http.StatusNotFound, true}} {
		t.Run(fmt.Sprint(c.status), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
			}))
			defer srv.Close()
			res := run(srv.URL, 2, 50*time.Millisecond, 200*time.Millisecond)
			if res.Requests == 0 {
				t.Fatal("no requests measured")
			}
			if c.wantErrors {
				if res.Errors != res.Requests || res.PerSecond != 0 {
					t.Errorf("status %d: %+v, want every request an error", c.status, res)
				}
			} else if res.Errors != 0 || res.PerSecond <= 0 || res.P99Ms < res.P50Ms {
				t.Errorf("status %d: %+v", c.status, res)
			}
		})
	}
}
