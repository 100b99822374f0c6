package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Limits of the flags: the generator is bounded in count, concurrency and time.
const (
	maxRequests    = 100_000
	maxConcurrency = 1024
	maxDuration    = time.Hour
)

const usage = "usage: loadgen [-addr http://127.0.0.1:8080[,http://127.0.0.1:8081...]] [-scenario health|consent|siwe] [-n 1000] [-c 32] [-duration 60s] [-token T] [-json]"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type options struct {
	addrs       []*url.URL // one or more base URLs (replicas of one deployment)
	origin      string
	token       string
	scenario    string
	n, c        int
	duration    time.Duration
	json        bool
	allowRemote bool
	callback    string
	chainID     uint64
}

// errUsage marks a flag error; its message has already been printed when empty.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "http://127.0.0.1:8080", "base URL of the running veriland server, or a comma-separated list of the base URLs of replicas sharing one database: requests go to each in turn")
	origin := fs.String("origin", "", "siwe: the server's public origin the message is signed for (default: -addr)")
	token := fs.String("token", os.Getenv("VERILAND_TOKEN"), "consent: a SANDBOX admin token (default $VERILAND_TOKEN)")
	scenario := fs.String("scenario", "health", "health, consent or siwe")
	n := fs.Int("n", 1000, fmt.Sprintf("timed requests (1..%d)", maxRequests))
	c := fs.Int("c", 32, fmt.Sprintf("concurrent workers (1..%d)", maxConcurrency))
	duration := fs.Duration("duration", 60*time.Second, "cap on the timed phase (and, separately, on the consent setup)")
	jsonOut := fs.Bool("json", false, "print one JSON object instead of the human report")
	allowRemote := fs.Bool("allow-remote", false, "allow an -addr that is not loopback or localhost")
	callback := fs.String("callback", "", "consent: callbackUrl of the verification requests (default none; a loopback URL ending in /fail exercises the webhook outbox without any network call)")
	chainID := fs.Uint64("chain-id", 1, "siwe: the server's chain id")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage{} // the flag package printed the error and the usage
	}
	if fs.NArg() > 0 {
		return nil, errUsage{fmt.Sprintf("unexpected arguments: %v", fs.Args())}
	}
	o := &options{token: strings.TrimSpace(*token), scenario: *scenario, n: *n, c: *c, duration: *duration,
		json: *jsonOut, allowRemote: *allowRemote, callback: *callback, chainID: *chainID}
	switch o.scenario {
	case "health", "consent", "siwe":
	default:
		return nil, errUsage{fmt.Sprintf("-scenario %q: must be health, consent or siwe", o.scenario)}
	}
	if o.n < 1 || o.n > maxRequests {
		return nil, errUsage{fmt.Sprintf("-n %d: must be between 1 and %d", o.n, maxRequests)}
	}
	if o.c < 1 || o.c > maxConcurrency {
		return nil, errUsage{fmt.Sprintf("-c %d: must be between 1 and %d", o.c, maxConcurrency)}
	}
	if o.duration <= 0 || o.duration > maxDuration {
		return nil, errUsage{fmt.Sprintf("-duration %s: must be positive and at most %s", o.duration, maxDuration)}
	}
	if o.chainID == 0 {
		return nil, errUsage{"-chain-id must be positive"}
	}
	for _, raw := range strings.Split(*addr, ",") {
		u, err := checkAddr(strings.TrimSpace(raw), o.allowRemote)
		if err != nil {
			return nil, errUsage{fmt.Sprintf("-addr %s: %v", raw, err)}
		}
		o.addrs = append(o.addrs, u)
	}
	o.origin = o.addrs[0].Scheme + "://" + o.addrs[0].Host
	if *origin != "" {
		ou, err := url.Parse(*origin)
		if err != nil || ou.Host == "" || (ou.Scheme != "http" && ou.Scheme != "https") {
			return nil, errUsage{fmt.Sprintf("-origin %s: must be http(s)://host[:port]", *origin)}
		}
		o.origin = ou.Scheme + "://" + ou.Host
	}
	if o.callback != "" {
		if _, err := checkAddr(o.callback, o.allowRemote); err != nil {
			return nil, errUsage{fmt.Sprintf("-callback %s: %v", o.callback, err)}
		}
	}
	if o.scenario == "consent" && o.token == "" {
		return nil, errUsage{"-scenario consent needs an admin token: -token or $VERILAND_TOKEN"}
	}
	return o, nil
}

// checkAddr parses a base URL and refuses, unless allowRemote, any host that is not
// "localhost" or a loopback IP address: load is only ever generated against this
// machine.
func checkAddr(raw string, allowRemote bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("must be http://host[:port] or https://host[:port]")
	}
	if u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("must be scheme://host[:port] with no credentials, query or fragment")
	}
	if allowRemote {
		return u, nil
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return u, nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return u, nil
	}
	return nil, fmt.Errorf("host %s is not a loopback address; load is only generated against loopback (pass -allow-remote to override)", host)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "loadgen:", msg)
			fmt.Fprintln(stderr, usage)
		}
		return 2
	}
	lg := newLoader(o, stderr)
	var rep *report
	switch o.scenario {
	case "health":
		rep, err = lg.health(ctx)
	case "consent":
		rep, err = lg.consent(ctx)
	case "siwe":
		rep, err = lg.siwe(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: %s: %v\n", o.scenario, err)
		return 1
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "loadgen:", err)
			return 1
		}
	} else {
		rep.write(stdout)
	}
	if rep.RateLimited > 0 {
		fmt.Fprintf(stderr, "loadgen: %d responses were 429 Too Many Requests: the server's rate limit is on; restart it with -rate-limit off for meaningful numbers\n", rep.RateLimited)
	}
	if rep.Errors > 0 {
		return 1
	}
	return 0
}
