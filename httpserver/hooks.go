package httpserver

import (
	"context"

	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// installHooks makes the domain services record their state changes in the audit
// log (and, where verifiers listen, the webhook outbox) inside the transaction of the
// change. A hook an embedder set already is kept.
func (s *Server) installHooks() {
	if id := s.cfg.Identity; id != nil && id.OnChange == nil {
		id.OnChange = s.identityChanged
	}
}

func (s *Server) identityChanged(ctx context.Context, tx storage.Tx, ev identity.Event) error {
	detail := map[string]any{}
	if ev.From != "" {
		detail["from"] = string(ev.From)
	}
	if ev.To != "" {
		detail["to"] = string(ev.To)
	}
	if ev.ReviewID != "" {
		detail["reviewId"] = ev.ReviewID
		detail["reviewStatus"] = string(ev.ReviewStatus)
	}
	return s.audit(ctx, tx, audit.Entry{
		Env: ev.Env, Action: string(ev.Action), ResourceType: "identity", ResourceID: ev.DID,
		Severity: audit.SeverityInfo, Outcome: audit.OutcomeSuccess, Detail: detail,
	})
}
