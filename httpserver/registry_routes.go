package httpserver

import (
	"net/http"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/httpserver/registrypage"
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
// after scanning the certificate's QR code (404 for an unknown hash, still a page).
// A QR code carries no environment, so without a token or header both are searched.
func (s *Server) verifyCertificateHash(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	h, err := parcel.ParseHash(r.PathValue("hash"))
	if err != nil {
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
	if consentpage.PrefersHTML(r.Header.Get("Accept")) {
		return registrypage.Write(w, registryView(parcel.HashString(h), v))
	}
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, document{Data: newResource(typeVerifications, v.Hash, v, "/v1/registry/verify/"+v.Hash)})
	return nil
}

// registryView is what the verification page shows of v (nil: an unknown hash).
func registryView(hash string, v *parcel.Verification) registrypage.View {
	if v == nil {
		return registrypage.View{Hash: hash}
	}
	view := registrypage.View{Hash: hash, Found: true, Authentic: v.Authentic, Status: string(v.Status),
		ParcelID: v.ParcelID, City: v.City, Notary: v.Notary, Version: v.Version, CertifiedAt: v.CertifiedAt,
		TokenID: v.TokenID, Anchor: anchorWords(v.Anchor.Status, v.Anchor.TxHash),
		OwnerWallet: v.OwnerWallet, OwnerBinding: string(v.OwnerBinding)}
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

// anchorWords says in words where a token's anchoring stands.
func anchorWords[S ~string](status S, tx string) string {
	switch string(status) {
	case "":
		return ""
	case "ANCHORED":
		if tx != "" {
			return "Anchored on chain in transaction " + tx
		}
		return "Anchored on chain"
	case "PENDING":
		return "Pending: anchoring on chain is best-effort and follows shortly"
	case "DISABLED":
		return "Not anchored: this registry does not anchor on chain"
	case "FAILED":
		return "Anchoring failed; the registry's signature still stands"
	}
	return string(status)
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
