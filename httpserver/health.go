package httpserver

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/veriland/veriland/storage"
)

type healthBody struct {
	Status  string            `json:"status"`
	Version string            `json:"version"`
	Checks  map[string]string `json:"checks"`
}

// health answers GET /v1/health: a plain JSON body (not JSON:API) so that load
// balancers and probes can read it; 503 "down" when storage fails. One read
// transaction, cheap enough to poll every second. A check cut short because the
// request's own context ended (the client hung up) is not a storage failure: it is
// answered like any cancelled request (see the package documentation), never 503.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	body := healthBody{Status: "ok", Version: s.cfg.Version, Checks: map[string]string{"storage": "ok"}}
	err := s.cfg.Store.View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get(storage.Global("health"), []byte("probe"))
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil && r.Context().Err() != nil {
		// The client went away: not a storage failure (no 503, no "down").
		return errors.Join(r.Context().Err(), err)
	}
	status := http.StatusOK
	if err != nil {
		s.log.ErrorContext(r.Context(), "health: storage check failed", "err", err)
		body.Status, body.Checks["storage"], status = "down", "down", http.StatusServiceUnavailable
	}
	for name, check := range s.healthChecks {
		body.Checks[name] = check()
	}
	s.writeJSONAs(w, status, mediaJSON, body)
	return nil
}
