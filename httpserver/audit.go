package httpserver

import (
	"context"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// audit appends e to its environment's chain inside tx, the transaction of the state
// change it records.
func (s *Server) audit(ctx context.Context, tx storage.Tx, e audit.Entry) error {
	_, err := s.auditLog.Append(ctx, tx, e)
	return err
}

// listAudit answers GET /v1/audit (admin) for the caller's environment.
func (s *Server) listAudit(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := audit.Filter{Severity: audit.Severity(q.Get("severity")), Action: q.Get("action"), Cursor: q.Get("cursor")}
	if p := principal(r); p.Env == veriland.Sandbox {
		f.Account = p.Account // each account's sandbox sees its own entries (SPEC S2.3)
	}
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return invalidParam("since", "since must be an RFC 3339 timestamp")
		}
		f.Since = t
	}
	if v := q.Get("limit"); v != "" {
		pg, err := parsePage(r)
		if err != nil {
			return err
		}
		f.Limit = pg.limit
	}
	entries, next, err := audit.List(r.Context(), s.cfg.Store, principal(r).Env, f)
	if err != nil {
		return err
	}
	items := make([]resource, len(entries))
	for i, e := range entries {
		items[i] = newResource("audit-entries", e.ID, e, "")
	}
	s.writeCollection(w, r, items, next)
	return nil
}

// verifyAudit answers GET /v1/audit/verify (admin): it recomputes the caller's
// environment chain.
func (s *Server) verifyAudit(w http.ResponseWriter, r *http.Request) error {
	rep, err := audit.Verify(r.Context(), s.cfg.Store, principal(r).Env)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusOK, "audit-verifications", string(principal(r).Env), rep, "")
	return nil
}
