package consent

import (
	"context"
	"errors"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// DefaultSweepLimit is the number of requests ExpireDue expires per call when its
// limit is not positive.
const DefaultSweepLimit = 100

// Get returns request id of env (GET /verify/request/{id}, public). A PENDING request
// past its deadline is expired first — persisted, with exactly one EventExpired — so
// that no reader ever sees a PENDING request that can no longer be decided.
//
// Errors: not_found (unknown or malformed id, or a request of the other environment)
// and storage errors.
func (s *Service) Get(ctx context.Context, env veriland.Environment, id string) (*Request, error) {
	f, err := s.Find(ctx, []veriland.Environment{env}, id)
	if err != nil {
		return nil, err
	}
	r, _, err := s.current(ctx, f)
	return r, err
}

// Has reports whether request id exists in env, as Get would find it: nil, or
// Get's not_found error (unknown or malformed id, or a request of the other
// environment), or a storage error. It reads the key only: it neither decodes the
// record nor expires it, so a caller that goes on to Decide (which does both) reads
// the request once.
func (s *Service) Has(ctx context.Context, env veriland.Environment, id string) error {
	if err := s.check(env); err != nil {
		return err
	}
	return storage.ViewOne(ctx, s.Store, func(tx storage.Tx) error {
		_, err := repo(tx, env).requestBytes(id)
		return err
	})
}

// Found is a verification request as Find read it: the environment that holds it
// and its record, for DecideFound, which then does not read it again. Use it once,
// right away: DecideFound checks inside its transaction that the request is still
// stored as it was read.
type Found struct {
	Env veriland.Environment // the environment that holds the request
	id  string
	r   *Request
	raw []byte
}

// CallbackURL is the found request's callbackUrl, "" when it has none. It is set
// when the request is created and never changes, so a caller knows from it, before
// or after DecideFound, whether the decision can queue a webhook: none is queued for
// a request without one.
func (f *Found) CallbackURL() string { return f.r.CallbackURL }

// Find reads request id in the first of envs that holds it, in their order (one
// single-key read per environment tried), for a public route that learns the
// environment from the record (POST /consent/{requestId} without the environment
// header): the caller may apply the environment's rate limit and then DecideFound
// without reading the request twice.
//
// Errors: not_found when no environment of envs holds it (unknown or malformed id),
// and storage errors.
func (s *Service) Find(ctx context.Context, envs []veriland.Environment, id string) (*Found, error) {
	err := error(notFound(id))
	for _, env := range envs {
		if err := s.check(env); err != nil {
			return nil, err
		}
		var f *Found
		err = storage.ViewOne(ctx, s.Store, func(tx storage.Tx) error {
			r, raw, err := repo(tx, env).requestRaw(id)
			f = &Found{Env: env, id: id, r: r, raw: raw}
			return err
		})
		if err == nil {
			return f, nil
		}
		if !veriland.IsCode(err, veriland.CodeNotFound) {
			return nil, err
		}
	}
	return nil, err
}

// current returns the request of f, expired first when it is past its deadline,
// with the record as stored when it was read as it is (nil when it was expired).
func (s *Service) current(ctx context.Context, f *Found) (*Request, []byte, error) {
	if now := s.now(); f.r.due(now) {
		r, err := s.expireOne(ctx, f.Env, f.id, now)
		return r, nil, err
	}
	return f.r.Clone(), f.raw, nil
}

// expireOne expires request id if it is still due at now, and returns it as stored
// afterwards. Concurrent callers race in storage: one transitions, the others read
// the EXPIRED record, so the event is emitted once.
func (s *Service) expireOne(ctx context.Context, env veriland.Environment, id string, now time.Time) (*Request, error) {
	var out *Request
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r, err := repo(tx, env).request(id)
		if err != nil {
			return err
		}
		if r.due(now) {
			if err := s.expire(ctx, tx, r, now); err != nil {
				return err
			}
		}
		out = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pendingTx reads request id inside tx for a change that needs it PENDING at now.
// visible, when set, may hide the request from the caller (its error aborts tx). A
// request past its deadline is expired in tx first. refused is the invalid_state error
// to return once tx has committed, so that such an expiry is kept; err aborts tx.
func (s *Service) pendingTx(ctx context.Context, tx storage.Tx, env veriland.Environment, id string, now time.Time,
	action string, visible func(*Request) error) (r *Request, refused, err error) {
	r, err = repo(tx, env).request(id)
	if err != nil {
		return nil, nil, err
	}
	if visible != nil {
		if err := visible(r); err != nil {
			return nil, nil, err
		}
	}
	if r.due(now) {
		if err := s.expire(ctx, tx, r, now); err != nil {
			return nil, nil, err
		}
	}
	if r.Status != StatusPending {
		return nil, invalidState(r, action), nil
	}
	return r, nil, nil
}

// expire moves the due request r to EXPIRED inside tx and emits EventExpired. Its
// DecidedAt is its deadline, when it logically left PENDING, whenever the sweeper or a
// reader noticed.
func (s *Service) expire(ctx context.Context, tx storage.Tx, r *Request, now time.Time) error {
	r.Status = StatusExpired
	at := r.ExpiresAt
	r.DecidedAt = &at
	if err := repo(tx, r.Env).put(r); err != nil {
		return err
	}
	return s.emit(ctx, tx, Event{Env: r.Env, Type: EventExpired, Request: r, Actor: ActorSystem, At: now})
}

// ExpireDue is the background sweeper: it expires up to limit PENDING requests of both
// environments whose deadline is at or before now (limit ≤ 0: DefaultSweepLimit), each
// in its own transaction with its EventExpired, so that their webhooks go out even when
// nobody reads them. It reads the expiry index, never the whole request set. It returns
// how many it expired; a request that fails (its hook refused, say) is left PENDING for
// the next sweep and its error joined into the result.
func (s *Service) ExpireDue(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := s.check(veriland.Sandbox); err != nil {
		return 0, err
	}
	if limit <= 0 {
		limit = DefaultSweepLimit
	}
	now = now.UTC()
	var n int
	var errs []error
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		if n >= limit {
			break
		}
		var due []dueEntry
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			var err error
			due, err = repo(tx, env).due(now, limit-n)
			return err
		})
		if err != nil {
			return n, errors.Join(append(errs, err)...)
		}
		for _, entry := range due {
			if err := ctx.Err(); err != nil {
				return n, errors.Join(append(errs, err)...)
			}
			id := entry.id
			var expired bool
			err := s.Store.Update(ctx, func(tx storage.Tx) error {
				expired = false
				rp := repo(tx, env)
				r, err := rp.request(id)
				switch {
				case veriland.IsCode(err, veriland.CodeNotFound):
					// An entry without its request cannot be swept; drop it.
					return rp.unindex(entry.key)
				case err != nil:
					return err
				case !r.due(now):
					// Decided or expired meanwhile (its index entry went with it).
					return nil
				}
				expired = true
				return s.expire(ctx, tx, r, now)
			})
			switch {
			case err != nil:
				s.logger().WarnContext(ctx, "expiring verification request failed", "env", env, "requestId", id, "error", err)
				errs = append(errs, err)
			case expired:
				n++
			}
		}
	}
	return n, errors.Join(errs...)
}
