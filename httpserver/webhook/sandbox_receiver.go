package webhook

import (
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

// sandboxAttempt answers an attempt in place of the network when the sandbox test
// receiver applies: in SANDBOX only, for a URL whose path ends in SandboxFailPath. ok is
// false when the attempt must really be sent.
func sandboxAttempt(env veriland.Environment, rawURL string, now time.Time) (a Attempt, ok bool) {
	if env != veriland.Sandbox {
		return Attempt{}, false
	}
	u, err := url.Parse(rawURL)
	if err != nil || !strings.HasSuffix(u.Path, SandboxFailPath) {
		return Attempt{}, false
	}
	return Attempt{At: now, StatusCode: http.StatusInternalServerError, Err: SandboxFailError}, true
}
