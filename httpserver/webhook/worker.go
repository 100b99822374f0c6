package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// claim is one attempt a worker owns until its lease ends: everything needed to make it
// without reading storage again.
type claim struct {
	env     veriland.Environment
	id      string
	url     string
	payload []byte
	secrets []Secret
	token   string
}

// drawnJitter hands NextAttempt a number drawn before the transaction, so that the
// transaction function is a pure function of tx even when the store runs it twice.
type drawnJitter float64

func (d drawnJitter) Float64() float64 { return float64(d) }

// Run sends due deliveries until ctx is done, with up to Workers attempts at once. It
// looks for due work when Notify is called and every PollInterval. On return (nil once
// ctx is done) no attempt is in flight: attempts already claimed are finished and
// recorded first, which takes at most DeliveryTimeout. It returns an error only when
// the store is closed under it.
//
// Several Runs, in one process or in replicas sharing the store, may run at once: each
// attempt is claimed in a transaction (with an Outbox.ClaimLease-long lease) before it is made;
// leases are judged by each replica's clock, so replicas' clocks must agree to well
// within ClaimLease.
// Delivery is at least once: if a worker dies between the receiver's answer and the
// record of the attempt, the attempt is made again once the lease has expired; receivers
// drop repeats by webhook-id.
func (o *Outbox) Run(ctx context.Context) error {
	o.init()
	n := o.workers()
	slots := make(chan struct{}, n)
	var wg sync.WaitGroup
	defer wg.Wait()
	ticker := time.NewTicker(o.pollInterval())
	defer ticker.Stop()
	for {
		// Take one slot (waiting for a busy worker if need be), then every other free one.
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		free := 1
	take:
		for free < n {
			select {
			case slots <- struct{}{}:
				free++
			default:
				break take
			}
		}
		claims, finished, err := o.claimDue(ctx, free)
		for range free - len(claims) {
			<-slots
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, storage.ErrClosed) {
				return err
			}
			o.logger().Error("webhook outbox: claiming due deliveries", "err", err)
		}
		for _, c := range claims {
			wg.Go(func() {
				defer func() { <-slots }()
				_ = o.process(ctx, c)
			})
		}
		if err == nil && len(claims)+finished == free {
			continue // the batch was full: more may be due
		}
		select {
		case <-ctx.Done():
			return nil
		case <-o.wake:
		case <-ticker.C:
		}
	}
}

// RunOnce makes every attempt due at the clock's current time, up to Workers at once,
// and marks FAILED the deliveries whose window is over. It returns how many deliveries it
// attempted or failed. Attempts it schedules are due later than now, so it always ends;
// tests drive the retry schedule by moving a fake clock and calling RunOnce.
func (o *Outbox) RunOnce(ctx context.Context) (int, error) {
	o.init()
	total := 0
	for {
		claims, finished, err := o.claimDue(ctx, o.workers())
		total += finished
		if err != nil {
			return total, err
		}
		if len(claims) == 0 && finished == 0 {
			return total, nil
		}
		errs := make([]error, len(claims))
		var wg sync.WaitGroup
		for i, c := range claims {
			wg.Go(func() { errs[i] = o.process(ctx, c) })
		}
		wg.Wait()
		total += len(claims)
		if err := errors.Join(errs...); err != nil {
			return total, err
		}
	}
}

// claimDue takes up to max due deliveries in one transaction: each is leased to this
// worker (and moved in the due index to the end of its lease, where another worker finds
// it if this one never records the attempt), or marked FAILED when its window is over.
func (o *Outbox) claimDue(ctx context.Context, max int) (claims []claim, finished int, err error) {
	now := o.now()
	due := storage.Range{End: timeKey(now.Add(time.Nanosecond))}
	// Look before taking the write lock: an idle poll then costs a read, not a commit.
	anyDue := false
	err = o.Store.View(ctx, func(tx storage.Tx) error {
		anyDue = false
		return tx.Scan(storage.Global(dueBucket), due, func(_, _ []byte) error {
			anyDue = true
			return storage.ErrStop
		})
	})
	if err != nil || !anyDue {
		return nil, 0, err
	}
	token, err := ids.New(o.rand(), "lease")
	if err != nil {
		return nil, 0, err
	}
	var dropped []string
	err = o.Store.Update(ctx, func(tx storage.Tx) error {
		claims, finished, dropped = nil, 0, nil
		var keys [][]byte
		err := tx.Scan(storage.Global(dueBucket), due, func(k, _ []byte) error {
			keys = append(keys, bytes.Clone(k))
			if len(keys) == max {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			c, done, err := o.claimOne(ctx, tx, k, now, token)
			switch {
			case err != nil:
				return err
			case done:
				finished++
			case c != nil:
				claims = append(claims, *c)
			default:
				dropped = append(dropped, fmt.Sprintf("%x", k))
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("webhook: claiming deliveries: %w", err)
	}
	for _, k := range dropped {
		o.logger().Debug("webhook outbox: dropped a stale due-index entry", "key", k)
	}
	return claims, finished, nil
}

// claimOne handles one due-index key: a claim to attempt, done when the delivery was
// marked FAILED, or neither when the key was stale and has been removed.
func (o *Outbox) claimOne(ctx context.Context, tx storage.Tx, k []byte, now time.Time, token string) (*claim, bool, error) {
	dropKey := func() (*claim, bool, error) {
		return nil, false, tx.Delete(storage.Global(dueBucket), k)
	}
	env, id, err := parseDueKey(k)
	if err != nil || !env.Valid() {
		return dropKey()
	}
	r, err := loadRecord(tx, env, id)
	if errors.Is(err, storage.ErrNotFound) {
		return dropKey()
	}
	if errors.Is(err, errUnreadable) {
		// An unreadable record cannot be delivered; keep it out of the queue rather than
		// stall every worker on it. It stays in storage for inspection.
		o.logger().Error("webhook outbox: unreadable delivery", "env", env, "id", id, "err", err)
		return dropKey()
	}
	if err != nil {
		// A failed read (a serialization failure on PostgreSQL, say) aborts the claim:
		// the store retries it or the next poll does.
		return nil, false, err
	}
	if r.Status != StatusPending || r.DueAt.IsZero() || !bytes.Equal(dueKey(r.DueAt, r.Env, r.ID), k) || r.leased(now) {
		return dropKey()
	}
	if !r.FirstAttemptAt.IsZero() {
		_, more := retryOffset(r.windowAttempts())
		if !more || !now.Before(r.FirstAttemptAt.Add(DeliveryWindow)) {
			return nil, true, o.fail(ctx, tx, r)
		}
	} else {
		r.FirstAttemptAt = now
	}
	secrets, err := o.secrets.SigningSecrets(ctx, tx, env, r.Verifier, now)
	if err != nil {
		return nil, false, err
	}
	r.LeaseToken, r.LeaseUntil = token, now.Add(o.claimLease())
	if err := setDue(tx, r, r.LeaseUntil); err != nil {
		return nil, false, err
	}
	if err := saveRecord(tx, r); err != nil {
		return nil, false, err
	}
	return &claim{env: env, id: id, url: r.URL, payload: r.Payload, secrets: secrets, token: token}, false, nil
}

// fail marks r FAILED, takes it out of the due index and audits it, in tx.
func (o *Outbox) fail(ctx context.Context, tx storage.Tx, r *deliveryRecord) error {
	r.Status, r.NextAttemptAt, r.LeaseToken, r.LeaseUntil = StatusFailed, time.Time{}, "", time.Time{}
	if err := setDue(tx, r, time.Time{}); err != nil {
		return err
	}
	if err := saveRecord(tx, r); err != nil {
		return err
	}
	if o.Audit == nil {
		return nil
	}
	detail := map[string]any{"eventType": r.EventType, "verifier": r.Verifier, "attempts": r.windowAttempts()}
	if r.Account != "" && r.Env == veriland.Sandbox {
		detail[audit.DetailAccount] = r.Account
	}
	if n := len(r.Attempts); n > 0 {
		detail["lastStatusCode"] = r.Attempts[n-1].StatusCode
	}
	_, err := o.Audit.Append(ctx, tx, audit.Entry{
		Env: r.Env, Actor: "system", Action: "webhook.delivery_failed",
		Severity: audit.SeverityWarning, Outcome: audit.OutcomeFailure,
		ResourceType: "webhook_delivery", ResourceID: r.ID, Detail: detail,
	})
	return err
}

// process makes one claimed attempt and records it. Once claimed, an attempt is made and
// recorded even if ctx is cancelled meanwhile (it is bounded by DeliveryTimeout), so
// that shutting down never turns into a failed attempt.
func (o *Outbox) process(ctx context.Context, c claim) error {
	ctx = context.WithoutCancel(ctx)
	now := o.now()
	a, sandboxed := Attempt{}, false
	if !o.DisableSandboxReceiver {
		a, sandboxed = sandboxAttempt(c.env, c.url, now)
	}
	if !sandboxed {
		a = Deliver(ctx, o.client(c.env), c.url, c.secrets, c.id, c.payload, now)
	}
	if !a.Succeeded() {
		o.logger().Debug("webhook attempt failed", "env", c.env, "id", c.id, "status", a.StatusCode, "reason", a.Err)
	}
	if err := o.complete(ctx, c, a); err != nil {
		o.logger().Error("webhook outbox: recording an attempt", "env", c.env, "id", c.id, "err", err)
		return err
	}
	return nil
}

// complete records attempt a of claim c and decides what follows: SUCCEEDED, the next
// attempt on the schedule, or FAILED when the window is over.
func (o *Outbox) complete(ctx context.Context, c claim, a Attempt) error {
	rnd := drawnJitter(o.jitter())
	now := o.now()
	var failed bool
	err := o.Store.Update(ctx, func(tx storage.Tx) error {
		failed = false
		r, err := loadRecord(tx, c.env, c.id)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		r.Attempts = append(r.Attempts, attemptRecord(a))
		own := r.Status == StatusPending && r.LeaseToken == c.token
		switch {
		case a.Succeeded() && r.Status == StatusPending:
			// Even a worker whose lease was taken over records a success: the receiver
			// has the event, and the other worker's attempt then only adds to the log.
			r.Status, r.DeliveredAt, r.NextAttemptAt = StatusSucceeded, a.At.UTC(), time.Time{}
			r.LeaseToken, r.LeaseUntil = "", time.Time{}
			if err := setDue(tx, r, time.Time{}); err != nil {
				return err
			}
		case !own:
			// Another worker owns the delivery now (or it is no longer pending): only
			// the history changes.
		default:
			r.LeaseToken, r.LeaseUntil = "", time.Time{}
			deadline := r.FirstAttemptAt.Add(DeliveryWindow)
			if !now.Before(deadline) {
				failed = true
				return o.fail(ctx, tx, r)
			}
			next := nextAfter(r.FirstAttemptAt, r.windowAttempts(), now, rnd)
			if next.IsZero() || next.After(deadline) {
				next = deadline // no attempt left: declared FAILED when the window ends
			}
			r.NextAttemptAt = next
			if err := setDue(tx, r, next); err != nil {
				return err
			}
		}
		return saveRecord(tx, r)
	})
	if err == nil && failed {
		o.logger().Warn("webhook delivery failed", "env", c.env, "id", c.id)
	}
	return err
}

// nextAfter is the first slot of the schedule, from attempt number made on, that is
// later than now; zero when none is left. Slots missed while no worker ran are skipped
// rather than made in a burst.
func nextAfter(first time.Time, made int, now time.Time, rnd JitterSource) time.Time {
	for n := made; ; n++ {
		next, ok := NextAttempt(first, n, rnd)
		if !ok {
			return time.Time{}
		}
		if next.After(now) {
			return next
		}
	}
}
