package audio

import (
	"math"
	"math/bits"
	"time"
)

// durationOf converts units counted at rate per second into a Duration. It
// saturates instead of overflowing: a header that declares a huge length is still
// a known length, and one far longer than any limit the caller enforces.
func durationOf(units, rate uint64) time.Duration {
	if rate == 0 {
		return 0
	}
	secs := units / rate
	if secs > uint64(math.MaxInt64)/uint64(time.Second) {
		return time.Duration(math.MaxInt64)
	}
	hi, lo := bits.Mul64(units%rate, uint64(time.Second))
	frac, _ := bits.Div64(hi, lo, rate)
	return time.Duration(secs)*time.Second + time.Duration(frac)
}

// durationFromSeconds converts a floating-point number of seconds (WebM's
// Duration), saturating like durationOf; NaN and negative values are not durations.
func durationFromSeconds(s float64) (time.Duration, bool) {
	if math.IsNaN(s) || s < 0 {
		return 0, false
	}
	if s >= float64(math.MaxInt64)/float64(time.Second) {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(math.Round(s * float64(time.Second))), true
}
