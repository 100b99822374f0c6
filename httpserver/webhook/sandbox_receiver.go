package webhook

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// SandboxFailPath is the callback URL path suffix that the sandbox test receiver answers
// as failed (SPEC S10), so integrators can watch the retry schedule without running a
// failing server.
const SandboxFailPath = "/fail"

// SandboxFailError is the Error of every attempt the sandbox test receiver fails.
const SandboxFailError = "sandbox receiver: /fail"

// SandboxTimeoutPath is the callback URL path suffix that the sandbox test receiver
// answers as a timeout (SPEC S10): the attempt is recorded as if the receiver had not
// answered within DeliveryTimeout, without any network call and without waiting.
const SandboxTimeoutPath = "/timeout"

// SandboxTimeoutError is the Error of every attempt the sandbox test receiver times out.
var SandboxTimeoutError = fmt.Sprintf("sandbox receiver: /timeout (timed out after %d s)", int(DeliveryTimeout/time.Second))

// sandboxAttempt answers an attempt in place of the network when the sandbox test
// receiver applies: in SANDBOX only, for a URL whose path ends in SandboxFailPath (a 500)
// or SandboxTimeoutPath (no status, the latency of a timeout). ok is false when the
// attempt must really be sent.
func sandboxAttempt(env veriland.Environment, rawURL string, now time.Time) (a Attempt, ok bool) {
	if env != veriland.Sandbox {
		return Attempt{}, false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return Attempt{}, false
	}
	switch {
	case strings.HasSuffix(u.Path, SandboxFailPath):
		return Attempt{At: now, StatusCode: http.StatusInternalServerError, Err: SandboxFailError}, true
	case strings.HasSuffix(u.Path, SandboxTimeoutPath):
		// Latency says what a real timeout costs; nothing waits for it.
		return Attempt{At: now, Latency: DeliveryTimeout, Err: SandboxTimeoutError}, true
	}
	return Attempt{}, false
}
