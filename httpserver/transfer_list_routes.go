package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/parcel"
)

// listOpenTransfers answers GET /v1/transfers?status=PENDING_NOTARY|PENDING_OWNER:
// the open transfers in that status the caller may read, newest first. A notary sees those that name it,
// whichever notary certified the parcel (GET /v1/parcels lists a notary only the
// parcels it certifies); an account's token its account's; an admin its
// environment's. status is required (PENDING_NOTARY: awaiting their notary, with
// how the owner consented; PENDING_OWNER: awaiting the owner's signature), so that a
// later filter (or none) keeps the meaning of every URL issued today.
func (s *Server) listOpenTransfers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	status := parcel.TransferStatus(q.Get("status"))
	if !status.Open() {
		return invalidParam("status", "status is required and must be PENDING_NOTARY (the transfers awaiting their notary) or PENDING_OWNER (awaiting the owner's signature)")
	}
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	list, next, err := s.cfg.Parcels.OpenTransfers(r.Context(), principal(r), status, q.Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, t := range list {
		s.withOwnerConsentURL(t)
		items = append(items, newResource(typeTransfers, t.ID, t, transferSelf(t.ID)))
	}
	s.writeCollection(w, r, items, next)
	return nil
}
