package ratelimit

import "time"

// Decision is the outcome of one Allow call.
type Decision struct {
	// Allowed reports whether the request may proceed.
	Allowed bool
	// Remaining is how many more requests would be allowed right now.
	Remaining int
	// Reset is how long until the key's quota is fully restored (the bucket is full
	// again) if no further request arrives.
	Reset time.Duration
	// RetryAfter is how long until the next request would be allowed; zero when
	// Allowed.
	RetryAfter time.Duration
}

// gcra decides one request arriving at now against a key whose theoretical arrival
// time is tat (unix nanoseconds; zero or past for an idle key). It returns the new
// TAT to store, which equals the old one when the request is denied.
func gcra(tat, now int64, p Policy) (int64, Decision) {
	t := int64(p.interval())
	tau := int64(p.tolerance())
	if tat < now {
		tat = now
	}
	next := tat + t
	allowAt := next - tau
	if now < allowAt {
		return tat, Decision{
			Allowed:    false,
			Remaining:  0,
			Reset:      time.Duration(tat - now),
			RetryAfter: time.Duration(allowAt - now),
		}
	}
	return next, Decision{
		Allowed:   true,
		Remaining: int((tau - (next - now)) / t),
		Reset:     time.Duration(next - now),
	}
}
