package bolt

import (
	"context"
	"errors"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/veriland/veriland/storage"
)

// call is one Update waiting for a commit.
type call struct {
	ctx  context.Context
	fn   func(storage.Tx) error
	done chan error    // the outcome, sent once
	lead chan struct{} // closed-over signal: this caller commits the next batch
}

// panicked carries a panic out of a batched transaction to the goroutine that
// called Update, which re-panics with it.
type panicked struct{ value any }

func (p panicked) Error() string { return fmt.Sprintf("bolt: transaction panicked: %v", p.value) }

// Update runs fn in a read-write transaction with group commit: concurrent callers
// queue, and one of them (the leader) commits everything queued so far in one bbolt
// transaction and one fsync. A lone writer commits at once, with no batching delay.
// When one function of a batch fails, the batch is rolled back, that function is run
// again on its own to get its authoritative error, and the others are retried: fn
// must be safe to run more than once.
//
// A panic in fn rolls its transaction back and is re-raised in the caller of Update.
// When ctx is done before fn returns, nothing of fn is committed and Update returns
// ctx's error, even if fn swallowed the error its Tx returned.
func (s *Store) Update(ctx context.Context, fn func(tx storage.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &call{ctx: ctx, fn: fn, done: make(chan error, 1), lead: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return storage.ErrClosed
	}
	s.queue = append(s.queue, c)
	if !s.leading {
		s.leading = true
		s.mu.Unlock()
		s.leadBatch()
	} else {
		s.mu.Unlock()
		select {
		case err := <-c.done:
			return rethrow(err)
		case <-c.lead:
			s.leadBatch()
		}
	}
	return rethrow(<-c.done)
}

func rethrow(err error) error {
	var p panicked
	if errors.As(err, &p) {
		panic(p.value)
	}
	return err
}

// errAborted answers the calls of a batch whose leader goroutine stopped without
// finishing it: a function called runtime.Goexit (t.FailNow in a test, for one), or
// bbolt itself panicked. The batch was rolled back; nothing of it is durable.
var errAborted = errors.New("bolt: batch aborted (a transaction function exited its goroutine); nothing was committed")

// leadBatch commits one batch from the queue, then hands leadership to the oldest
// waiting caller, so that no caller leads for longer than one commit. It hands
// leadership on and answers every call of the batch even when the leader's
// goroutine unwinds abnormally, so that one bad function can never stall the writers
// queued behind it.
func (s *Store) leadBatch() {
	s.mu.Lock()
	n := min(len(s.queue), s.maxBatch)
	batch := s.queue[:n:n]
	s.queue = s.queue[n:]
	s.mu.Unlock()

	finished := false
	defer func() {
		if !finished {
			for _, c := range batch {
				select {
				case c.done <- errAborted: // unanswered: the batch was rolled back
				default: // already answered
				}
			}
		}
		s.handOff()
	}()
	s.commit(batch)
	finished = true
}

// handOff passes leadership to the oldest queued caller, or ends it.
func (s *Store) handOff() {
	s.mu.Lock()
	if len(s.queue) > 0 {
		next := s.queue[0]
		s.mu.Unlock()
		next.lead <- struct{}{}
		return
	}
	s.leading = false
	s.mu.Unlock()
}

func (s *Store) commit(batch []*call) {
	for len(batch) > 0 {
		failed := -1
		var failErr error
		start := time.Now()
		err := s.db.Update(func(btx *bbolt.Tx) error {
			fnStart := time.Now()
			defer func() { s.fnTime.Add(int64(time.Since(fnStart))) }()
			for i, c := range batch {
				if err := runGuarded(c, btx); err != nil {
					failed, failErr = i, err
					return err
				}
			}
			return nil
		})
		s.lockNs.Add(int64(time.Since(start)))
		switch {
		case err == nil:
			s.commits.Add(1)
			s.txs.Add(uint64(len(batch)))
			for _, c := range batch {
				c.done <- nil
			}
			return
		case failed < 0: // the commit itself failed: nothing is durable
			if errors.Is(err, bbolt.ErrDatabaseNotOpen) {
				err = storage.ErrClosed
			} else {
				err = fmt.Errorf("%w: %w", storage.ErrUnavailable, err)
			}
			for _, c := range batch {
				c.done <- err
			}
			return
		case len(batch) == 1:
			batch[0].done <- failErr
			return
		default:
			bad := batch[failed]
			rest := make([]*call, 0, len(batch)-1)
			rest = append(rest, batch[:failed]...)
			batch = append(rest, batch[failed+1:]...)
			s.commit([]*call{bad})
		}
	}
}

func runGuarded(c *call, btx *bbolt.Tx) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicked{value: v}
		}
	}()
	if err := c.ctx.Err(); err != nil {
		return err
	}
	if err := c.fn(&tx{ctx: c.ctx, btx: btx}); err != nil {
		return err
	}
	// A context cancelled while fn ran fails the transaction even when fn swallowed
	// the error one of its operations returned: its writes may be incomplete.
	return c.ctx.Err()
}
