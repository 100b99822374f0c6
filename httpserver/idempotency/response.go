package idempotency

import (
	"net/http"
	"slices"
)

// HeaderReplayed marks a replayed response.
const HeaderReplayed = "Idempotent-Replayed"

// Response is a finished response as stored for replay.
type Response struct {
	Status int
	Header http.Header // only the headers that matter; see Store.Headers
	Body   []byte
}

// keepHeaders returns the stored subset of h: Content-Type and Location, which every
// replay carries when the original had them, plus extra, minus the headers a replay
// must never repeat.
func keepHeaders(h http.Header, extra []string) http.Header {
	out := http.Header{}
	for _, name := range append([]string{"Content-Type", "Location"}, extra...) {
		name = http.CanonicalHeaderKey(name)
		if neverStored(name) {
			continue
		}
		if vs := h.Values(name); len(vs) > 0 {
			out[name] = slices.Clone(vs)
		}
	}
	return out
}

// neverStored reports per-request or per-caller headers (in canonical form) that a
// replay must not repeat even when listed in Store.Headers: cookies, rate limit state,
// request ids and framing.
func neverStored(name string) bool {
	switch name {
	case "Set-Cookie", "Ratelimit", "Ratelimit-Policy", "Retry-After", "X-Request-Id",
		"Date", "Content-Length", "Transfer-Encoding", "Connection", HeaderReplayed:
		return true
	}
	return false
}
