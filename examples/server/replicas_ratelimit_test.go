package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/veriland/veriland/httpserver/ratelimit"
)

// rateProbe is one client's burst of requests spread over replicas that enforce the
// rate limits, set against the policy that applies to it.
type rateProbe struct {
	policy          ratelimit.Policy
	route           string
	sent, allowed   int
	throttled       int
	other           []string // answers neither allowed (2xx) nor 429
	elapsed         time.Duration
	perReplica      map[string]int // allowed answers by replica
	ceiling, spread int            // most the policy allows in elapsed; what per-replica limits would allow
}

// bounds checks the allowance against the policy: at least Burst (an idle key starts
// full), at most Burst plus what the rate refills during the probe (one more for the
// rounding of GCRA's arrival times); not the three allowances three independent
// replicas would give.
func (p *rateProbe) bounds() error {
	switch {
	case len(p.other) > 0:
		return fmt.Errorf("%s: unexpected answers: %v", p.route, p.other)
	case p.allowed < p.policy.Burst:
		return fmt.Errorf("%s: %d allowed, fewer than the policy's burst %d", p.route, p.allowed, p.policy.Burst)
	case p.allowed > p.ceiling:
		return fmt.Errorf("%s: %d allowed in %s, more than policy %s allows (%d): the limit is not global",
			p.route, p.allowed, p.elapsed.Round(time.Millisecond), describePolicy(p.policy), p.ceiling)
	case p.throttled == 0:
		return fmt.Errorf("%s: nothing was throttled", p.route)
	}
	return nil
}

func describePolicy(p ratelimit.Policy) string {
	return fmt.Sprintf("%s %d/%s burst %d", p.Name, p.Limit, p.Window, p.Burst)
}

// probeRate sends n requests from one client (one token, or one source address)
// as fast as 8 connections allow, in turn to each replica, and counts what passed.
func probeRate(ctx context.Context, policy ratelimit.Policy, source net.IP, bases, names []string, cl call, n int) *rateProbe {
	tr := &traffic{}
	c := newClient(-1, source, bases, names, tr)
	defer c.close()
	p := &rateProbe{policy: policy, route: cl.method + " " + cl.path, sent: n, perReplica: map[string]int{}}
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range 8 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				a, err := c.send(ctx, i%len(bases), cl)
				mu.Lock()
				switch {
				case err != nil:
					p.other = append(p.other, err.Error())
				case a.status == http.StatusTooManyRequests:
					p.throttled++
				case a.status >= 200 && a.status < 300:
					p.allowed++
					p.perReplica[a.replica]++
				default:
					p.other = append(p.other, a.String())
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	interval := policy.Window / time.Duration(policy.Limit)
	p.ceiling = policy.Burst + int(p.elapsed/interval) + 1
	p.spread = min(n, len(bases)*p.ceiling)
	return p
}
