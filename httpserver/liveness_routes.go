package httpserver

import (
	"net/http"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/liveness"
)

// enrollDevice answers POST /liveness/device/enroll (holder): 201 for a new device,
// 200 with the existing record when the same holder enrols the same key again.
func (s *Server) enrollDevice(w http.ResponseWriter, r *http.Request) error {
	var req liveness.EnrollRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	p := principal(r)
	dev, created, err := s.cfg.Liveness.Enroll(r.Context(), p.Env, p.Subject, req)
	if err != nil {
		s.metrics.verification("device_enrolment", "refused")
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		s.metrics.verification("device_enrolment", "accepted")
	}
	s.writeJSON(w, r, status, dev)
	return nil
}

// startLivenessSession answers POST /liveness/session (holder). Its only member is
// optional, so the body is too: a request with no body and no Content-Type starts a
// session at the default level L2, as {} does.
func (s *Server) startLivenessSession(w http.ResponseWriter, r *http.Request) error {
	var req liveness.SessionRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	p := principal(r)
	sess, err := s.cfg.Liveness.StartSession(r.Context(), p.Env, p.Subject, req)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusCreated, sess)
	return nil
}

// verifyLiveness answers POST /liveness/verify (holder). The body is decoded
// strictly: an image, template or any other member the proof does not define, at the
// top level or nested in evidence, is refused with 400 unknown_field before anything
// else runs. decodeVerifyRequest decodes it as decodeJSON does, faster. Nothing the
// verification returns or stores refers to the timestamps (the attestation carries
// their count and the Merkle root), so their storage serves the next request.
func (s *Server) verifyLiveness(w http.ResponseWriter, r *http.Request) error {
	var req liveness.VerifyRequest
	if err := decodeVerifyRequest(r, &req); err != nil {
		return err
	}
	defer releaseTimestamps(req.FrameTimestamps)
	p := principal(r)
	res, err := s.cfg.Liveness.Verify(r.Context(), p.Env, p.Subject, &req)
	if err != nil {
		s.metrics.verification("liveness", "rejected")
		return err
	}
	s.metrics.verification("liveness", "verified")
	s.writeJSON(w, r, http.StatusCreated, res)
	return nil
}

type itemsJSON[T any] struct {
	Items []T `json:"items"`
}

// myLivenessAttestations answers GET /liveness/attestations/me (holder): VALID,
// unexpired LIVENESS attestations, newest first.
func (s *Server) myLivenessAttestations(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	list, err := s.cfg.Liveness.ListAttestations(r.Context(), p.Env, p.Subject)
	if err != nil {
		return err
	}
	if list == nil {
		list = []*attestation.Attestation{}
	}
	s.writeJSON(w, r, http.StatusOK, itemsJSON[*attestation.Attestation]{Items: list})
	return nil
}
