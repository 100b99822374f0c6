package httpserver

import (
	"context"
	"net/http"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// chipVerify answers POST /identity/chip-verify (holder; 2 MiB): passive
// authentication of the passport chip, the liveness gate, the optional face match,
// and the CHIP_BINDING attestation.
func (s *Server) chipVerify(w http.ResponseWriter, r *http.Request) error {
	var req binding.Request
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	p := principal(r)
	res, err := s.cfg.ChipBinding.Bind(r.Context(), p.Env, p, req)
	if err != nil {
		s.metrics.verification("chip", "refused")
		return err
	}
	s.metrics.verification("chip", string(res.Mode))
	s.writeJSON(w, r, http.StatusCreated, res)
	return nil
}

// myChipBindings answers GET /identity/chip-bindings/me (holder).
func (s *Server) myChipBindings(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	list, err := s.cfg.ChipBinding.ListBindings(r.Context(), p.Env, p)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, itemsJSON[*attestation.Attestation]{Items: list})
	return nil
}

func (s *Server) chipBindingEvent(ctx context.Context, tx storage.Tx, ev binding.Event) error {
	e := auditEntry(ev.Env, string(ev.Action), "chip_binding", ev.AttestationID, "", map[string]any{})
	if ev.Action == binding.ActionBound {
		e.Detail["mode"] = string(ev.Mode)
		e.Detail["rebound"] = ev.Rebound
	} else {
		e.Severity, e.Outcome = audit.SeverityNotice, audit.OutcomeFailure
		e.Detail["code"] = string(ev.Code)
		if ev.Step != "" {
			e.Detail["step"] = ev.Step
		}
	}
	return s.audit(ctx, tx, e)
}
