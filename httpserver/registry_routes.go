package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/httpserver/registrypage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/parcel"
)

// JSON:API resource types of the public registry routes.
const (
	typeVerifications = "verifications"
	typeStatusLists   = "status-lists"
)

// verifyCertificateHash answers GET /v1/registry/verify/{hash} (public): whether
// the hash is a certificate this registry issued, and its status, without personal
// data. A client that prefers text/html gets the verification page a phone shows
// after scanning the certificate's QR code, in the language of ?lang= or
// Accept-Language (404 for an unknown hash and 400 for a malformed one, still a
// page); others get JSON (400 validation_failed for a malformed hash).
// A QR code carries no environment, so without a token or header both are searched.
func (s *Server) verifyCertificateHash(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	w.Header().Add("Vary", "Accept-Language")
	page := consentpage.PrefersHTML(r.Header.Get("Accept"))
	lang := catalogue.FromRequest(r)
	h, err := parcel.ParseHash(r.PathValue("hash"))
	if err != nil {
		if page {
			return registrypage.Write(w, registrypage.View{Lang: lang, Hash: r.PathValue("hash"), Malformed: true})
		}
		return invalidParam("hash", "hash must be 0x followed by 64 hex digits")
	}
	v, _, err := findInEnvs(s, r, func(env veriland.Environment) (*parcel.Verification, error) {
		return s.cfg.Parcels.VerifyHash(r.Context(), env, h)
	})
	outcome := "unknown"
	if err == nil {
		outcome = string(v.Status)
	}
	if err != nil && !veriland.IsCode(err, veriland.CodeNotFound) {
		return err
	}
	s.metrics.verification("registry", strings.ToLower(outcome))
	if page {
		view := registryView(parcel.HashString(h), v)
		view.Lang = lang
		return registrypage.Write(w, view)
	}
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeVerifications, v.Hash, v, "/v1/registry/verify/"+v.Hash)})
	return nil
}

// registryView is what the verification page shows of v (nil: an unknown hash), in
// English until the caller sets its language.
func registryView(hash string, v *parcel.Verification) registrypage.View {
	if v == nil {
		return registrypage.View{Hash: hash}
	}
	view := registrypage.View{Hash: hash, Found: true, Authentic: v.Authentic, Status: string(v.Status),
		ParcelID: v.ParcelID, City: v.City, Notary: v.Notary, Version: v.Version, CertifiedAt: v.CertifiedAt,
		TokenID: v.TokenID, AnchorStatus: string(v.Anchor.Status), AnchorTx: v.Anchor.TxHash,
		OwnerWallet: v.OwnerWallet, OwnerBinding: string(v.OwnerBinding),
		Lat: v.GPS[0], Lon: v.GPS[1], AreaM2: v.AreaM2, Ring: boundaryRing(v.Boundary)}
	for _, h := range v.History {
		view.History = append(view.History, registrypage.Version{Version: h.Version, Status: string(h.Status),
			Hash: h.Hash, CertifiedAt: h.CertifiedAt, OwnerWallet: h.OwnerWallet, OwnerConsent: h.OwnerConsent,
			TokenStatus: string(h.TokenStatus)})
	}
	if t := v.Token; t != nil {
		timeOf := func(p *time.Time) time.Time {
			if p == nil {
				return time.Time{}
			}
			return *p
		}
		// The land title (SPEC S14): public chain data only; Error (a chain error,
		// possibly naming the operator's node) stays with the operator.
		view.Title = &registrypage.Title{Status: string(t.Status), TokenID: t.TokenID, Standard: t.Standard,
			ChainID: t.ChainID, Contract: t.Contract, Holder: t.Holder, HolderKind: string(t.HolderKind),
			MintTx: t.MintTx, BurnTx: t.BurnTx, MintBlock: t.MintBlock,
			MintedAt: timeOf(t.MintedAt), BurnedAt: timeOf(t.BurnedAt), BurnRequestedAt: timeOf(t.BurnRequestedAt)}
		if view.Title.TokenID == "" {
			view.Title.TokenID = v.TokenID
		}
		if t.Contract == "" {
			// No chain: the chain id is the registry's signing domain, not a chain
			// the title lives on.
			view.Title.ChainID = 0
		}
	}
	return view
}

// boundaryRing returns the exterior ring ([lon, lat] positions) of a GeoJSON
// Polygon, nil when raw is absent or is not one with a ring of at least 4 positions
// (the page then draws the circle of the parcel's area).
func boundaryRing(raw json.RawMessage) [][2]float64 {
	if len(raw) == 0 {
		return nil
	}
	var poly struct {
		Type        string         `json:"type"`
		Coordinates [][][2]float64 `json:"coordinates"`
	}
	if err := json.Unmarshal(raw, &poly); err != nil || poly.Type != "Polygon" || len(poly.Coordinates) == 0 || len(poly.Coordinates[0]) < 4 {
		return nil
	}
	return poly.Coordinates[0]
}

// certificateStatuses answers GET /v1/registry/statuses?since= (public): the
// issuer-signed list of certificate hashes that stopped being CURRENT, for offline
// verifiers. Of the token's environment, else the header's, else PRODUCTION.
func (s *Server) certificateStatuses(w http.ResponseWriter, r *http.Request) error {
	env, err := s.publicEnv(r)
	if err != nil {
		return err
	}
	var since time.Time
	if v := r.URL.Query().Get("since"); v != "" {
		if since, err = time.Parse(time.RFC3339, v); err != nil {
			return invalidParam("since", "since must be an RFC 3339 timestamp")
		}
	}
	list, err := s.cfg.Parcels.Statuses(r.Context(), env, since)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeStatusLists, string(env), list, "")})
	return nil
}
