package httpserver

import (
	"context"
	"net/http"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// sandboxView is the attributes of GET /v1/sandbox/scenarios and of the reset's
// answer: the account's seeded records and every scenario.
type sandboxView struct {
	*sandbox.State
	Scenarios []sandbox.Scenario `json:"scenarios"`
}

// sandboxAccount returns the caller's account when the token is a SANDBOX one with an
// account: the sandbox routes exist only there.
func sandboxAccount(r *http.Request) (veriland.Principal, error) {
	p := principal(r)
	if p.Env != veriland.Sandbox {
		return p, veriland.Errorf(veriland.CodeForbidden, "the sandbox routes take a SANDBOX token")
	}
	if p.Account == "" {
		return p, veriland.Errorf(veriland.CodeForbidden, "the sandbox belongs to an account: this token has no acct claim")
	}
	return p, nil
}

// sandboxScenarios answers GET /v1/sandbox/scenarios: the seeded records (seeding them
// now if the account's first request could not) and every scenario with its input and
// expected outcome.
func (s *Server) sandboxScenarios(w http.ResponseWriter, r *http.Request) error {
	p, err := sandboxAccount(r)
	if err != nil {
		return err
	}
	st, err := s.cfg.Sandbox.Ensure(r.Context(), p.Account)
	if err != nil {
		return err
	}
	s.writeSandbox(w, r, http.StatusOK, st)
	return nil
}

func (s *Server) writeSandbox(w http.ResponseWriter, r *http.Request, status int, st *sandbox.State) {
	view := sandboxView{State: st, Scenarios: sandbox.Scenarios(s.cfg.PublicOrigin, st.Seeded)}
	s.writeJSON(w, r, status, document{Data: newResource("sandbox", st.Account, view, "/v1/sandbox/scenarios")})
}

// resetSandbox answers POST /v1/sandbox/reset (admin or verifier of the account):
// erases the account's SANDBOX records service by service — parcels and transfers,
// verification requests and their consent attestations, the seeded holder and its
// attestations, assistant sessions, webhook deliveries, API keys other than the one
// making the call — audits the reset, and seeds the sandbox again. The audit log is
// append-only and keeps its entries.
func (s *Server) resetSandbox(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	p, err := sandboxAccount(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	counts, err := s.purgeSandbox(ctx, p)
	if err != nil {
		return err
	}
	if err := s.cfg.Sandbox.Forget(ctx, p.Account); err != nil {
		return err
	}
	err = s.cfg.Store.Update(ctx, func(tx storage.Tx) error {
		return s.audit(ctx, tx, audit.Entry{Env: veriland.Sandbox, Action: "sandbox.reset", ResourceType: "sandbox", ResourceID: p.Account,
			Severity: audit.SeverityNotice, Outcome: audit.OutcomeSuccess, Detail: map[string]any{"account": p.Account, "erased": counts}})
	})
	if err != nil {
		return err
	}
	st, err := s.cfg.Sandbox.Ensure(ctx, p.Account)
	s.notifyWebhooks()
	if err != nil {
		return err
	}
	s.writeSandbox(w, r, http.StatusOK, st)
	return nil
}

// purgeSandbox erases p's account's SANDBOX records and returns how many records of
// each kind went.
func (s *Server) purgeSandbox(ctx context.Context, p veriland.Principal) (map[string]int, error) {
	counts := map[string]int{}
	st, err := s.cfg.Sandbox.State(ctx, p.Account)
	if err != nil {
		return nil, err
	}
	if s.cfg.Consent != nil {
		n, consents, err := s.cfg.Consent.PurgeSandboxAccount(ctx, p.Account)
		if err != nil {
			return nil, err
		}
		counts["verificationRequests"] = n
		if s.cfg.Attestations != nil && len(consents) > 0 {
			if counts["attestations"], err = s.cfg.Attestations.PurgeSandbox(ctx, consents); err != nil {
				return nil, err
			}
		}
	}
	if st != nil && st.Seeded.Holder.SubjectRef != "" && s.cfg.Identity != nil {
		n, did, err := s.cfg.Identity.PurgeSandboxSubject(ctx, st.Seeded.Holder.SubjectRef)
		if err != nil {
			return nil, err
		}
		counts["identities"] = n
		if did != "" && s.cfg.Attestations != nil {
			k, err := s.cfg.Attestations.PurgeSandboxSubject(ctx, did)
			if err != nil {
				return nil, err
			}
			counts["attestations"] += k
		}
	}
	steps := []struct {
		name string
		on   bool
		run  func() (int, error)
	}{
		{"parcels", s.cfg.Parcels != nil, func() (int, error) { return s.cfg.Parcels.PurgeSandboxAccount(ctx, p.Account) }},
		{"webhookDeliveries", s.cfg.Outbox != nil, func() (int, error) { return s.cfg.Outbox.PurgeSandboxAccount(ctx, p.Account) }},
		{"assistantSessions", s.cfg.Assistant != nil, func() (int, error) { return s.cfg.Assistant.PurgeSandboxAccount(ctx, p.Account) }},
		{"apiKeys", true, func() (int, error) { return s.purgeSandboxAPIKeys(ctx, p.Account, p.TokenID) }},
	}
	for _, step := range steps {
		if !step.on {
			continue
		}
		n, err := step.run()
		if err != nil {
			return nil, err
		}
		counts[step.name] = n
	}
	return counts, nil
}
