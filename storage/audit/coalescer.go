package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// DefaultMaxKeys is the default Coalescer.MaxKeys.
const DefaultMaxKeys = 10_000

// OverflowAction is the action of the entry that counts, per environment and minute,
// the events whose key found the Coalescer full.
const OverflowAction = "audit.coalesce_overflow"

// Members that a coalesced entry's Detail gains; a template's own values for them are
// replaced.
const (
	DetailCount         = "count"         // number of events in the window
	DetailWindowStart   = "windowStart"   // RFC 3339 UTC start of the minute
	DetailWindowSeconds = "windowSeconds" // always 60
)

const (
	flushChunk      = 256              // entries per Update when flushing
	shutdownTimeout = 10 * time.Second // bound of Run's final flush
)

// Coalescer turns failures an outsider can trigger at will (bad tokens, 429s, bad
// webhook signatures) into one audit entry per environment, key and minute, carrying
// the number of events in Detail["count"], so that an attacker cannot turn rejected
// requests into unbounded durable writes (SPEC S2.6). (An event recorded while its
// minute is being flushed, or after FlushAll, starts a second entry for that minute;
// the counts still add up.)
//
// Events are counted in memory by Record and written by Flush, FlushAll or Run. Memory
// is bounded: at most MaxKeys distinct (key, minute) windows are pending per
// environment, and events whose key would exceed that are counted in one overflow
// entry (OverflowAction, WARNING) per environment and minute. So an attacker causes at
// most MaxKeys+1 durable writes per environment and minute, however many requests
// they send. Events still in memory when the process dies are lost; Run's final flush
// on shutdown writes them.
//
// The key is only held in memory and is never written: it may be built from a client
// IP or a token fingerprint. The written entry is the first entry recorded for the
// window (its action, severity, outcome, resource and detail) plus the count members.
//
// A Coalescer must not be copied after first use. It is safe for concurrent use.
type Coalescer struct {
	// Log writes the coalesced entries (a zero Log when nil).
	Log *Log
	// Now is the clock that assigns events to minutes (time.Now when nil).
	Now func() time.Time
	// MaxKeys caps the distinct windows pending per environment (DefaultMaxKeys
	// when 0).
	MaxKeys int
	// Logger receives Run's flush failures (slog.Default() when nil).
	Logger *slog.Logger

	mu      sync.Mutex
	pending map[veriland.Environment]*envWindows
}

// envWindows are the pending windows of one environment.
type envWindows struct {
	windows map[window]*tally
	keyed   int // windows that are not overflow windows
}

// windowsOf returns env's pending windows, creating them. c.mu must be held.
func (c *Coalescer) windowsOf(env veriland.Environment) *envWindows {
	if c.pending == nil {
		c.pending = map[veriland.Environment]*envWindows{}
	}
	ew := c.pending[env]
	if ew == nil {
		ew = &envWindows{windows: map[window]*tally{}}
		c.pending[env] = ew
	}
	return ew
}

// add inserts a window that is not pending yet.
func (ew *envWindows) add(w window, t *tally) {
	ew.windows[w] = t
	if !w.overflow {
		ew.keyed++
	}
}

// window is one (key, minute) of one environment; overflow windows have key "" and
// overflow set, so no caller key can collide with them.
type window struct {
	key      string
	minute   int64 // unix seconds of the minute's start
	overflow bool
}

type tally struct {
	template Entry
	count    int
}

// pendingWindow is a window taken out of the Coalescer for writing.
type pendingWindow struct {
	env veriland.Environment
	w   window
	t   tally
}

func (c *Coalescer) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Coalescer) maxKeys() int {
	if c.MaxKeys > 0 {
		return c.MaxKeys
	}
	return DefaultMaxKeys
}

// Record counts one event under (env, key) in the current minute. The first event of a
// window supplies the entry that will be written; e.Env is set to env, and Seq, ID,
// Time, PrevHash and Hash must be empty as for Append. It returns a validation_failed
// error when the first event's entry would be refused by Append; later events of the
// window are only counted.
func (c *Coalescer) Record(env veriland.Environment, key string, e Entry) error {
	e.Env = env
	if e.Severity == "" {
		e.Severity = SeverityInfo
	}
	w := window{key: key, minute: c.now().UTC().Truncate(time.Minute).Unix()}

	c.mu.Lock()
	if ew := c.pending[env]; ew != nil {
		if t := ew.windows[w]; t != nil {
			t.count++
			c.mu.Unlock()
			return nil
		}
	}
	c.mu.Unlock()

	// A new window: validate outside the lock, then insert (another goroutine may
	// have inserted it meanwhile).
	if err := e.validate(); err != nil {
		return err
	}
	e.Detail = maps.Clone(e.Detail)

	c.mu.Lock()
	defer c.mu.Unlock()
	ew := c.windowsOf(env)
	if t := ew.windows[w]; t != nil {
		t.count++
		return nil
	}
	if ew.keyed >= c.maxKeys() {
		w = window{minute: w.minute, overflow: true}
		if t := ew.windows[w]; t != nil {
			t.count++
			return nil
		}
		e = Entry{Env: env, Action: OverflowAction, Severity: SeverityWarning, Outcome: OutcomeFailure}
	}
	ew.add(w, &tally{template: e, count: 1})
	return nil
}

// Flush writes one entry for every window whose minute has closed, in transactions of
// its own, and forgets those windows. Windows that could not be written stay pending
// (with any events counted meanwhile) and the storage error is returned.
func (c *Coalescer) Flush(ctx context.Context, store storage.Store) error {
	cutoff := c.now().UTC().Truncate(time.Minute).Unix()
	return c.flush(ctx, store, func(w window) bool { return w.minute < cutoff })
}

// FlushAll writes every pending window, the current minute's included. Call it on
// shutdown (Run does).
func (c *Coalescer) FlushAll(ctx context.Context, store storage.Store) error {
	return c.flush(ctx, store, func(window) bool { return true })
}

// Run flushes closed windows every interval until ctx is done, then flushes
// everything with a context detached from ctx's cancellation (bounded by 10 s) and
// returns that flush's error. Failed periodic flushes are logged and retried at the
// next tick.
func (c *Coalescer) Run(ctx context.Context, store storage.Store, every time.Duration) error {
	if every <= 0 {
		return errors.New("audit: Coalescer.Run needs a positive interval")
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.Default()
	}
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			if err := c.Flush(ctx, store); err != nil && ctx.Err() == nil {
				logger.ErrorContext(ctx, "audit: flushing coalesced entries", "err", err)
			}
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
			defer cancel()
			return c.FlushAll(fctx, store)
		}
	}
}

func (c *Coalescer) flush(ctx context.Context, store storage.Store, due func(window) bool) error {
	batch := c.take(due)
	for len(batch) > 0 {
		// One transaction per chunk of one environment.
		n := 1
		for n < len(batch) && n < flushChunk && batch[n].env == batch[0].env {
			n++
		}
		chunk := batch[:n]
		err := store.Update(ctx, func(tx storage.Tx) error {
			for _, p := range chunk {
				if _, err := c.Log.Append(ctx, tx, p.entry()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			c.restore(batch)
			return fmt.Errorf("audit: writing coalesced entries: %w", err)
		}
		batch = batch[n:]
	}
	return nil
}

// take removes the due windows, ordered by environment, minute and key.
func (c *Coalescer) take(due func(window) bool) []pendingWindow {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []pendingWindow
	for env, ew := range c.pending {
		for w, t := range ew.windows {
			if due(w) {
				out = append(out, pendingWindow{env: env, w: w, t: *t})
				delete(ew.windows, w)
				if !w.overflow {
					ew.keyed--
				}
			}
		}
		if len(ew.windows) == 0 {
			delete(c.pending, env)
		}
	}
	slices.SortFunc(out, func(a, b pendingWindow) int {
		return cmp.Or(cmp.Compare(a.env, b.env), cmp.Compare(a.w.minute, b.w.minute),
			compareBool(a.w.overflow, b.w.overflow), cmp.Compare(a.w.key, b.w.key))
	})
	return out
}

// restore puts windows that were not written back, adding their counts to any events
// recorded since they were taken. It may briefly exceed MaxKeys.
func (c *Coalescer) restore(batch []pendingWindow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range batch {
		ew := c.windowsOf(p.env)
		if t := ew.windows[p.w]; t != nil {
			t.count += p.t.count
			continue
		}
		t := p.t
		ew.add(p.w, &t)
	}
}

// entry is the audit entry of a window: its template plus the count members.
func (p pendingWindow) entry() Entry {
	e := p.t.template
	detail := make(map[string]any, len(e.Detail)+3)
	maps.Copy(detail, e.Detail)
	detail[DetailCount] = p.t.count
	detail[DetailWindowStart] = time.Unix(p.w.minute, 0).UTC().Format(time.RFC3339)
	detail[DetailWindowSeconds] = 60
	e.Detail = detail
	return e
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
