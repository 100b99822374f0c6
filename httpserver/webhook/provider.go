package webhook

import (
	"net/http"
	"regexp"
	"slices"
	"time"

	"github.com/veriland/veriland"
)

// Inbound event types of the providers SPEC S8 names.
const (
	EventKYCCompleted    = "kyc.completed"
	EventAnchorConfirmed = "anchor.confirmed"
)

// Provider is the configuration of one sender of inbound webhooks
// (POST /v1/webhooks/{provider}).
type Provider struct {
	// Secrets are the keys the provider signs with; several during its rotation.
	Secrets []Secret
	// EventTypes are the event types accepted from it; others are refused.
	EventTypes []string
	// Tolerance is the accepted clock difference (0: DefaultTolerance).
	Tolerance time.Duration
}

// Accepts reports whether eventType is one of p's event types.
func (p Provider) Accepts(eventType string) bool {
	return slices.Contains(p.EventTypes, eventType)
}

// Verify checks a received webhook's Standard Webhooks signature against p's secrets
// (constant-time, any of several signatures, timestamp within the tolerance). Errors are
// those of Verifier.Verify.
func (p Provider) Verify(h http.Header, body []byte, now time.Time) error {
	return Verifier{Secrets: p.Secrets, Tolerance: p.Tolerance}.Verify(h, body, now)
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

// Validate checks the configuration at start-up: names are lower-case words of at most
// 32 characters, and every provider has at least one non-zero secret and one event
// type. It returns a validation_failed *veriland.Error naming the provider.
func (ps Providers) Validate() error {
	for name, p := range ps {
		if !providerName.MatchString(name) {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider name %q must match %s", name, providerName)
		}
		if !slices.ContainsFunc(p.Secrets, func(s Secret) bool { return !s.IsZero() }) {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q has no secret", name)
		}
		if len(p.EventTypes) == 0 {
			return veriland.Errorf(veriland.CodeValidationFailed, "webhook provider %q accepts no event type", name)
		}
	}
	return nil
}
