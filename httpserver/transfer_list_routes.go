package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/parcel"
)

// listOpenTransfers answers GET /v1/transfers?status=PENDING_NOTARY: the open
// transfers the caller may read, newest first. A notary sees those that name it,
// whichever notary certified the parcel (GET /v1/parcels lists a notary only the
// parcels it certifies); an account's token its account's; an admin its
// environment's. status is required and PENDING_NOTARY is its only value for now,
// so that a later filter (or none) keeps the meaning of every URL issued today.
func (s *Server) listOpenTransfers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if q.Get("status") != string(parcel.TransferPendingNotary) {
		return invalidParam("status", "status is required and must be PENDING_NOTARY (the transfers awaiting their notary)")
	}
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	list, next, err := s.cfg.Parcels.OpenTransfers(r.Context(), principal(r), q.Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, t := range list {
		items = append(items, newResource(typeTransfers, t.ID, t, transferSelf(t.ID)))
	}
	s.writeCollection(w, r, items, next)
	return nil
}
