package chainjob

import (
	"context"
	"fmt"
	"time"
)

// Policy tunes a Queue. Zero fields take the defaults.
type Policy struct {
	MaxAttempts  int           // attempts before a failure is final (default 8)
	Backoff      time.Duration // wait after the first failure, doubled each time (default 5 s)
	MaxBackoff   time.Duration // cap of the wait (default 1 h)
	Lease        time.Duration // how long a claimed job is hidden from other workers (default 5 min)
	Batch        int           // jobs claimed per round and environment (default 16)
	PollInterval time.Duration // Run's pause between rounds (default 1 s)

	// Fence, when set, is called right before each handler call; an error ends the
	// round without calling it, and the jobs claimed in the round are retried once
	// their claim expires (Lease). Replicas that send with one key set it to their
	// anchoring lease's Check (storage/lease), so that a replica that is no longer the
	// leader never sends: two senders would race on the key's nonce.
	Fence func(ctx context.Context) error
}

// WithDefaults returns p with each zero field set to its default.
func (p Policy) WithDefaults() Policy {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 8
	}
	if p.Batch <= 0 {
		p.Batch = 16
	}
	def(&p.Backoff, 5*time.Second)
	def(&p.MaxBackoff, time.Hour)
	def(&p.Lease, 5*time.Minute)
	def(&p.PollInterval, time.Second)
	return p
}

// BackoffAfter returns the wait after the n-th failed attempt (n ≥ 1): Backoff,
// doubled per further attempt, at most MaxBackoff.
func (p Policy) BackoffAfter(n int) time.Duration {
	d := p.Backoff
	for i := 1; i < n && d < p.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, p.MaxBackoff)
}

// CheckFence runs Fence, when set: nil means send.
func (p Policy) CheckFence(ctx context.Context) error {
	if p.Fence == nil {
		return nil
	}
	if err := p.Fence(ctx); err != nil {
		return fmt.Errorf("chain jobs fenced off: %w", err)
	}
	return nil
}
