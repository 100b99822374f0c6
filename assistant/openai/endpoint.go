package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// DefaultMaxResponseBytes bounds a response body when MaxResponseBytes is zero. A
// chat completion or a ten-minute transcript is a few tens of kilobytes; anything
// near a mebibyte is a misbehaving server, not an answer.
const DefaultMaxResponseBytes int64 = 1 << 20

// endpoint is what both clients share: a base URL the operator configured, a key,
// and the rules that keep a remote server from doing anything but answer — no
// redirects, a deadline, a bounded body.
type endpoint struct {
	// service names the remote side in error messages ("language model",
	// "transcriber"); it never names the host, which is internal configuration.
	service  string
	baseURL  string
	apiKey   string
	client   *http.Client
	timeout  time.Duration
	maxBytes int64
}

// validateBaseURL refuses a base URL that is not plain http(s) to a host, or that
// carries credentials, a query or a fragment: the key belongs in APIKey, where it is
// sent as a header and never logged as part of a URL.
func validateBaseURL(service, raw string) error {
	if raw == "" {
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL is empty", service)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL is not a URL", service).WithCause(err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL must be http or https", service)
	case u.Opaque != "" || u.Host == "":
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL has no host", service)
	case u.User != nil:
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL must not carry user info; set the API key instead", service)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s base URL must not have a query or a fragment", service)
	}
	return nil
}

// validateAPIKey refuses a key that could not travel in a header. The message
// never repeats the key.
func validateAPIKey(service, key string) error {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x21 || c == 0x7f {
			return veriland.Errorf(veriland.CodeValidationFailed, "the %s API key contains spaces or control characters", service)
		}
	}
	return nil
}

// validateLimits refuses negative durations and sizes; zero means the default.
func validateLimits(service string, timeout time.Duration, maxBytes int64) error {
	if timeout < 0 {
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s timeout is negative", service)
	}
	if maxBytes < 0 {
		return veriland.Errorf(veriland.CodeValidationFailed, "the %s response limit is negative", service)
	}
	return nil
}

// httpClient returns a copy of c (or of a zero client) that never follows a
// redirect: a 3xx comes back as the response, and post refuses it. Following one
// would resend the key and the user's words to wherever the Location points.
func httpClient(c *http.Client) *http.Client {
	var cp http.Client
	if c != nil {
		cp = *c
	}
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

// post sends body to baseURL+path and returns the 2xx response body. Every failure
// is a *veriland.Error with code unavailable whose message says what went wrong
// without the key, the request body or the response body.
func (e endpoint) post(ctx context.Context, path, contentType string, body io.Reader, length int64) ([]byte, error) {
	callCtx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()

	target := strings.TrimRight(e.baseURL, "/") + path
	req, err := http.NewRequestWithContext(callCtx, http.MethodPost, target, body)
	if err != nil {
		return nil, e.unavailable("the request could not be built").WithCause(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	if e.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.apiKey)
	}

	resp, err := e.client.Do(req)
	if err != nil {
		return nil, e.transportError(ctx, callCtx, err)
	}
	defer resp.Body.Close()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Drain a little so the connection can be reused, but never read the text:
		// providers echo prompts and partial keys in their error messages.
		_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
		return nil, e.statusError(resp)
	}

	data, err := io.ReadAll(io.LimitReader(resp.Body, e.maxBytes+1))
	if err != nil {
		return nil, e.transportError(ctx, callCtx, err)
	}
	if int64(len(data)) > e.maxBytes {
		return nil, e.unavailable("the %s's response is larger than %d bytes", e.service, e.maxBytes).
			WithMeta("limitBytes", e.maxBytes)
	}
	return data, nil
}

// unavailable is an error with code unavailable.
func (e endpoint) unavailable(format string, args ...any) *veriland.Error {
	return veriland.Errorf(veriland.CodeUnavailable, format, args...)
}

// transportError says whether the call timed out, was cancelled by the caller, or
// failed on the network. The cause keeps the original error for logs; net/http's
// errors name the URL, which has no credentials (validateBaseURL).
func (e endpoint) transportError(parent, call context.Context, err error) error {
	switch {
	case parent.Err() != nil:
		return e.unavailable("the %s call was cancelled", e.service).WithCause(parent.Err())
	case errors.Is(call.Err(), context.DeadlineExceeded):
		return e.unavailable("the %s did not answer within %s", e.service, e.timeout).
			WithMeta("timeoutMs", e.timeout.Milliseconds()).WithCause(err)
	default:
		return e.unavailable("the %s cannot be reached", e.service).WithCause(err)
	}
}

// statusError describes a non-2xx answer by its status only.
func (e endpoint) statusError(resp *http.Response) error {
	code := resp.StatusCode
	var ve *veriland.Error
	switch {
	case code >= 300 && code < 400:
		ve = e.unavailable("the %s answered with a redirect (HTTP %d), which is refused", e.service, code)
	case code == http.StatusTooManyRequests:
		ve = e.unavailable("the %s is rate limited (HTTP 429)", e.service)
		if s := resp.Header.Get("Retry-After"); s != "" {
			if secs, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && secs >= 0 {
				ve = ve.WithMeta("retryAfterSeconds", secs)
			}
		}
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		ve = e.unavailable("the %s refused the API key (HTTP %d)", e.service, code)
	default:
		ve = e.unavailable("the %s answered HTTP %d", e.service, code)
	}
	return ve.WithMeta("status", code).WithCause(fmt.Errorf("openai: %s: HTTP %d", e.service, code))
}

// decodeJSON unmarshals a 2xx body, refusing anything that is not one JSON value.
func (e endpoint) decodeJSON(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return e.unavailable("the %s returned an empty response", e.service)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return e.unavailable("the %s returned a response that is not JSON of the expected shape", e.service).WithCause(err)
	}
	return nil
}
