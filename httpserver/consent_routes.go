package httpserver

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// requestCreatedJSON is the answer to POST /verify/request: the source document's
// {requestId, status, message} plus where to send the holder and until when.
type requestCreatedJSON struct {
	RequestID  string         `json:"requestId"`
	Status     consent.Status `json:"status"`
	Message    string         `json:"message"`
	ConsentURL string         `json:"consentUrl"`
	ExpiresAt  time.Time      `json:"expiresAt"`
}

// createVerificationRequest answers POST /verify/request (verifier). The verifier's
// display name is the name of the API key whose token made the call; a token with
// no API key record (minted from the command line) shows its sub.
func (s *Server) createVerificationRequest(w http.ResponseWriter, r *http.Request) error {
	var req consent.CreateRequest
	err := decodeJSON(r, &req)
	if err != nil {
		return err
	}
	p := principal(r)
	// The display name is the API key's (SPEC S5); the body cannot carry one.
	if req.VerifierName, err = s.apiKeyName(r, p); err != nil {
		return err
	}
	created, err := s.cfg.Consent.Create(r.Context(), p.Env, p, req)
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusCreated, requestCreatedJSON{
		RequestID: created.ID, Status: created.Status,
		Message:    "verification request created; send the holder to consentUrl",
		ConsentURL: s.consentURL(created.ID), ExpiresAt: created.ExpiresAt,
	})
	return nil
}

func (s *Server) consentURL(id string) string {
	return strings.TrimRight(s.cfg.PublicOrigin, "/") + "/consent/" + id
}

// getVerificationRequest answers GET /verify/request/{id} (public). A PENDING
// request past its deadline is expired by the read.
func (s *Server) getVerificationRequest(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	req, _, err := findInEnvs(s, r, func(env veriland.Environment) (*consent.Request, error) {
		return s.cfg.Consent.Get(r.Context(), env, id)
	})
	if err != nil {
		return err
	}
	s.notifyWebhooks()
	s.writeJSON(w, r, http.StatusOK, req.Summary())
	return nil
}

// cancelVerificationRequest answers POST /verify/request/{id}/cancel (the verifier
// that created it).
func (s *Server) cancelVerificationRequest(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	p := principal(r)
	req, err := s.cfg.Consent.Cancel(r.Context(), p.Env, r.PathValue("id"), p)
	s.notifyWebhooks()
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, req.Summary())
	return nil
}

// consentContext answers GET /consent/{requestId} (public): what is asked, and the
// ready eth_signTypedData_v4 object the holder's wallet signs.
//
// A client that prefers text/html to application/json gets the hosted consent page
// instead (S5.1): the same page for every id, which reads this URL as JSON itself.
func (s *Server) consentContext(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", "Accept")
	id := r.PathValue("requestId")
	if consentpage.PrefersHTML(r.Header.Get("Accept")) {
		return s.consentPage(w, r, id)
	}
	view, _, err := findInEnvs(s, r, func(env veriland.Environment) (*consent.View, error) {
		return s.cfg.Consent.Context(r.Context(), env, id)
	})
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusOK, view)
	return nil
}

// consentPage serves the hosted consent page of request id in the language that
// ?lang= or Accept-Language asks for, or its 404 page (status 404) when no
// environment holds the request.
func (s *Server) consentPage(w http.ResponseWriter, r *http.Request, id string) error {
	_, env, err := findInEnvs(s, r, func(env veriland.Environment) (*consent.Request, error) {
		return s.cfg.Consent.Get(r.Context(), env, id)
	})
	p, err := s.pageParams(w, r, "/consent/"+id, env, err)
	if err != nil {
		return err
	}
	return consentpage.Write(w, p)
}

// pageParams are the parameters of a hosted page at path (the consent and owner
// pages) for this request: its language from ?lang= or Accept-Language, its public
// URL (with no public origin configured, the address this browser used, so that the
// QR code works), and its environment, or NotFound when lookup (env's result) found
// nothing. Another lookup error is returned.
func (s *Server) pageParams(w http.ResponseWriter, r *http.Request, path string, env veriland.Environment, lookup error) (consentpage.Params, error) {
	w.Header().Add("Vary", "Accept-Language")
	p := consentpage.Params{
		Lang:   catalogue.FromRequest(r),
		URL:    strings.TrimRight(s.cfg.PublicOrigin, "/") + path,
		Origin: s.cfg.PublicOrigin,
	}
	if p.Origin == "" {
		p.Origin = "http://" + r.Host
		if r.TLS != nil {
			p.Origin = "https://" + r.Host
		}
		p.URL = p.Origin + path
	}
	switch {
	case lookup == nil:
		p.Environment = string(env)
	case veriland.IsCode(lookup, veriland.CodeNotFound):
		p.NotFound = true
	default:
		return p, lookup
	}
	return p, nil
}

// decideConsent answers POST /consent/{requestId} (public, rate limited per
// holderAddress): the holder's signed decision. 201 with the CONSENT attestation for
// APPROVED, 200 for REJECTED.
func (s *Server) decideConsent(w http.ResponseWriter, r *http.Request) error {
	var d consent.Decision
	if err := decodeJSON(r, &d); err != nil {
		return err
	}
	id := r.PathValue("requestId")
	// Which environment holds the request, read once: DecideFound does not read it
	// again before its transaction (and expires it there when due).
	found, err := s.cfg.Consent.Find(r.Context(), s.readEnvs(r), id)
	if err != nil {
		return err
	}
	env := found.Env
	if addr := strings.ToLower(d.HolderAddress); addr != "" {
		if err := s.limitKey(w, r, env, "wallet:"+addr, s.policy("consent", s.cfg.RateLimits.Wallet)); err != nil {
			return err
		}
	}
	res, err := s.cfg.Consent.DecideFound(r.Context(), found, d)
	if found.CallbackURL() != "" {
		// Only a request with a callback queues a webhook (the decision's, or an
		// expiry's). Waking the outbox after every decision made it look for due
		// deliveries after every approval under load: a read transaction each, one
		// database round trip on PostgreSQL, for nothing.
		s.notifyWebhooks()
	}
	if err != nil {
		s.metrics.verification("consent", string(veriland.CodeOf(err)))
		if veriland.IsCode(err, veriland.CodeInvalidSignature) {
			s.coalesce(env, "consent_signature:"+id, auditFailure(env, "consent.signature_refused", "invalid_signature"))
		}
		return err
	}
	s.metrics.verification("consent", strings.ToLower(string(res.Status)))
	status := http.StatusOK
	if res.Status == consent.StatusApproved {
		status = http.StatusCreated
	}
	s.writeJSON(w, r, status, res)
	return nil
}

// consentEvent records a consent state change in the audit log and, for the events
// verifiers subscribe to, queues the webhook in the same transaction.
func (s *Server) consentEvent(ctx context.Context, tx storage.Tx, ev consent.Event) error {
	if err := s.audit(ctx, tx, consentAuditEntry(ev)); err != nil {
		return err
	}
	we, ok := s.consentWebhook(ev)
	if !ok {
		return nil
	}
	_, err := s.cfg.Outbox.Enqueue(ctx, tx, ev.Env, we)
	return err
}

// prepareConsentEvent is consentEvent's consent.EventPreparer: it builds and encodes
// the audit entry and the webhook delivery of ev before the decision's write
// transaction, which then only writes them. An event that turns out different in
// anything they hold is recorded by consentEvent instead.
func (s *Server) prepareConsentEvent(ctx context.Context, ev consent.Event) (func(context.Context, storage.Tx, consent.Event) error, error) {
	// Put sets the attestation's anchor state inside the transaction; the webhook
	// carries the attestation, so it is encoded with the state Put will set.
	expected := ev
	if ev.Attestation != nil && s.cfg.Attestations != nil {
		att := *ev.Attestation
		att.Anchor = s.cfg.Attestations.NewAnchorState(ev.Env)
		expected.Attestation = &att
	}
	entry, err := s.auditLog.Prepare(ctx, consentAuditEntry(expected))
	if err != nil {
		return nil, err
	}
	var delivery *webhook.PreparedDelivery
	if we, ok := s.consentWebhook(expected); ok {
		if delivery, err = s.cfg.Outbox.Prepare(ctx, expected.Env, we); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context, tx storage.Tx, got consent.Event) error {
		if !sameConsentEvent(expected, got) {
			return s.consentEvent(ctx, tx, got)
		}
		if err := entry.Append(tx); err != nil {
			return err
		}
		if delivery == nil {
			return nil
		}
		_, err := delivery.Enqueue(tx)
		return err
	}, nil
}

// sameConsentEvent reports whether a and b give the same audit entry and webhook:
// they agree on every member consentAuditEntry and consentWebhook read. The
// attestation must be the same one (the webhook carries all of it), in the same
// anchor state.
func sameConsentEvent(a, b consent.Event) bool {
	ra, rb := a.Request, b.Request
	if a.Env != b.Env || a.Type != b.Type || a.Actor != b.Actor || ra == nil || rb == nil ||
		ra.ID != rb.ID || ra.Status != rb.Status || ra.Verifier != rb.Verifier ||
		ra.Account != rb.Account || ra.CallbackURL != rb.CallbackURL {
		return false
	}
	if a.Attestation == nil || b.Attestation == nil {
		return a.Attestation == nil && b.Attestation == nil
	}
	x, y := *a.Attestation, *b.Attestation
	if x.Anchor.TxHash != y.Anchor.TxHash || x.Anchor.Status != y.Anchor.Status ||
		x.Anchor.BlockNumber != nil || y.Anchor.BlockNumber != nil {
		return false
	}
	x.Anchor, y.Anchor = attestation.AnchorState{}, attestation.AnchorState{}
	return reflect.DeepEqual(x, y)
}

// consentAuditEntry is the audit entry of consent event ev.
func consentAuditEntry(ev consent.Event) audit.Entry {
	req := ev.Request
	detail := map[string]any{"status": string(req.Status), "verifier": req.Verifier}
	if req.Account != "" && ev.Env == veriland.Sandbox {
		detail[audit.DetailAccount] = req.Account // expiry has no principal to take it from
	}
	if ev.Attestation != nil {
		detail["attestationId"] = ev.Attestation.ID
	}
	return auditEntry(ev.Env, string(ev.Type), "verification_request", req.ID, ev.Actor, detail)
}

// consentWebhook is the webhook event of consent event ev, when one is sent.
func (s *Server) consentWebhook(ev consent.Event) (webhook.Event, bool) {
	req := ev.Request
	if !ev.Type.Webhook() || s.cfg.Outbox == nil || req.CallbackURL == "" {
		return webhook.Event{}, false
	}
	data := map[string]any{"requestId": req.ID, "status": string(req.Status)}
	if ev.Attestation != nil {
		data["attestationId"] = ev.Attestation.ID
		data["attestation"] = ev.Attestation
	}
	return webhookEvent(string(ev.Type), req, data), true
}
