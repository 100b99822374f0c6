package httpserver

import (
	"net/http"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/httpserver/attestationpage"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/catalogue"
)

type issuerJSON struct {
	Address string         `json:"address"`
	ChainID uint64         `json:"chainId"`
	Domain  issuerDomainJS `json:"domain"`
}

type issuerDomainJS struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	ChainID uint64 `json:"chainId"`
}

// attestationIssuer answers GET /attestation/issuer (public): the address offline
// verifiers trust and the EIP-712 domain attestations are signed in.
func (s *Server) attestationIssuer(w http.ResponseWriter, r *http.Request) error {
	iss := s.cfg.Attestations.Issuer
	d := attestation.Domain(iss.ChainID)
	s.writeJSON(w, r, http.StatusOK, issuerJSON{
		Address: iss.Address().Hex(), ChainID: iss.ChainID,
		Domain: issuerDomainJS{Name: d.Name, Version: d.Version, ChainID: d.ChainID},
	})
	return nil
}

// getAttestation answers GET /attestation/{id}: its subject holder, its verifier or
// an admin of the same environment; anyone else is forbidden.
//
// A client that prefers text/html to application/json gets the attestation page
// instead, without a token: the same page for everyone, which carries no data of the
// attestation and reads this URL as JSON itself with the token of its URL fragment.
// The route is registered as public for that reason; the JSON answer requires a
// token of any role here.
func (s *Server) getAttestation(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	if consentpage.PrefersHTML(r.Header.Get("Accept")) {
		return s.attestationPage(w, r)
	}
	p, ok := veriland.PrincipalFrom(r.Context())
	if !ok {
		return veriland.Errorf(veriland.CodeUnauthenticated, "an Authorization: Bearer token is required")
	}
	att, err := s.cfg.Attestations.Get(r.Context(), p.Env, r.PathValue("id"))
	if err != nil {
		return err
	}
	if !attestation.CanRead(p, att) {
		return veriland.Errorf(veriland.CodeForbidden, "only the attestation's subject, its verifier or an admin may read it")
	}
	s.writeJSON(w, r, http.StatusOK, att)
	return nil
}

// attestationPage serves the attestation page: 200 with the QR code of the public
// status URL when an attestation has the id (which GET /attestation/{id}/status
// already tells anyone), else 404.
func (s *Server) attestationPage(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	_, _, err := s.cfg.Attestations.StatusIn(r.Context(), s.readEnvs(r), id)
	if err != nil && !veriland.IsCode(err, veriland.CodeNotFound) {
		return err
	}
	w.Header().Add("Vary", "Accept-Language")
	return attestationpage.Write(w, attestationpage.View{ID: id, Found: err == nil,
		StatusURL: strings.TrimRight(s.cfg.PublicOrigin, "/") + "/attestation/" + id + "/status",
		Lang:      catalogue.FromRequest(r)})
}

// attestationStatus answers GET /attestation/{id}/status (public). The environments
// readEnvs allows are looked in within one read transaction (StatusIn), as findInEnvs
// would look in them one by one.
func (s *Server) attestationStatus(w http.ResponseWriter, r *http.Request) error {
	st, _, err := s.cfg.Attestations.StatusIn(r.Context(), s.readEnvs(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, st)
	return nil
}

type revokeBody struct {
	Reason string `json:"reason"`
}

type revokedJSON struct {
	ID        string             `json:"id"`
	Status    attestation.Status `json:"status"`
	RevokedAt *time.Time         `json:"revokedAt"`
}

// revokeAttestation answers POST /attestation/{id}/revoke (the subject holder or an
// admin). Revoking again is a no-op 200.
func (s *Server) revokeAttestation(w http.ResponseWriter, r *http.Request) error {
	var body revokeBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if len(body.Reason) > 500 {
		return veriland.Invalid("/reason", "reason must be at most 500 characters")
	}
	p := principal(r)
	att, err := s.cfg.Attestations.Revoke(r.Context(), p.Env, r.PathValue("id"), body.Reason, p)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, revokedJSON{ID: att.ID, Status: att.Status, RevokedAt: att.RevokedAt})
	return nil
}

// revocations answers GET /attestation/revocations?since= (public): the issuer-signed
// list of revocations of the caller's environment (the token's, the
// Veriland-Environment header's, else PRODUCTION) since the given time.
func (s *Server) revocations(w http.ResponseWriter, r *http.Request) error {
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
	list, err := s.cfg.Attestations.Revocations(r.Context(), env, since)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, list)
	return nil
}
