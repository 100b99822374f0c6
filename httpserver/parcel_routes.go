package httpserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

// JSON:API resource types of the parcel routes (SPEC S9).
const (
	typeParcels      = "parcels"
	typeTransfers    = "transfers"
	typeCertificates = "certificates"
)

const mediaPDF = "application/pdf"

func parcelSelf(id string) string   { return "/v1/parcels/" + id }
func transferSelf(id string) string { return "/v1/transfers/" + id }

// createParcel answers POST /v1/parcels (any token with an account): 201 with the
// parcel, PENDING_NOTARY.
func (s *Server) createParcel(w http.ResponseWriter, r *http.Request) error {
	var req parcel.CreateRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := req.Validate(); err != nil {
		return err
	}
	p, err := s.cfg.Parcels.Create(r.Context(), principal(r), req)
	s.notifyWebhooks()
	s.WakeChainJobs() // a sandbox notary certifies at once
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusCreated, typeParcels, p.ID, p, parcelSelf(p.ID))
	return nil
}

// listParcels answers GET /v1/parcels: the caller's parcels, cursor-paginated.
func (s *Server) listParcels(w http.ResponseWriter, r *http.Request) error {
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	list, next, err := s.cfg.Parcels.List(r.Context(), principal(r), r.URL.Query().Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, p := range list {
		items = append(items, newResource(typeParcels, p.ID, p, parcelSelf(p.ID)))
	}
	s.writeCollection(w, r, items, next)
	return nil
}

// getParcel answers GET /v1/parcels/{id}.
func (s *Server) getParcel(w http.ResponseWriter, r *http.Request) error {
	p, err := s.cfg.Parcels.Get(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeParcels, p.ID, p, parcelSelf(p.ID))})
	return nil
}

// certifyParcel answers POST /v1/parcels/{id}/certify (the named notary or admin).
func (s *Server) certifyParcel(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	p, err := s.cfg.Parcels.Certify(r.Context(), principal(r), r.PathValue("id"))
	return s.parcelChanged(w, r, p, err)
}

// rejectParcel answers POST /v1/parcels/{id}/reject {reason?} (the named notary or
// admin).
func (s *Server) rejectParcel(w http.ResponseWriter, r *http.Request) error {
	reason, err := decodeReason(r)
	if err != nil {
		return err
	}
	p, err := s.cfg.Parcels.Reject(r.Context(), principal(r), r.PathValue("id"), reason)
	return s.parcelChanged(w, r, p, err)
}

// revokeParcel answers POST /v1/parcels/{id}/revoke {reason?} (admin).
func (s *Server) revokeParcel(w http.ResponseWriter, r *http.Request) error {
	reason, err := decodeReason(r)
	if err != nil {
		return err
	}
	p, err := s.cfg.Parcels.Revoke(r.Context(), principal(r), r.PathValue("id"), reason)
	return s.parcelChanged(w, r, p, err)
}

func (s *Server) parcelChanged(w http.ResponseWriter, r *http.Request, p *parcel.Parcel, err error) error {
	s.notifyWebhooks()
	s.WakeChainJobs()
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeParcels, p.ID, p, parcelSelf(p.ID))})
	return nil
}

// decodeReason reads a reject or revoke body: none, {} or {"reason": "…"}.
func decodeReason(r *http.Request) (string, error) {
	var body parcel.ReasonRequest
	if err := decodeJSON(r, &body); err != nil {
		return "", err
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	return parcel.DecodeReason(raw)
}

// parcelCertificate answers GET /v1/parcels/{id}/certificate: the current signed
// certificate version as JSON:API, or, for a client that accepts application/pdf and
// prefers it to JSON, the printable PDF certificate whose QR code is the registry's
// verification URL of this version, in the language ?lang= names or Accept-Language
// prefers (catalogue.Negotiate), with the parcel drawn and its land title.
func (s *Server) parcelCertificate(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	w.Header().Add("Vary", "Accept-Language")
	p := principal(r)
	id := r.PathValue("id")
	cert, err := s.cfg.Parcels.Certificate(r.Context(), p, id)
	if err != nil {
		return err
	}
	if !prefersPDF(r.Header.Get("Accept")) {
		s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeCertificates, cert.Hash, cert, parcelSelf(id)+"/certificate")})
		return nil
	}
	prc, err := s.cfg.Parcels.Get(r.Context(), p, id)
	if err != nil {
		return err
	}
	c, err := cert.Parsed()
	if err != nil {
		return err
	}
	signed, err := json.Marshal(cert)
	if err != nil {
		return err
	}
	lang := catalogue.FromRequest(r)
	// The PDF embeds the signed certificate as served here, so that the paper's
	// digital twin verifies offline (examples/verify-certificate).
	doc, err := pdf.Render(pdf.Input{
		CertificateJSON: signed, Hash: cert.Hash, VerifyURL: s.registryVerifyURL(cert.Hash), Lang: lang,
		ParcelID: c.ParcelID, Version: c.Version, OwnerName: c.Owner.FullName, IDDocLast4: prc.Owner.IDDocLast4,
		OwnerWallet: c.Owner.WalletAddress, OwnerBinding: string(c.Owner.Binding),
		City: c.Parcel.City, Notary: c.Notary, TokenID: c.TokenID, Lat: c.Parcel.GPS[0], Lon: c.Parcel.GPS[1],
		AreaM2: c.Parcel.AreaM2, Boundary: boundaryRing(prc.Boundary), CertifiedAt: c.CertifiedAt,
		Status: string(cert.Status), Title: pdfLandTitle(prc.Token, c.Version),
	})
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Language", lang)
	h.Set("Content-Disposition", `inline; filename="`+c.ParcelID+`-v`+strconv.FormatUint(c.Version, 10)+`.pdf"`)
	writeRaw(w, http.StatusOK, mediaPDF, doc)
	return nil
}

// registryVerifyURL is the public verification page of a certificate hash, the
// URL the PDF's QR code holds.
func (s *Server) registryVerifyURL(hash string) string {
	return strings.TrimRight(s.cfg.PublicOrigin, "/") + "/v1/registry/verify/" + hash
}

// prefersPDF reports whether accept names application/pdf itself (not through a
// wildcard) with a quality above zero and at least the one it gives JSON:API and
// JSON. An absent header, */* or application/* answers false: JSON is the default.
func prefersPDF(accept string) bool {
	q, exact := consentpage.AcceptQuality(accept, "application", "pdf")
	if !exact || q == 0 {
		return false
	}
	api, _ := consentpage.AcceptQuality(accept, "application", "vnd.api+json")
	js, _ := consentpage.AcceptQuality(accept, "application", "json")
	return q >= api && q >= js
}

// writeRaw writes a non-JSON body as is.
func writeRaw(w http.ResponseWriter, status int, ct string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// parcelHistory answers GET /v1/parcels/{id}/history: every certificate version,
// oldest first.
func (s *Server) parcelHistory(w http.ResponseWriter, r *http.Request) error {
	versions, err := s.cfg.Parcels.History(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(versions))
	for _, v := range versions {
		items = append(items, newResource(typeCertificates, v.Hash, v, ""))
	}
	s.writeCollection(w, r, items, "")
	return nil
}
