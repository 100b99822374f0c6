package webhook

import "time"

// DeliveryWindow is how long after its first attempt a delivery may still be retried;
// once it has passed the delivery is FAILED (SPEC S8).
const DeliveryWindow = 24 * time.Hour

// JitterSource is the randomness NextAttempt draws from: Float64 returns a number in
// [0, 1). *rand.Rand from math/rand/v2 satisfies it; tests pass a fixed one.
type JitterSource interface {
	Float64() float64
}

// jitter is the relative spread applied to each scheduled offset, ±10 %, so that many
// deliveries failing together do not retry in lockstep.
const jitter = 0.10

// retryOffset returns when attempt n (0 = the first) is due, counted from the first
// attempt: 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. ok is false past the last one.
func retryOffset(n int) (d time.Duration, ok bool) {
	switch n {
	case 0:
		return 0, true
	case 1:
		return 5 * time.Second, true
	case 2:
		return 5 * time.Minute, true
	case 3:
		return 30 * time.Minute, true
	case 4:
		return 2 * time.Hour, true
	case 5:
		return 5 * time.Hour, true
	case 6:
		return 10 * time.Hour, true
	}
	return 0, false
}

// NextAttempt returns when the next attempt of a delivery is due, given when its first
// attempt was (or is) due and how many attempts have been made so far. The offsets from
// first are 0 s, 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, each spread by ±10 % drawn from
// rnd (the first attempt is never delayed). The jittered offsets stay in order, since
// each is more than 20 % above the one before.
//
// ok is false when the schedule is exhausted or the attempt would fall more than
// DeliveryWindow after first: the delivery is then FAILED. A worker that wakes up late
// should also give up once now is past first + DeliveryWindow.
func NextAttempt(first time.Time, attemptsMade int, rnd JitterSource) (next time.Time, ok bool) {
	if attemptsMade < 0 {
		attemptsMade = 0
	}
	d, ok := retryOffset(attemptsMade)
	if !ok {
		return time.Time{}, false
	}
	if d > 0 {
		r := rnd.Float64()
		if r < 0 || r >= 1 {
			r = 0.5
		}
		d = time.Duration(float64(d) * (1 + jitter*(2*r-1)))
	}
	if d > DeliveryWindow {
		return time.Time{}, false
	}
	return first.Add(d), true
}
