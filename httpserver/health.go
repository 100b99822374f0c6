package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/veriland/veriland/storage"
)

type healthBody struct {
	Status  string            `json:"status"`
	Version string            `json:"version"`
	Checks  map[string]string `json:"checks"`
}

// healthTimeout is how long the storage probe of GET /v1/health may take at least
// before it counts as failed; it may take up to half as long again (probeDeadline).
const healthTimeout = 2 * time.Second

// health answers GET /v1/health: a plain JSON body (not JSON:API) so that load
// balancers and probes can read it; 503 "down" when storage fails or does not
// answer within healthTimeout (to 1.5×). One read transaction, cheap enough to
// poll every second. A check that fails after the client hung up is not a storage
// failure: it is answered like any cancelled request (see the package
// documentation), never 503.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	err := s.cfg.Store.View(s.probeDeadline.context(time.Now()), healthProbe)
	if err != nil && r.Context().Err() != nil {
		// The client went away: not a storage failure (no 503, no "down").
		return errors.Join(r.Context().Err(), err)
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "health: storage check failed", "err", err)
		writeEncoded(w, http.StatusServiceUnavailable, mediaJSON, s.healthDown)
		return nil
	}
	writeEncoded(w, http.StatusOK, mediaJSON, s.healthOK)
	return nil
}

// sharedDeadline hands the health probes one context with a deadline, replaced
// when less than timeout is left, so that every probe has between timeout and
// 1.5×timeout, and a probe neither derives a context nor starts and stops a
// timer of its own: under a flood of probes that was about 7% of the route's
// throughput. The probe does not see the request's context, so a client that
// hangs up does not cut a probe short; the deadline bounds it all the same.
type sharedDeadline struct {
	timeout time.Duration
	cur     atomic.Pointer[deadlineContext]
}

type deadlineContext struct {
	ctx      context.Context
	deadline time.Time
	// cancel releases the timer early; it is never called, since probes may still
	// hold ctx when it is replaced, and the timer ends at the deadline anyway.
	cancel context.CancelFunc
}

// context returns a context whose deadline is at least d.timeout after now.
func (d *sharedDeadline) context(now time.Time) context.Context {
	if c := d.cur.Load(); c != nil && c.deadline.Sub(now) >= d.timeout {
		return c.ctx
	}
	deadline := now.Add(d.timeout + d.timeout/2)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	d.cur.Store(&deadlineContext{ctx: ctx, deadline: deadline, cancel: cancel})
	return ctx
}

// healthBucket and healthKey are what the health probe reads: a key that is never
// written, so the probe is one B-tree lookup that answers "not found".
var (
	healthBucket = storage.Global("health")
	healthKey    = []byte("probe")
)

// healthProbe is the storage check of GET /v1/health: a read that must reach the
// store. A package-level function, so that a probe allocates no closure.
func healthProbe(tx storage.Tx) error {
	_, err := tx.Get(healthBucket, healthKey)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// healthBodies encodes the health body for storage "ok" (status "ok") and for storage
// "down" (status "down"), with the other checks as given, as writeJSON would.
func healthBodies(version string, checks map[string]string) (ok, down []byte) {
	body := func(status string) []byte {
		all := maps.Clone(checks)
		all["storage"] = status
		b, _ := json.Marshal(healthBody{Status: status, Version: version, Checks: all}) // strings always encode
		return append(b, '\n')
	}
	return body("ok"), body("down")
}
