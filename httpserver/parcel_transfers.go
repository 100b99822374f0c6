package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/parcel"
)

// requestTransfer answers POST /v1/parcels/{id}/transfer {newOwner, notary}: 202
// with the transfer, PENDING_NOTARY.
func (s *Server) requestTransfer(w http.ResponseWriter, r *http.Request) error {
	var req parcel.TransferRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := req.Validate(); err != nil {
		return err
	}
	p := principal(r)
	// The owner's page names who asked by its API key's name, never a name the
	// request chose for itself.
	name, err := s.apiKeyName(r, p)
	if err != nil {
		return err
	}
	req.RequesterName = name
	t, err := s.cfg.Parcels.RequestTransfer(r.Context(), p, r.PathValue("id"), req)
	s.notifyWebhooks()
	s.WakeChainJobs() // a sandbox notary approves at once
	if err != nil {
		return err
	}
	s.withOwnerConsentURL(t)
	s.writeResource(w, r, http.StatusAccepted, typeTransfers, t.ID, t, transferSelf(t.ID))
	return nil
}

// listParcelTransfers answers GET /v1/parcels/{id}/transfers, newest first.
func (s *Server) listParcelTransfers(w http.ResponseWriter, r *http.Request) error {
	list, err := s.cfg.Parcels.ListTransfers(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, t := range list {
		s.withOwnerConsentURL(t)
		items = append(items, newResource(typeTransfers, t.ID, t, transferSelf(t.ID)))
	}
	s.writeCollection(w, r, items, "")
	return nil
}

// getTransfer answers GET /v1/transfers/{id}.
func (s *Server) getTransfer(w http.ResponseWriter, r *http.Request) error {
	t, err := s.cfg.Parcels.GetTransfer(r.Context(), principal(r), r.PathValue("id"))
	s.notifyWebhooks() // a read may have expired the transfer
	return s.transferAnswer(w, r, t, err)
}

// approveTransfer answers POST /v1/transfers/{id}/approve (the transfer's named
// notary or admin; anyone else 403).
func (s *Server) approveTransfer(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	t, err := s.cfg.Parcels.ApproveTransfer(r.Context(), principal(r), r.PathValue("id"))
	s.notifyWebhooks()
	s.WakeChainJobs()
	return s.transferAnswer(w, r, t, err)
}

// rejectTransfer answers POST /v1/transfers/{id}/reject {reason?}.
func (s *Server) rejectTransfer(w http.ResponseWriter, r *http.Request) error {
	reason, err := decodeReason(r)
	if err != nil {
		return err
	}
	t, err := s.cfg.Parcels.RejectTransfer(r.Context(), principal(r), r.PathValue("id"), reason)
	s.notifyWebhooks()
	return s.transferAnswer(w, r, t, err)
}

// cancelTransfer answers POST /v1/transfers/{id}/cancel (its creator or admin).
func (s *Server) cancelTransfer(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	t, err := s.cfg.Parcels.CancelTransfer(r.Context(), principal(r), r.PathValue("id"))
	s.notifyWebhooks()
	return s.transferAnswer(w, r, t, err)
}

func (s *Server) transferAnswer(w http.ResponseWriter, r *http.Request, t *parcel.Transfer, err error) error {
	if err != nil {
		return err
	}
	s.withOwnerConsentURL(t)
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeTransfers, t.ID, t, transferSelf(t.ID))})
	return nil
}
