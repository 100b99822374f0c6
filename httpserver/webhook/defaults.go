package webhook

import (
	"crypto/rand"
	"io"
	"time"
)

// nowUTC reads clock, or the system clock when clock is nil, in UTC.
func nowUTC(clock func() time.Time) time.Time {
	if clock != nil {
		return clock().UTC()
	}
	return time.Now().UTC()
}

// randOrSystem returns r, or crypto/rand.Reader when r is nil.
func randOrSystem(r io.Reader) io.Reader {
	if r != nil {
		return r
	}
	return rand.Reader
}
