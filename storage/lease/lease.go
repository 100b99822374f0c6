package lease

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/veriland/veriland/storage"
)

// DefaultTTL is the lease time when Lease.TTL is zero: a standby takes over at most
// about DefaultTTL + DefaultTTL/3 after a holder dies without releasing.
const DefaultTTL = 15 * time.Second

// Errors of a Lease.
var (
	// ErrHeld is returned by Acquire when another holder (or another tenure of the
	// same holder id) holds the lease.
	ErrHeld = errors.New("lease: held by another holder")
	// ErrLost is returned by Check, and is the cause of Run's cancelled context, when
	// this Lease does not hold the lease (any more).
	ErrLost = errors.New("lease: not held")
	// ErrCorrupt is returned when the stored record does not decode.
	ErrCorrupt = errors.New("lease: corrupt lease record")
)

// Lease is one process's handle on a named lease in Store. Set the fields before
// first use and do not change them after; use a Lease by pointer. A Lease is safe for
// concurrent use.
type Lease struct {
	// Store holds the lease record; every contender must use the same store.
	Store storage.Store
	// Name names the role, e.g. "anchoring". Required.
	Name string
	// Holder identifies this process among the contenders (a random id per process
	// will do). Required.
	Holder string
	// TTL is how long an acquisition or renewal holds the lease (0: DefaultTTL).
	TTL time.Duration
	// Now is the clock of the lease's until times (nil: time.Now).
	Now func() time.Time
	// Logger receives the changes of leadership (nil: slog.Default()).
	Logger *slog.Logger

	mu   sync.Mutex
	term uint64 // the term this Lease last acquired; 0 before the first
}

func (l *Lease) ttl() time.Duration {
	if l.TTL > 0 {
		return l.TTL
	}
	return DefaultTTL
}

func (l *Lease) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Lease) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

func (l *Lease) check() error {
	if l.Store == nil || l.Name == "" || l.Holder == "" {
		return errors.New("lease: Store, Name and Holder are required")
	}
	return nil
}

func (l *Lease) heldTerm() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.term
}

// Acquire takes the lease, or renews it when this Lease holds it, in one read-write
// transaction: a free or expired lease is taken with the next term, and either way it
// then runs until now + TTL. It returns the stored state, or ErrHeld when someone else
// holds the lease.
func (l *Lease) Acquire(ctx context.Context) (State, error) {
	if err := l.check(); err != nil {
		return State{}, err
	}
	mine := l.heldTerm()
	ours := func(s State, now time.Time) bool {
		return s.HeldAt(now) && s.Holder == l.Holder && s.Term == mine && mine != 0
	}
	// A standby polls: look before taking the write lock, so that a poll that finds
	// the lease held costs a read, not a write transaction.
	if s, err := l.Get(ctx); err == nil && s.HeldAt(l.now()) && !ours(s, l.now()) {
		return s, ErrHeld
	}
	var out State
	err := l.Store.Update(ctx, func(tx storage.Tx) error {
		now := l.now()
		s, err := load(tx, l.Name)
		if err != nil {
			return err
		}
		renewal := ours(s, now)
		if s.HeldAt(now) && !renewal {
			out = s
			return ErrHeld
		}
		if !renewal {
			s.Term++
			s.Holder = l.Holder
		}
		s.Until = now.Add(l.ttl())
		out = s
		return save(tx, l.Name, s)
	})
	if err != nil {
		if errors.Is(err, ErrHeld) {
			return out, ErrHeld
		}
		return State{}, fmt.Errorf("lease %s: %w", l.Name, err)
	}
	l.mu.Lock()
	l.term = out.Term
	l.mu.Unlock()
	return out, nil
}

// Release gives the lease up when this Lease holds it, so that another holder takes
// it at once instead of after the TTL; otherwise it changes nothing. The term is kept,
// so the next holder's term is greater.
func (l *Lease) Release(ctx context.Context) error {
	if err := l.check(); err != nil {
		return err
	}
	mine := l.heldTerm()
	if mine == 0 {
		return nil
	}
	err := l.Store.Update(ctx, func(tx storage.Tx) error {
		s, err := load(tx, l.Name)
		if err != nil {
			return err
		}
		if s.Holder != l.Holder || s.Term != mine {
			return nil
		}
		return save(tx, l.Name, State{Term: s.Term})
	})
	if err != nil {
		return fmt.Errorf("lease %s: releasing: %w", l.Name, err)
	}
	return nil
}

// Get returns the lease as stored (a never-taken lease is the zero State).
func (l *Lease) Get(ctx context.Context) (State, error) {
	if err := l.check(); err != nil {
		return State{}, err
	}
	var s State
	err := l.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		s, err = load(tx, l.Name)
		return err
	})
	return s, err
}

// Check re-reads the lease and returns nil only if this Lease holds it, in the term
// it last acquired, and it has not run out; otherwise ErrLost (or a storage error).
// An action that must not overlap with another holder's calls it right before it
// acts: see the package doc for what that does and does not rule out.
func (l *Lease) Check(ctx context.Context) error {
	mine := l.heldTerm()
	if mine == 0 {
		return ErrLost
	}
	s, err := l.Get(ctx)
	if err != nil {
		return err
	}
	if s.Holder != l.Holder || s.Term != mine || !s.HeldAt(l.now()) {
		return ErrLost
	}
	return nil
}
