package postgres

import (
	"context"
	"sync"
	"time"
)

// gate orders one Store's Update attempts: first attempts run together (shared);
// a retry, after a serialization failure or deadlock, runs alone (exclusive). A
// waiting retry holds new first attempts back until the ones in flight finish, so
// that writers that keep conflicting on a hot key inside one process take turns
// instead of starving the unlucky ones.
//
// An exclusive waiter gives up waiting after its patience and then runs shared, so
// that an Update that never ends (or an Update nested in another, which the
// interface does not support) can slow retries down but never stall the Store.
type gate struct {
	mu      sync.Mutex
	shared  int           // attempts running shared
	excl    bool          // an attempt runs exclusive
	waiting int           // exclusive waiters
	changed chan struct{} // closed and replaced when the state changes
}

// enter admits an attempt and returns the function that lets it out.
func (g *gate) enter(ctx context.Context, exclusive bool, patience time.Duration) (func(), error) {
	g.mu.Lock()
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	if !exclusive {
		for g.excl || g.waiting > 0 {
			if err := g.wait(ctx, nil); err != nil {
				g.mu.Unlock()
				return nil, err
			}
		}
		g.shared++
		g.mu.Unlock()
		return g.leaveShared, nil
	}
	g.waiting++
	timer := time.NewTimer(patience)
	defer timer.Stop()
	for g.excl || g.shared > 0 {
		if err := g.wait(ctx, timer.C); err != nil {
			g.waiting--
			g.broadcast()
			if err == errImpatient { // run shared after all
				g.shared++
				g.mu.Unlock()
				return g.leaveShared, nil
			}
			g.mu.Unlock()
			return nil, err
		}
	}
	g.waiting--
	g.excl = true
	g.mu.Unlock()
	return g.leaveExclusive, nil
}

type impatient struct{}

func (impatient) Error() string { return "impatient" }

var errImpatient error = impatient{}

// wait releases g.mu until the state changes, ctx is done or timeout fires, and
// locks it again.
func (g *gate) wait(ctx context.Context, timeout <-chan time.Time) error {
	ch := g.changed
	g.mu.Unlock()
	var err error
	select {
	case <-ch:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timeout:
		err = errImpatient
	}
	g.mu.Lock()
	return err
}

func (g *gate) broadcast() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *gate) leaveShared() {
	g.mu.Lock()
	g.shared--
	if g.shared == 0 {
		g.broadcast()
	}
	g.mu.Unlock()
}

func (g *gate) leaveExclusive() {
	g.mu.Lock()
	g.excl = false
	g.broadcast()
	g.mu.Unlock()
}
