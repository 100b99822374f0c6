package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
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
	err := s.cfg.Store.View(ctx, healthProbe)
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
