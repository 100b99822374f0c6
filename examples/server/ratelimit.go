package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/ratelimit"
)

// rateLimitUsage is the help text of -rate-limit.
const rateLimitUsage = "rate limiting: on (defaults: holders per wallet 120/1m:30, API keys and other tokens without a wallet per key 100/1s:200, public routes per client IP 600/1m:120), " +
	"off (benchmarks), or comma-separated overrides of those defaults, POLICY=LIMIT/WINDOW:BURST with POLICY wallet, key or ip (e.g. key=50/1s:100,wallet=60/1m:20)"

// parseRateLimits parses the value of -rate-limit: "on", "off", or a comma-separated
// list of POLICY=LIMIT/WINDOW:BURST overrides (POLICY wallet, key or ip; WINDOW a Go
// duration such as 1s or 1m, or a bare unit s, m, h), which leave the other policies
// at their defaults.
func parseRateLimits(v string) (httpserver.RateLimits, error) {
	switch v = strings.TrimSpace(v); v {
	case "on", "":
		return httpserver.RateLimits{}, nil
	case "off":
		return httpserver.RateLimits{Disabled: true}, nil
	}
	var rl httpserver.RateLimits
	seen := map[string]bool{}
	for _, item := range strings.Split(v, ",") {
		name, spec, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return rl, fmt.Errorf("-rate-limit must be on, off or POLICY=LIMIT/WINDOW:BURST,… (wallet, key, ip); got %q", item)
		}
		if seen[name] {
			return rl, fmt.Errorf("-rate-limit: %s is given twice", name)
		}
		seen[name] = true
		p, err := parsePolicy(name, spec)
		if err != nil {
			return rl, err
		}
		switch name {
		case "wallet":
			rl.Wallet = p
		case "key":
			rl.Key = p
		case "ip":
			rl.Public = p
		default:
			return rl, fmt.Errorf("-rate-limit: unknown policy %q (wallet, key or ip)", name)
		}
	}
	return rl, nil
}

// parsePolicy parses LIMIT/WINDOW:BURST, e.g. 100/1s:200.
func parsePolicy(name, spec string) (ratelimit.Policy, error) {
	bad := func(why string) (ratelimit.Policy, error) {
		return ratelimit.Policy{}, fmt.Errorf("-rate-limit %s=%s: %s (want LIMIT/WINDOW:BURST, e.g. 100/1s:200)", name, spec, why)
	}
	rate, burst, ok := strings.Cut(spec, ":")
	if !ok {
		return bad("the burst is missing")
	}
	limit, window, ok := strings.Cut(rate, "/")
	if !ok {
		return bad("the window is missing")
	}
	p := ratelimit.Policy{Name: name}
	var err error
	if p.Limit, err = strconv.Atoi(limit); err != nil {
		return bad("the limit is not an integer")
	}
	if p.Burst, err = strconv.Atoi(burst); err != nil {
		return bad("the burst is not an integer")
	}
	switch window {
	case "s", "m", "h":
		window = "1" + window
	}
	if p.Window, err = time.ParseDuration(window); err != nil {
		return bad("the window is not a duration such as 1s or 1m")
	}
	if err := p.Validate(); err != nil {
		return bad(err.Error())
	}
	return p, nil
}
