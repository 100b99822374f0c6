package consent

import (
	"context"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Cancel withdraws request id (POST /verify/request/{id}/cancel). Only the verifier
// that created it may: same sub and same account; anyone else gets not_found, so that
// a request id leaks nothing to other verifiers. Only a PENDING request can be
// cancelled; OnEvent sees EventCancelled in the same transaction.
//
// Errors: not_found; invalid_state with the current status in Meta["status"] (a request
// past its deadline is expired — persisted, with its event — and reported EXPIRED);
// storage errors.
func (s *Service) Cancel(ctx context.Context, env veriland.Environment, id string, by veriland.Principal) (*Request, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	now := s.now()
	var out *Request
	var refused error // returned after the transaction commits (an expiry is kept)
	owner := func(r *Request) error {
		if r.Verifier != by.Subject || r.Account != by.Account || (by.Env != "" && by.Env != env) {
			return notFound(id)
		}
		return nil
	}
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		out = nil
		r, rf, err := s.pendingTx(ctx, tx, env, id, now, "cancel", owner)
		if refused = rf; err != nil || refused != nil {
			return err
		}
		r.Status = StatusCancelled
		r.DecidedAt = &now
		if err := repo(tx, env).put(r); err != nil {
			return err
		}
		out = r
		return s.emit(ctx, tx, Event{Env: env, Type: EventCancelled, Request: r, Actor: by.Subject, At: now})
	})
	if err != nil {
		return nil, err
	}
	if refused != nil {
		return nil, refused
	}
	return out, nil
}
