package httpserver

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage/audit"
)

// notifyWebhooks wakes the delivery workers after a commit that may have queued a
// delivery, so that it goes out at once rather than at the next poll.
func (s *Server) notifyWebhooks() {
	if s.cfg.Outbox != nil {
		s.cfg.Outbox.Notify()
	}
}

type webhookSecretJSON struct {
	Secret             string     `json:"secret"`
	CreatedAt          time.Time  `json:"createdAt"`
	PreviousSecret     string     `json:"previousSecret,omitempty"`
	PreviousValidUntil *time.Time `json:"previousValidUntil,omitempty"`
}

func secretView(v webhook.VerifierSecrets) webhookSecretJSON {
	out := webhookSecretJSON{Secret: v.Current.String(), CreatedAt: v.CreatedAt}
	if v.Previous != nil {
		out.PreviousSecret = v.Previous.String()
		until := v.PreviousUntil
		out.PreviousValidUntil = &until
	}
	return out
}

// webhookSecret answers GET /v1/webhooks/secret (verifier): the secret that signs
// its callbacks, created on first use.
func (s *Server) webhookSecret(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	v, err := s.cfg.WebhookSecrets.Secrets(r.Context(), p.Env, p.Subject)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusOK, "webhook-secrets", p.Subject, secretView(v), "")
	return nil
}

// rotateWebhookSecret answers POST /v1/webhooks/secret/rotate (verifier): a new
// secret; the old one keeps signing alongside for 24 hours.
func (s *Server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	p := principal(r)
	v, err := s.cfg.WebhookSecrets.Rotate(r.Context(), p.Env, p.Subject)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusOK, "webhook-secrets", p.Subject, secretView(v), "")
	return nil
}

// deliveryFilter limits a principal to the deliveries it may see: a verifier its own,
// an admin all of its environment; the sandbox is further split per account.
func deliveryFilter(p veriland.Principal) webhook.Filter {
	f := webhook.Filter{}
	if p.Role == veriland.RoleVerifier {
		f.Verifier = p.Subject
	}
	if p.Env == veriland.Sandbox || p.Role == veriland.RoleVerifier {
		f.Account = p.Account
	}
	return f
}

func visible(p veriland.Principal, d webhook.Delivery) bool {
	f := deliveryFilter(p)
	return (f.Verifier == "" || f.Verifier == d.Verifier) && (f.Account == "" || f.Account == d.Account)
}

func deliveryLink(id string) string { return "/v1/webhooks/deliveries/" + id }

// listDeliveries answers GET /v1/webhooks/deliveries (verifier: its own; admin: all).
func (s *Server) listDeliveries(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	f := deliveryFilter(p)
	q := r.URL.Query()
	f.Status, f.Cursor = webhook.Status(q.Get("status")), q.Get("cursor")
	if v := q.Get("limit"); v != "" {
		pg, err := parsePage(r)
		if err != nil {
			return err
		}
		f.Limit = pg.limit
	}
	list, next, err := s.cfg.Outbox.List(r.Context(), p.Env, f)
	if err != nil {
		return err
	}
	items := make([]resource, len(list))
	for i, d := range list {
		items[i] = newResource("webhook-deliveries", d.ID, d, deliveryLink(d.ID))
	}
	s.writeCollection(w, r, items, next)
	return nil
}

func (s *Server) visibleDelivery(r *http.Request) (webhook.Delivery, error) {
	p := principal(r)
	d, err := s.cfg.Outbox.Get(r.Context(), p.Env, r.PathValue("id"))
	if err != nil {
		return d, err
	}
	if !visible(p, d) {
		return d, veriland.Errorf(veriland.CodeNotFound, "no delivery %s", r.PathValue("id"))
	}
	return d, nil
}

// getDelivery answers GET /v1/webhooks/deliveries/{id} with its attempts.
func (s *Server) getDelivery(w http.ResponseWriter, r *http.Request) error {
	d, err := s.visibleDelivery(r)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusOK, "webhook-deliveries", d.ID, d, deliveryLink(d.ID))
	return nil
}

// replayDelivery answers POST /v1/webhooks/deliveries/{id}/replay: the same event,
// with the same webhook-id, is sent again at once.
func (s *Server) replayDelivery(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if _, err := s.visibleDelivery(r); err != nil {
		return err
	}
	d, err := s.cfg.Outbox.Replay(r.Context(), principal(r).Env, r.PathValue("id"))
	if err != nil {
		return err
	}
	s.notifyWebhooks()
	s.writeResource(w, r, http.StatusAccepted, "webhook-deliveries", d.ID, d, deliveryLink(d.ID))
	return nil
}

// inboundEnvelope is the Standard Webhooks payload shape providers send.
type inboundEnvelope struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

type inboundJSON struct {
	Provider  string `json:"provider"`
	Type      string `json:"type"`
	Duplicate bool   `json:"duplicate"`
	Processed bool   `json:"processed"`
}

// inboundWebhook answers POST /v1/webhooks/{provider}: a provider's signed event.
// The signature is checked first in the provider's scheme (Standard Webhooks or a
// body-only HMAC-SHA256; 401, coalesced into the audit log), the event is stored before
// it is acknowledged, a delivery seen before (same webhook-id; for a body-only scheme
// the same event id or the same HMAC) is acknowledged without a second processing, and then it is dispatched: kyc.completed finishes a
// PENDING_KYC identity, anchor.confirmed marks an attestation ANCHORED. A dispatch
// that fails stays unprocessed in the inbox; the provider still gets its 200. An
// account's sandbox test provider (sandbox-…, sandbox_provider.go) is verified the
// same way; its events go to SANDBOX and, before they are stored, are refused (403)
// unless they act on that account's records.
func (s *Server) inboundWebhook(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("provider")
	// sbx is set for an account's sandbox test provider (sandbox_provider.go): its
	// events go to SANDBOX and act on that account's records only.
	prov, sbx, err := s.inboundProvider(r.Context(), name)
	if err != nil {
		return err
	}
	body, err := readBody(r, nil)
	if err != nil {
		return err
	}
	msgID, err := prov.VerifyDelivery(r.Header, body, s.cfg.Now())
	if err != nil {
		entry := audit.Entry{
			Env: veriland.Production, Action: "webhook.inbound_signature_refused", Severity: audit.SeverityWarning,
			Outcome: audit.OutcomeFailure, ResourceType: "webhook_provider", ResourceID: name,
		}
		if sbx != nil {
			entry.Env, entry.Detail = veriland.Sandbox, map[string]any{audit.DetailAccount: sbx.state.Account}
		}
		s.coalesce(entry.Env, "webhook_signature:"+name+":"+s.clientIP(r), entry)
		return err
	}
	var env inboundEnvelope
	if err := decodeEnvelope(body, &env); err != nil {
		return err
	}
	if !prov.Accepts(env.Type) {
		return veriland.Invalid("/type", "provider %s does not send %q events", name, env.Type)
	}
	target := eventEnvironment(env.Data)
	if sbx != nil {
		if env, err = s.scope(r.Context(), sbx, env); err != nil {
			return err // refused before it is stored
		}
		target = veriland.Sandbox
	}
	dup, err := s.cfg.Inbox.Accept(r.Context(), target, name, msgID, env.Type, body)
	if err != nil {
		return err
	}
	out := inboundJSON{Provider: name, Type: env.Type, Duplicate: dup}
	process := !dup
	if dup {
		// A webhook-id seen before is never processed a second time. But an event that
		// was stored and never processed (the process died before dispatching it, so
		// the provider got no answer and retries) is dispatched now, from the body
		// stored when it was first accepted.
		stored, err := s.cfg.Inbox.Get(r.Context(), target, name, msgID)
		if err != nil {
			return err
		}
		if process = stored.ProcessedAt.IsZero(); process {
			if err := decodeEnvelope(stored.Body, &env); err != nil {
				return err
			}
			if sbx != nil {
				if env, err = s.scope(r.Context(), sbx, env); err != nil {
					return err
				}
			}
		}
	}
	if process {
		err := s.dispatchInbound(r, target, env)
		switch code := veriland.CodeOf(err); {
		case err == nil:
			if err := s.cfg.Inbox.MarkProcessed(r.Context(), target, name, msgID); err == nil {
				out.Processed = true
			}
		case code == veriland.CodeInternal || code == veriland.CodeUnavailable:
			// An outage, not a refusal: answer 503 so that the provider retries; the
			// stored, unprocessed event is processed when the retry arrives.
			s.log.WarnContext(r.Context(), "inbound webhook not processed; provider will retry", "provider", name, "type", env.Type, "err", err)
			return veriland.Errorf(veriland.CodeUnavailable, "the event is stored but could not be processed; retry later")
		default:
			// A permanent refusal (an unknown identity, a finished KYC, bad data):
			// acknowledged, left unprocessed, and logged for the operator.
			s.log.WarnContext(r.Context(), "inbound webhook refused by the domain", "provider", name, "type", env.Type, "code", code)
		}
	}
	s.writeResource(w, r, http.StatusOK, "webhook-events", msgID, out, "")
	return nil
}

// eventEnvironment reads data.env; events without one are PRODUCTION's.
func eventEnvironment(data json.RawMessage) veriland.Environment {
	var probe struct {
		Env veriland.Environment `json:"env"`
	}
	if json.Unmarshal(data, &probe) == nil && probe.Env.Valid() {
		return probe.Env
	}
	return veriland.Production
}

func (s *Server) dispatchInbound(r *http.Request, env veriland.Environment, ev inboundEnvelope) error {
	switch ev.Type {
	case webhook.EventKYCCompleted:
		if s.cfg.Identity == nil {
			return nil
		}
		c, err := identity.ParseKYCCompletion(ev.Data)
		if err != nil {
			return err
		}
		_, err = s.cfg.Identity.CompleteKYC(r.Context(), env, c.Ref(), c.Result())
		return err
	case webhook.EventAnchorConfirmed:
		if s.cfg.Attestations == nil {
			return nil
		}
		var data struct {
			AttestationID string `json:"attestationId"`
			TxHash        string `json:"txHash"`
			BlockNumber   uint64 `json:"blockNumber"`
		}
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			return veriland.Invalid("/data", "anchor.confirmed data must be {attestationId, txHash, blockNumber}")
		}
		_, err := s.cfg.Attestations.ConfirmAnchor(r.Context(), env, data.AttestationID, data.TxHash, data.BlockNumber)
		return err
	}
	return nil
}

// decodeEnvelope decodes a provider's envelope: valid JSON required, unknown
// members tolerated (providers add fields; their signature vouches for the body).
func decodeEnvelope(body []byte, dst any) error {
	if err := json.Unmarshal(body, dst); err != nil {
		return invalidJSON(err)
	}
	return nil
}
