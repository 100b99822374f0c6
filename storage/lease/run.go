package lease

import (
	"context"
	"errors"
	"time"
)

// releaseTimeout bounds the release Run makes on its way out, when its own context is
// already done.
const releaseTimeout = 5 * time.Second

// Run runs fn while this Lease holds the lease, until ctx ends. It tries to take the
// lease every TTL/3; once it holds it, it calls fn with a context that is cancelled
// (with cause ErrLost) as soon as a renewal fails or the lease runs out before a
// renewal succeeded, and renews every TTL/3 meanwhile. When fn returns after losing
// the lease, Run goes back to trying to take it.
//
// Run returns nil once ctx ends, and fn's result if fn returns on its own while still
// holding the lease; either way it waits for fn to return and then releases the lease,
// so that a standby takes over at once after a clean shutdown.
func (l *Lease) Run(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := l.check(); err != nil {
		return err
	}
	every := l.ttl() / 3
	wait := time.NewTimer(0)
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-wait.C:
		}
		st, err := l.acquireWithin(ctx, every)
		switch {
		case err == nil:
			l.logger().InfoContext(ctx, "lease acquired", "lease", l.Name, "holder", l.Holder, "term", st.Term)
			lost, err := l.lead(ctx, st, every, fn)
			l.release(ctx)
			if !lost {
				return err
			}
			l.logger().WarnContext(ctx, "lease lost", "lease", l.Name, "holder", l.Holder, "term", st.Term)
		case errors.Is(err, ErrHeld) || ctx.Err() != nil:
		default:
			l.logger().WarnContext(ctx, "taking the lease failed", "lease", l.Name, "err", err)
		}
		wait.Reset(every)
	}
}

// acquireWithin is Acquire bounded by d, so that a stalled store never holds up a
// holder past its lease.
func (l *Lease) acquireWithin(ctx context.Context, d time.Duration) (State, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return l.Acquire(ctx)
}

// lead runs fn while renewing the lease st, and returns once fn has returned: lost
// reports that fn was stopped because the lease was lost (rather than by ctx or on its
// own), err is fn's result otherwise.
func (l *Lease) lead(ctx context.Context, st State, every time.Duration, fn func(context.Context) error) (lost bool, err error) {
	held, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	done := make(chan error, 1)
	go func() { done <- fn(held) }()

	renew := time.NewTicker(every)
	defer renew.Stop()
	// expiry fires when the lease runs out by this process's clock, even if the store
	// stalls and no renewal answers.
	expiry := time.NewTimer(l.remaining(st))
	defer expiry.Stop()
	for {
		select {
		case err := <-done:
			if errors.Is(context.Cause(held), ErrLost) {
				return true, nil
			}
			if ctx.Err() != nil {
				return false, nil
			}
			return false, err
		case <-expiry.C:
			stop(ErrLost)
		case <-renew.C:
			if context.Cause(held) != nil {
				continue // stopping: wait for fn
			}
			next, err := l.acquireWithin(ctx, every)
			if err != nil {
				if ctx.Err() == nil {
					stop(ErrLost)
				}
				continue
			}
			expiry.Reset(l.remaining(next))
		}
	}
}

// remaining is how long st holds from now on.
func (l *Lease) remaining(st State) time.Duration {
	return st.Until.Sub(l.now())
}

// release gives the lease up on Run's way out, even when ctx is done.
func (l *Lease) release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := l.Release(ctx); err != nil {
		l.logger().WarnContext(ctx, "releasing the lease failed", "lease", l.Name, "err", err)
	}
}
