package httpserver

import (
	"net/http"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/httpserver/ownerconsentpage"
	"github.com/veriland/veriland/parcel"
)

// JSON:API resource types of the owner routes (SPEC S13).
const (
	typeOwnerConsents = "owner-consents"
	typeOwnedParcels  = "owned-parcels"
)

// ownerConsentPath is the owner's page of transfer id, relative to the origin.
func ownerConsentPath(id string) string { return "/v1/transfers/" + id + "/owner-consent" }

// ownerConsentURL is the absolute owner's page of transfer id.
func (s *Server) ownerConsentURL(id string) string {
	return strings.TrimRight(s.cfg.PublicOrigin, "/") + ownerConsentPath(id)
}

// withOwnerConsentURL fills in the owner's page of a transfer that waits or waited
// for the owner's signature.
func (s *Server) withOwnerConsentURL(t *parcel.Transfer) {
	if t != nil && t.OwnerConsent != nil && t.OwnerConsent.Method == parcel.ConsentOwnerSignature {
		t.OwnerConsent.URL = s.ownerConsentURL(t.ID)
	}
}

// ownerConsentContext answers GET /v1/transfers/{id}/owner-consent (public): what the
// parcel's owner is asked to sign, with no name in it. A client that prefers
// text/html gets the hosted owner page instead, which reads this URL as JSON itself.
func (s *Server) ownerConsentContext(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	id := r.PathValue("id")
	if consentpage.PrefersHTML(r.Header.Get("Accept")) {
		return s.ownerConsentPage(w, r, id)
	}
	// Like the page and the decision, the document finds the transfer in whichever
	// environment holds it: its id is unguessable and the owner holds no token.
	env, err := s.cfg.Parcels.TransferEnv(r.Context(), id)
	if err != nil {
		return err
	}
	view, err := s.cfg.Parcels.OwnerConsentContext(r.Context(), env, id)
	s.notifyWebhooks() // a read may have expired the transfer
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeOwnerConsents, id, view, ownerConsentPath(id))})
	return nil
}

// ownerConsentPage serves the hosted owner page of transfer id in the language that
// ?lang= or Accept-Language asks for, or its 404 page when no environment holds it.
func (s *Server) ownerConsentPage(w http.ResponseWriter, r *http.Request, id string) error {
	env, err := s.cfg.Parcels.TransferEnv(r.Context(), id)
	p, err := s.pageParams(w, r, ownerConsentPath(id), env, err)
	if err != nil {
		return err
	}
	return ownerconsentpage.Write(w, p)
}

// decideOwnerConsent answers POST /v1/transfers/{id}/owner-consent (public, rate
// limited per ownerAddress): the owner's signed APPROVED or REJECTED. 200 with the
// transfer.
func (s *Server) decideOwnerConsent(w http.ResponseWriter, r *http.Request) error {
	var d parcel.OwnerDecision
	if err := decodeJSON(r, &d); err != nil {
		return err
	}
	id := r.PathValue("id")
	env, err := s.cfg.Parcels.TransferEnv(r.Context(), id)
	if err != nil {
		return err
	}
	if addr := strings.ToLower(d.OwnerAddress); addr != "" {
		if err := s.limitKey(w, r, env, "wallet:"+addr, s.policy("consent", s.cfg.RateLimits.Wallet)); err != nil {
			return err
		}
	}
	t, err := s.cfg.Parcels.DecideOwner(r.Context(), env, id, d)
	s.notifyWebhooks()
	s.WakeChainJobs() // a sandbox notary completes the transfer at once
	if err != nil {
		s.metrics.verification("transfer_owner_consent", string(veriland.CodeOf(err)))
		if veriland.IsCode(err, veriland.CodeInvalidSignature) {
			s.coalesce(env, "owner_signature:"+id, auditFailure(env, "transfer.owner_signature_refused", "invalid_signature"))
		}
		return err
	}
	s.metrics.verification("transfer_owner_consent", strings.ToLower(d.Decision))
	return s.transferAnswer(w, r, t, nil)
}

// myParcels answers GET /v1/me/parcels (holder): the parcels whose bound owner
// wallet is the token's wallet, newest first, cursor-paginated.
func (s *Server) myParcels(w http.ResponseWriter, r *http.Request) error {
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	list, next, err := s.cfg.Parcels.MyParcels(r.Context(), principal(r), r.URL.Query().Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, p := range list {
		res := newResource(typeOwnedParcels, p.ID, p, "")
		if p.OpenTransfer != nil && p.OpenTransfer.Status == parcel.TransferPendingOwner {
			res.Links = &resourceLinks{OwnerConsent: s.ownerConsentURL(p.OpenTransfer.ID)}
		}
		items = append(items, res)
	}
	s.writeCollection(w, r, items, next)
	return nil
}
