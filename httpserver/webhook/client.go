package webhook

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/veriland/veriland"
)

// Limits of NewClient's client.
const (
	// DeliveryTimeout bounds one delivery from dial to the last byte read (SPEC S8:
	// success is a 2xx within 10 s).
	DeliveryTimeout = 10 * time.Second
	// MaxResponseBody is how much of a receiver's response body is ever read.
	MaxResponseBody = 64 << 10
)

// NewClient returns the http.Client for outbound callbacks in env under policy:
//
//   - every request URL passes the checks of ValidateCallbackURL (https only in
//     PRODUCTION), and every address dialled is checked after DNS resolution, so DNS
//     rebinding cannot reach loopback, private, link-local, CGNAT, multicast, reserved or
//     cloud-metadata addresses, nor their IPv4-mapped, NAT64 or 6to4 forms;
//   - no proxy from the environment is used (it would hide the real destination);
//   - redirects are never followed: a 3xx is returned as it is, and counts as a failure;
//   - response bodies read through it end after MaxResponseBody bytes;
//   - the whole exchange is bounded by DeliveryTimeout.
//
// Refused requests fail with an error wrapping ErrDisallowedURL or ErrDisallowedAddress.
// Build one client per environment and share it: it pools connections.
func NewClient(env veriland.Environment, policy CallbackPolicy) *http.Client {
	return newClient(newGuard(env, policy), clientDeps{})
}

// clientDeps are what tests swap in: TLS settings that trust an httptest server, and a
// resolver that answers from memory (to show that a name resolving to a refused address
// is caught at dial time). The zero value means the system defaults.
type clientDeps struct {
	tls      *tls.Config
	resolver *net.Resolver
}

func newClient(g guard, deps clientDeps) *http.Client {
	tlsConf := deps.tls
	if tlsConf == nil {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	dialer := &net.Dialer{
		Timeout:   5 * time.Second,
		KeepAlive: 30 * time.Second,
		Resolver:  deps.resolver,
		Control:   g.control,
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        tlsConf,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    5 * time.Second,
		ResponseHeaderTimeout:  DeliveryTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: MaxResponseBody,
	}
	return &http.Client{
		Transport: guardedTransport{guard: g, next: transport},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
		Timeout: DeliveryTimeout,
	}
}

// guardedTransport checks each request URL before it is sent and caps the response body.
// The URL check repeats ValidateCallbackURL so that a URL stored before a policy change,
// or a caller that skipped validation, is still held to the rules.
type guardedTransport struct {
	guard guard
	next  http.RoundTripper
}

func (t guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := t.guard.checkURL(req.URL.String()); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = limitedBody{Reader: io.LimitReader(resp.Body, MaxResponseBody), Closer: resp.Body}
	return resp, nil
}

type limitedBody struct {
	io.Reader
	io.Closer
}
