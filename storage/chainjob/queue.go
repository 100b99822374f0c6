package chainjob

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Outcomes reported to Queue.Observe.
const (
	OutcomeDone     = "done"     // the handler succeeded
	OutcomeRetry    = "retry"    // it failed and the job is due again after a backoff
	OutcomeFailed   = "failed"   // it failed for the last time
	OutcomeDisabled = "disabled" // its environment has no chain
)

// Queue runs the jobs of both environments with the handlers registered for their
// kinds. Set Store; register handlers with Handle before Run. A Queue is safe for
// concurrent use, but one worker per set of keys is the intended use.
type Queue struct {
	Store  storage.Store
	Policy Policy
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Logger receives failed attempts (slog.Default when nil). Job errors carry no
	// personal data: handlers send digests and token ids only.
	Logger *slog.Logger
	// Observe, when set, is called after each handler call with the job's kind, its
	// outcome (OutcomeDone, ...) and how long the call took (for metrics).
	Observe func(kind, outcome string, took time.Duration)

	mu       sync.RWMutex
	handlers map[string]Handler
	wake     chan struct{}
	wakeOnce sync.Once
}

// Handle registers h for the jobs of kind, replacing any earlier handler.
func (q *Queue) Handle(kind string, h Handler) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.handlers == nil {
		q.handlers = make(map[string]Handler)
	}
	q.handlers[kind] = h
}

// Kinds returns the registered kinds, sorted.
func (q *Queue) Kinds() []string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	out := make([]string, 0, len(q.handlers))
	for k := range q.handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (q *Queue) handler(kind string) Handler {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.handlers[kind]
}

func (q *Queue) now() time.Time {
	if q.Now != nil {
		return q.Now()
	}
	return time.Now()
}

func (q *Queue) logger() *slog.Logger {
	if q.Logger != nil {
		return q.Logger
	}
	return slog.Default()
}

func (q *Queue) wakeChan() chan struct{} {
	q.wakeOnce.Do(func() { q.wake = make(chan struct{}, 1) })
	return q.wake
}

// Wake makes a running Run start its next round now instead of after its pause:
// call it after committing a state change that enqueued a job, for a shorter wait.
func (q *Queue) Wake() {
	select {
	case q.wakeChan() <- struct{}{}:
	default:
	}
}

// Run runs rounds (RunOnce) until ctx ends, pausing Policy.PollInterval between
// them unless woken. Failures are logged and retried. It returns nil when ctx ends.
func (q *Queue) Run(ctx context.Context) error {
	p := q.Policy.WithDefaults()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-q.wakeChan():
		}
		if _, err := q.RunOnce(ctx); err != nil && ctx.Err() == nil {
			q.logger().Warn("chain job round failed", "err", err)
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(p.PollInterval)
	}
}

// RunOnce runs one round: in each environment it claims the jobs due now (at most
// Policy.Batch) whose kind has a handler, runs them one after the other and settles
// them. It returns how many succeeded.
func (q *Queue) RunOnce(ctx context.Context) (int, error) {
	done := 0
	var errs []error
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		n, err := q.runEnv(ctx, env)
		done += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return done, errors.Join(errs...)
}

type claim struct {
	key []byte // where the claimed job now sits (due at the end of its lease)
	job Job
}

func (q *Queue) runEnv(ctx context.Context, env veriland.Environment) (int, error) {
	claimed, err := q.claim(ctx, env)
	if err != nil || len(claimed) == 0 {
		return 0, err
	}
	p := q.Policy.WithDefaults()
	done := 0
	for _, c := range claimed {
		h := q.handler(c.job.Kind)
		if err := p.CheckFence(ctx); err != nil {
			return done, err
		}
		start := time.Now()
		r, herr := h.Run(ctx, env, c.job)
		if herr != nil && ctx.Err() != nil {
			return done, ctx.Err() // shutting down: the lease expires and the job runs again
		}
		outcome, err := q.settle(ctx, env, h, c, r, herr, p)
		if err != nil {
			return done, err
		}
		if q.Observe != nil {
			q.Observe(c.job.Kind, outcome, time.Since(start))
		}
		switch outcome {
		case OutcomeDone:
			done++
		case OutcomeRetry, OutcomeFailed:
			q.logger().Warn("chain job failed", "env", env, "kind", c.job.Kind, "ref", c.job.Ref,
				"attempt", c.job.Attempts, "final", outcome == OutcomeFailed, "err", herr)
		}
	}
	return done, nil
}

// claim moves the due jobs of env that have a handler to the end of their lease and
// counts the attempt, in one transaction.
func (q *Queue) claim(ctx context.Context, env veriland.Environment) ([]claim, error) {
	p := q.Policy.WithDefaults()
	now := q.now()
	bucket := storage.Bucket(env, Bucket)
	var claimed []claim
	err := q.Store.Update(ctx, func(tx storage.Tx) error {
		claimed = claimed[:0]
		end := binary.BigEndian.AppendUint64(nil, uint64(max(now.UnixNano(), 0))+1)
		var due []claim
		err := tx.Scan(bucket, storage.Range{End: end}, func(k, v []byte) error {
			kind, _, ok := parseKey(k)
			if !ok || q.handler(kind) == nil {
				return nil // not ours: left for a worker that knows the kind
			}
			var j Job
			if json.Unmarshal(v, &j) != nil {
				return nil // a corrupt job is left alone rather than blocking the queue
			}
			due = append(due, claim{key: append([]byte(nil), k...), job: j})
			if len(due) >= p.Batch {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range due {
			if err := tx.Delete(bucket, c.key); err != nil {
				return err
			}
			c.job.Attempts++
			c.key = Key(now.Add(p.Lease), c.job.Kind, c.job.Ref)
			if err := Enqueue(tx, env, c.job, now.Add(p.Lease)); err != nil {
				return err
			}
			claimed = append(claimed, c)
		}
		return nil
	})
	return claimed, err
}

// settle removes the claimed job and records its outcome, or puts it back for a
// retry after the backoff.
func (q *Queue) settle(ctx context.Context, env veriland.Environment, h Handler, c claim, r Result, herr error, p Policy) (string, error) {
	outcome := OutcomeDone
	switch {
	case herr == nil:
	case errors.Is(herr, ErrDisabled):
		outcome = OutcomeDisabled
	case IsPermanent(herr) || c.job.Attempts >= p.MaxAttempts:
		outcome = OutcomeFailed
	default:
		outcome = OutcomeRetry
	}
	now := q.now()
	err := q.Store.Update(ctx, func(tx storage.Tx) error {
		if err := tx.Delete(storage.Bucket(env, Bucket), c.key); err != nil {
			return err
		}
		if outcome == OutcomeRetry {
			j := c.job
			j.LastError = truncate(herr.Error(), 200)
			return Enqueue(tx, env, j, now.Add(p.BackoffAfter(j.Attempts)))
		}
		return h.Settle(ctx, tx, env, c.job, r, herr)
	})
	return outcome, err
}

// Counts returns how many jobs wait in each environment's queue, per kind (claimed
// jobs included).
func (q *Queue) Counts(ctx context.Context) (map[veriland.Environment]map[string]int, error) {
	out := make(map[veriland.Environment]map[string]int, 2)
	err := q.Store.View(ctx, func(tx storage.Tx) error {
		for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
			m := make(map[string]int)
			err := tx.Scan(storage.Bucket(env, Bucket), storage.Range{}, func(k, _ []byte) error {
				if kind, _, ok := parseKey(k); ok {
					m[kind]++
				}
				return nil
			})
			if err != nil {
				return err
			}
			out[env] = m
		}
		return nil
	})
	return out, err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
