package webhook

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// Inbound event types of the providers SPEC S8 names.
const (
	EventKYCCompleted    = "kyc.completed"
	EventAnchorConfirmed = "anchor.confirmed"
)

// Scheme is how an inbound provider signs its events (SPEC S15).
type Scheme string

const (
	// SchemeStandardWebhooks: webhook-id, webhook-timestamp and
	// webhook-signature "v1,<base64 HMAC-SHA256(id.timestamp.body)>" (SPEC S8). The
	// default.
	SchemeStandardWebhooks Scheme = "standard-webhooks"
	// SchemeHMACSHA256: HMAC-SHA256 of the raw body alone (seed 000 §5.4; GitHub's and
	// Shopify's style), hex or base64, in a header the provider names, with an optional
	// prefix such as "sha256=". It carries no timestamp and no message id: deliveries
	// are deduplicated by the provider's event id (EventIDPath) or by the HMAC itself.
	SchemeHMACSHA256 Scheme = "hmac-sha256"
)

// Encoding is how a SchemeHMACSHA256 signature is written in its header.
type Encoding string

const (
	EncodingHex    Encoding = "hex"    // lower or upper case; the default
	EncodingBase64 Encoding = "base64" // standard alphabet, padded or not
)

// DefaultSignatureHeader is the header of a SchemeHMACSHA256 provider that names none.
const DefaultSignatureHeader = "X-Signature-SHA256"

// SandboxProviderPrefix starts the names of the sandbox test providers, one per
// account (httpserver/sandbox): configured providers may not use it.
const SandboxProviderPrefix = "sandbox-"

// Provider is the configuration of one sender of inbound webhooks
// (POST /v1/webhooks/{provider}).
type Provider struct {
	// Scheme is how the provider signs ("": SchemeStandardWebhooks).
	Scheme Scheme
	// Secrets are the keys the provider signs with; several during its rotation, any
	// one of which is accepted.
	Secrets []Secret
	// EventTypes are the event types accepted from it; others are refused.
	EventTypes []string
	// Tolerance is the accepted clock difference (0: DefaultTolerance). Standard
	// Webhooks only.
	Tolerance time.Duration

	// The following are for SchemeHMACSHA256 only.

	// Header carries the signature ("": DefaultSignatureHeader), e.g.
	// X-Hub-Signature-256 (GitHub) or X-Shopify-Hmac-Sha256 (Shopify).
	Header string
	// Encoding of the signature ("": EncodingHex).
	Encoding Encoding
	// Prefix, when set, must start the header value, e.g. "sha256=" (GitHub).
	Prefix string
	// EventIDPath names the body's JSON member that identifies an event, dot-separated
	// ("id", "data.eventId"); a string or a number. A delivery whose body has no such
	// member, or when EventIDPath is empty, is deduplicated by its HMAC under the first
	// secret instead (the same body is the same event).
	EventIDPath string
}

// Accepts reports whether eventType is one of p's event types.
func (p Provider) Accepts(eventType string) bool {
	return slices.Contains(p.EventTypes, eventType)
}

// Verify checks a received webhook's signature against p's secrets in p's scheme. It
// is VerifyDelivery without the delivery id.
func (p Provider) Verify(h http.Header, body []byte, now time.Time) error {
	_, err := p.VerifyDelivery(h, body, now)
	return err
}

// VerifyDelivery checks a received webhook's signature against p's secrets in p's
// scheme (constant-time, any of several secrets) and returns the id that deduplicates
// it: the webhook-id for Standard Webhooks; for SchemeHMACSHA256 the event id at
// EventIDPath or, failing that, "hmac-sha256:" and the hex HMAC of the body under the
// first secret. body must be the exact bytes received.
//
// Errors: a *veriland.Error with code invalid_webhook_signature whose cause is one of
// ErrMissingHeaders, ErrInvalidHeader, ErrStaleTimestamp, ErrFutureTimestamp or
// ErrNoMatchingSignature.
func (p Provider) VerifyDelivery(h http.Header, body []byte, now time.Time) (string, error) {
	switch p.Scheme {
	case "", SchemeStandardWebhooks:
		if err := (Verifier{Secrets: p.Secrets, Tolerance: p.Tolerance}).Verify(h, body, now); err != nil {
			return "", err
		}
		return h.Get(HeaderID), nil
	case SchemeHMACSHA256:
		bv := BodyVerifier{Secrets: p.Secrets, Header: p.Header, Encoding: p.Encoding, Prefix: p.Prefix}
		mac, err := bv.Verify(h, body)
		if err != nil {
			return "", err
		}
		if id := eventID(body, p.EventIDPath); id != "" {
			return id, nil
		}
		return string(SchemeHMACSHA256) + ":" + hex.EncodeToString(mac), nil
	}
	return "", refuse(ErrInvalidHeader, "unknown signature scheme")
}

// eventID returns the string or number at the dot-separated path of body, if it is a
// usable inbox id (printable ASCII, at most maxInboundIDLen bytes), else "".
func eventID(body []byte, path string) string {
	if path == "" {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	for member := range strings.SplitSeq(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = obj[member]; !ok {
			return ""
		}
	}
	var id string
	switch x := v.(type) {
	case string:
		id = x
	case json.Number:
		id = x.String()
	default:
		return ""
	}
	if checkInboundID(id) != nil {
		return ""
	}
	return id
}

// Providers maps provider names, the {provider} of the inbound route, to their
// configuration. An unknown name is answered 404 by the route.
type Providers map[string]Provider

// Lookup returns the named provider.
func (ps Providers) Lookup(name string) (Provider, bool) {
	p, ok := ps[name]
	return p, ok
}

// providerName keeps provider names fit for URLs and storage keys.
var providerName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// headerName is an HTTP header field name (RFC 9110 token) of reasonable length.
var headerName = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$")

// Validate checks the configuration at start-up: names are lower-case words of at most
// 32 characters, not starting with SandboxProviderPrefix; every provider has a known
// scheme, at least one non-zero secret and one event type, and a body-only provider a
// valid header, encoding and event id path.
// It returns a validation_failed *veriland.Error naming the provider.
func (ps Providers) Validate() error {
	for name, p := range ps {
		bad := func(format string, args ...any) error {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q: %s", name, fmt.Sprintf(format, args...))
		}
		if !providerName.MatchString(name) {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider name %q must match %s", name, providerName)
		}
		if strings.HasPrefix(name, SandboxProviderPrefix) {
			return bad("names starting with %q are the sandbox test providers'", SandboxProviderPrefix)
		}
		if !slices.ContainsFunc(p.Secrets, func(s Secret) bool { return !s.IsZero() }) {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q has no secret", name)
		}
		if len(p.EventTypes) == 0 {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q accepts no event type", name)
		}
		switch p.Scheme {
		case "", SchemeStandardWebhooks:
			if p.Header != "" || p.Encoding != "" || p.Prefix != "" || p.EventIDPath != "" {
				return bad("header, encoding, prefix and eventIdPath are for the %s scheme", SchemeHMACSHA256)
			}
		case SchemeHMACSHA256:
			if p.Header != "" && !headerName.MatchString(p.Header) {
				return bad("header %q is not a header name", p.Header)
			}
			if p.Encoding != "" && p.Encoding != EncodingHex && p.Encoding != EncodingBase64 {
				return bad("encoding must be %s or %s", EncodingHex, EncodingBase64)
			}
			if len(p.Prefix) > 32 || strings.ContainsAny(p.Prefix, "\r\n") {
				return bad("prefix must be at most 32 bytes on one line")
			}
			if p.EventIDPath != "" && slices.Contains(strings.Split(p.EventIDPath, "."), "") {
				return bad("eventIdPath must be dot-separated member names")
			}
		default:
			return bad("scheme must be %s or %s", SchemeStandardWebhooks, SchemeHMACSHA256)
		}
	}
	return nil
}

// ProviderConfig is one provider in the JSON configuration ParseProviders reads.
type ProviderConfig struct {
	Scheme     Scheme   `json:"scheme,omitempty"`
	Secrets    []string `json:"secrets"`
	EventTypes []string `json:"eventTypes"`
	// ToleranceSeconds: Standard Webhooks only (0: 300).
	ToleranceSeconds int      `json:"toleranceSeconds,omitempty"`
	Header           string   `json:"header,omitempty"`
	Encoding         Encoding `json:"encoding,omitempty"`
	Prefix           string   `json:"prefix,omitempty"`
	EventIDPath      string   `json:"eventIdPath,omitempty"`
}

// ParseProviders reads a JSON object of provider name to ProviderConfig, e.g.
//
//	{
//	  "kyc":   {"secrets": ["whsec_…"], "eventTypes": ["kyc.completed"]},
//	  "vendor": {"scheme": "hmac-sha256", "header": "X-Hub-Signature-256", "prefix": "sha256=",
//	             "encoding": "hex", "secrets": ["new secret", "old secret"],
//	             "eventTypes": ["kyc.completed"], "eventIdPath": "id"}
//	}
//
// A Standard Webhooks secret is "whsec_<base64>"; a hmac-sha256 secret is either that
// form or the secret text itself, as GitHub and Shopify hand it out (its bytes are the
// key; at least 16). Unknown members are refused. It validates the result (see
// Providers.Validate); errors never repeat a secret.
func ParseProviders(raw []byte) (Providers, error) {
	var cfg map[string]ProviderConfig
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, veriland.Errorf(veriland.CodeValidationFailed, "webhook providers: %v", err)
	}
	ps := make(Providers, len(cfg))
	for name, c := range cfg {
		p := Provider{Scheme: c.Scheme, EventTypes: c.EventTypes, Tolerance: time.Duration(c.ToleranceSeconds) * time.Second,
			Header: c.Header, Encoding: c.Encoding, Prefix: c.Prefix, EventIDPath: c.EventIDPath}
		if c.Scheme != "" && c.Scheme != SchemeStandardWebhooks && c.Scheme != SchemeHMACSHA256 {
			return nil, veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q: scheme must be %s or %s", name, SchemeStandardWebhooks, SchemeHMACSHA256)
		}
		if c.ToleranceSeconds < 0 || c.ToleranceSeconds > 3600 {
			return nil, veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q: toleranceSeconds must be 0..3600", name)
		}
		for i, text := range c.Secrets {
			s, err := ParseProviderSecret(p.Scheme, text)
			if err != nil {
				msg := "invalid"
				if ve := (*veriland.Error)(nil); errors.As(err, &ve) {
					msg = ve.Message // never the secret
				}
				return nil, veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q: secret %d: %s", name, i+1, msg)
			}
			p.Secrets = append(p.Secrets, s)
		}
		ps[name] = p
	}
	if err := ps.Validate(); err != nil {
		return nil, err
	}
	return ps, nil
}

// ParseProviderSecret parses one secret of a provider of the given scheme: the
// "whsec_<base64>" form always; for SchemeHMACSHA256 also the secret text itself, whose
// bytes are the key (16 to 256 bytes).
func ParseProviderSecret(scheme Scheme, text string) (Secret, error) {
	if scheme != SchemeHMACSHA256 || strings.HasPrefix(text, SecretPrefix) {
		return ParseSecret(text)
	}
	if len(text) < minSecretLen || len(text) > 256 {
		return Secret{}, invalidSecret("secret text must be %d to 256 bytes, got %d", minSecretLen, len(text))
	}
	return Secret{key: []byte(text)}, nil
}

// BodyVerifier checks SchemeHMACSHA256 signatures: HMAC-SHA256(key, body) in a header.
type BodyVerifier struct {
	Secrets  []Secret
	Header   string   // "": DefaultSignatureHeader
	Encoding Encoding // "": EncodingHex
	Prefix   string   // required at the start of the value when set
}

// SignBody returns the header value a SchemeHMACSHA256 provider sends for body, signed
// with secret: Prefix followed by the encoded HMAC-SHA256 of the body.
func (v BodyVerifier) SignBody(secret Secret, body []byte) string {
	return v.Prefix + v.encode(bodyMAC(secret, body))
}

// Verify accepts body if a value of the signature header (after Prefix) decodes to
// the HMAC-SHA256 of body under any non-zero secret, compared in constant time against
// every secret. It returns the HMAC under the first non-zero secret (the stable
// deduplication key, whichever secret the provider used).
//
// Errors: as Verifier.Verify (invalid_webhook_signature with ErrMissingHeaders,
// ErrInvalidHeader or ErrNoMatchingSignature).
func (v BodyVerifier) Verify(h http.Header, body []byte) ([]byte, error) {
	header := cmp(v.Header, DefaultSignatureHeader)
	values := h.Values(header)
	if len(values) == 0 || strings.TrimSpace(strings.Join(values, "")) == "" {
		return nil, refuse(ErrMissingHeaders, "missing %s header", header)
	}
	var candidates [][]byte
	for _, val := range values {
		rest, ok := strings.CutPrefix(strings.TrimSpace(val), v.Prefix)
		if !ok {
			continue
		}
		if raw, ok := v.decode(rest); ok {
			candidates = append(candidates, raw)
		}
	}
	if len(candidates) == 0 {
		return nil, refuse(ErrInvalidHeader, "%s must be %q followed by the %s HMAC-SHA256 of the body", header, v.Prefix, cmp(v.Encoding, EncodingHex))
	}
	var first []byte
	matched := false
	for _, s := range v.Secrets {
		if s.IsZero() {
			continue
		}
		want := bodyMAC(s, body)
		if first == nil {
			first = want
		}
		for _, got := range candidates {
			if hmac.Equal(want, got) {
				matched = true
			}
		}
	}
	if !matched {
		return nil, refuse(ErrNoMatchingSignature, "no signature matches")
	}
	return first, nil
}

func (v BodyVerifier) encode(mac []byte) string {
	if v.Encoding == EncodingBase64 {
		return base64.StdEncoding.EncodeToString(mac)
	}
	return hex.EncodeToString(mac)
}

func (v BodyVerifier) decode(s string) ([]byte, bool) {
	var raw []byte
	var err error
	if v.Encoding == EncodingBase64 {
		if raw, err = base64.StdEncoding.DecodeString(s); err != nil {
			raw, err = base64.RawStdEncoding.DecodeString(s)
		}
	} else {
		raw, err = hex.DecodeString(s)
	}
	return raw, err == nil && len(raw) == sha256.Size
}

func bodyMAC(s Secret, body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(body)
	return m.Sum(nil)
}

func cmp[T ~string](v, def T) T {
	if v == "" {
		return def
	}
	return v
}
