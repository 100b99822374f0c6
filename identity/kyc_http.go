package identity

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/veriland/veriland"
)

// Headers of a signed KYC request. They follow Standard Webhooks, so a provider can
// verify the request with any Standard Webhooks library: the signature is
// "v1," + base64(HMAC-SHA256(secret, id + "." + timestamp + "." + body)).
const (
	HeaderKYCID        = "webhook-id"        // the identity's DID, stable across retries
	HeaderKYCTimestamp = "webhook-timestamp" // unix seconds
	HeaderKYCSignature = "webhook-signature"
)

// Limits of HTTPKYC.
const (
	DefaultKYCTimeout   = 10 * time.Second
	maxKYCResponseBytes = 64 << 10
)

// HTTPKYC is a KYCProvider that POSTs each request, signed, to a provider's URL. The
// provider normally answers PENDING (with its case reference) and sends the result
// later to the inbound kyc webhook, which calls Service.CompleteKYC; it may also
// answer a final outcome at once.
//
// Request body (application/json):
//
//	{"env": "SANDBOX", "did": "did:veriland:…", "countryCode": "FR", "payload": {…}}
//
// Response: 2xx with a KYCResult, {"outcome": "PENDING", "providerRef": "…"}.
// Any transport error, non-2xx status, oversize or malformed answer is a provider
// failure (503 unavailable for the client).
type HTTPKYC struct {
	// URL receives the requests. It must be https outside tests.
	URL string
	// Secret is the raw HMAC key shared with the provider (the bytes of a "whsec_" secret
	// after base64 decoding).
	Secret []byte
	// Client sends the requests (nil: a client with Timeout that follows no redirects,
	// so that the signed payload only ever goes to URL).
	Client *http.Client
	// Timeout bounds each request (0: DefaultKYCTimeout).
	Timeout time.Duration
	// Now is the clock of the timestamp header (nil: time.Now).
	Now func() time.Time
}

type httpKYCRequest struct {
	Env         veriland.Environment `json:"env"`
	DID         string               `json:"did"`
	CountryCode string               `json:"countryCode"`
	Payload     json.RawMessage      `json:"payload,omitempty"`
}

// Check implements KYCProvider.
func (p *HTTPKYC) Check(ctx context.Context, req KYCRequest) (KYCResult, error) {
	if p.URL == "" || len(p.Secret) == 0 {
		return KYCResult{}, errors.New("identity: HTTPKYC needs a URL and a Secret")
	}
	body, err := json.Marshal(httpKYCRequest{Env: req.Env, DID: req.DID, CountryCode: req.CountryCode, Payload: req.Payload})
	if err != nil {
		// Only a syntactically broken payload gets here; say so without quoting it.
		return KYCResult{}, veriland.Invalid("/payload", "payload must be valid JSON")
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultKYCTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(body))
	if err != nil {
		return KYCResult{}, fmt.Errorf("identity: KYC request: %w", err)
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	ts := strconv.FormatInt(now().Unix(), 10)
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set(HeaderKYCID, req.DID)
	hreq.Header.Set(HeaderKYCTimestamp, ts)
	hreq.Header.Set(HeaderKYCSignature, SignKYCRequest(p.Secret, req.DID, ts, body))

	client := p.Client
	if client == nil {
		client = &http.Client{
			Timeout:       timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return KYCResult{}, fmt.Errorf("identity: KYC provider: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxKYCResponseBytes+1))
	if err != nil {
		return KYCResult{}, fmt.Errorf("identity: reading KYC provider answer: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return KYCResult{}, fmt.Errorf("identity: KYC provider answered HTTP %d", resp.StatusCode)
	}
	if len(raw) > maxKYCResponseBytes {
		return KYCResult{}, errors.New("identity: KYC provider answer is too large")
	}
	var res KYCResult
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&res); err != nil {
		return KYCResult{}, fmt.Errorf("identity: decoding KYC provider answer: %w", err)
	}
	if !res.Outcome.Valid() {
		return KYCResult{}, fmt.Errorf("identity: KYC provider answered unknown outcome %q", res.Outcome)
	}
	return res, nil
}

// SignKYCRequest returns the webhook-signature header value of a KYC request:
// "v1," + base64(HMAC-SHA256(secret, id + "." + timestamp + "." + body)).
func SignKYCRequest(secret []byte, id, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
