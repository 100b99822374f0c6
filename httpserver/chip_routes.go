package httpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// chipVerifyBody is the wire form of POST /identity/chip-verify: binding.Request
// with its data groups kept raw, so that each element is decoded on its own and an
// error inside one (a number that is not an integer, an unknown member) is reported
// at its own pointer, /dataGroups/{i}/…; encoding/json names no array index.
type chipVerifyBody struct {
	SODBase64             string            `json:"sodBase64"`
	DataGroups            []json.RawMessage `json:"dataGroups"`
	LivenessAttestationID string            `json:"livenessAttestationId"`
	LiveFaceTemplate      string            `json:"liveFaceTemplate"`
	ChipFaceTemplate      string            `json:"chipFaceTemplate"`
}

// decodeChipVerify decodes a chip-verify body strictly (unknown members, wrong types
// and malformed elements are 400 with their pointers) into a binding.Request, whose
// Validate then checks the values. The old members sod, faceTemplate and a map of
// data groups are refused (unknown_field; validation_failed at /dataGroups).
func decodeChipVerify(body []byte) (binding.Request, error) {
	var wire chipVerifyBody
	if err := decodeStrict(body, &wire); err != nil {
		return binding.Request{}, err
	}
	req := binding.Request{
		SODBase64: wire.SODBase64, LivenessAttestationID: wire.LivenessAttestationID,
		LiveFaceTemplate: wire.LiveFaceTemplate, ChipFaceTemplate: wire.ChipFaceTemplate,
	}
	if wire.DataGroups != nil {
		req.DataGroups = make([]binding.DataGroup, 0, len(wire.DataGroups))
	}
	var errs veriland.Errors
	for i, raw := range wire.DataGroups {
		ptr := "/dataGroups/" + strconv.Itoa(i)
		if j := skipSpace(raw, 0); j >= len(raw) || raw[j] != '{' {
			errs = append(errs, veriland.Invalid(ptr, "each data group must be an object {number, contentBase64}"))
			continue
		}
		var g binding.DataGroup
		if err := decodeStrict(raw, &g); err != nil {
			errs = append(errs, prefixPointers(ptr, err)...)
			continue
		}
		req.DataGroups = append(req.DataGroups, g)
	}
	if err := errs.Err(); err != nil {
		return binding.Request{}, err
	}
	return req, nil
}

// prefixPointers returns the errors of err with prefix put before their pointers.
func prefixPointers(prefix string, err error) veriland.Errors {
	list := veriland.ErrorList(err)
	if list == nil {
		return veriland.Errors{veriland.Invalid(prefix, "invalid data group")}
	}
	out := make(veriland.Errors, len(list))
	for i, e := range list {
		c := *e
		c.Pointer = prefix + e.Pointer
		if c.Code == veriland.CodeInvalidJSON {
			c.Code = veriland.CodeValidationFailed
		}
		out[i] = &c
	}
	return out
}

// chipVerify answers POST /identity/chip-verify (holder; 2 MiB): passive
// authentication of the passport chip, the liveness gate, the optional face match,
// and the CHIP_BINDING attestation.
func (s *Server) chipVerify(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(r, nil)
	if err != nil {
		return err // *http.MaxBytesError → 413
	}
	req, err := decodeChipVerify(body)
	if err != nil {
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
