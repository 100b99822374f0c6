package ratelimit

import (
	"net/http"
	"strconv"
	"time"
)

// Header names (draft-ietf-httpapi-ratelimit-headers, SPEC S2.5).
const (
	HeaderPolicy     = "RateLimit-Policy"
	HeaderRateLimit  = "RateLimit"
	HeaderRetryAfter = "Retry-After"
)

// Headers sets the rate limit headers of a response to a request decided by d under p:
//
//	RateLimit-Policy: "wallet";q=120;w=60
//	RateLimit: "wallet";r=29;t=1
//
// and, when d denied the request, Retry-After in whole seconds (rounded up, at least 1).
// t is the number of seconds, rounded up, until the quota is fully restored.
func Headers(w http.Header, p Policy, d Decision) {
	name := `"` + p.Name + `"` // Policy.Validate keeps names free of '"' and '\'
	w.Set(HeaderPolicy, name+";q="+strconv.Itoa(p.Limit)+";w="+strconv.FormatInt(ceilSeconds(p.Window), 10))
	w.Set(HeaderRateLimit, name+";r="+strconv.Itoa(max(d.Remaining, 0))+";t="+strconv.FormatInt(ceilSeconds(d.Reset), 10))
	if d.Allowed {
		w.Del(HeaderRetryAfter)
		return
	}
	w.Set(HeaderRetryAfter, strconv.FormatInt(max(ceilSeconds(d.RetryAfter), 1), 10))
}

func ceilSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}
