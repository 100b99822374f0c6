package httpserver

import (
	"context"

	"github.com/veriland/veriland"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// installHooks makes the domain services record their state changes in the audit
// log (and, where verifiers listen, the webhook outbox) inside the transaction of the
// change. A hook an embedder set already is kept.
func (s *Server) installHooks() {
	if id := s.cfg.Identity; id != nil && id.OnChange == nil {
		id.OnChange = s.identityChanged
	}
	if lv := s.cfg.Liveness; lv != nil && lv.OnEvent == nil {
		lv.OnEvent = s.livenessEvent
	}
	if at := s.cfg.Attestations; at != nil && at.OnRevoke == nil {
		at.OnRevoke = s.attestationRevoked
	}
	if c := s.cfg.Consent; c != nil && c.OnEvent == nil {
		c.OnEvent = s.consentEvent
		if c.PrepareEvent == nil {
			c.PrepareEvent = s.prepareConsentEvent
		}
	}
	if b := s.cfg.ChipBinding; b != nil && b.OnEvent == nil {
		b.OnEvent = s.chipBindingEvent
	}
	if pc := s.cfg.Parcels; pc != nil && pc.OnEvent == nil {
		pc.OnEvent = s.parcelEvent
	}
}

// auditEntry is a successful state change by actor ("" takes the context's principal).
func auditEntry(env veriland.Environment, action, resourceType, resourceID, actor string, detail map[string]any) audit.Entry {
	return audit.Entry{Env: env, Action: action, ResourceType: resourceType, ResourceID: resourceID, Actor: actor,
		Severity: audit.SeverityInfo, Outcome: audit.OutcomeSuccess, Detail: detail}
}

// webhookEvent is the outbox event of a verification request's change.
func webhookEvent(typ string, req *consent.Request, data map[string]any) webhook.Event {
	return webhook.Event{Type: typ, Verifier: req.Verifier, Account: req.Account, CallbackURL: req.CallbackURL, Data: data}
}

// notifyRevocation queues attestation.revoked for the verifier whose request led to a
// CONSENT attestation, at the callback URL of that request.
func (s *Server) notifyRevocation(ctx context.Context, tx storage.Tx, env veriland.Environment, att *attestation.Attestation) error {
	if s.cfg.Outbox == nil || att.Kind != attestation.KindConsent {
		return nil
	}
	requestID := consent.RequestIDOf(att)
	if requestID == "" {
		return nil // not from a verification request: nobody to tell
	}
	req, err := consent.RequestTx(tx, env, requestID)
	if veriland.IsCode(err, veriland.CodeNotFound) {
		return nil
	}
	if err != nil || req.CallbackURL == "" {
		return err
	}
	data := map[string]any{"requestId": req.ID, "status": string(req.Status), "attestationId": att.ID,
		"revokedAt": att.RevokedAt}
	_, err = s.cfg.Outbox.Enqueue(ctx, tx, env, webhookEvent("attestation.revoked", req, data))
	return err
}

func (s *Server) livenessEvent(ctx context.Context, tx storage.Tx, ev liveness.Event) error {
	e := audit.Entry{Env: ev.Env, Action: string(ev.Action), ResourceType: "liveness_session", ResourceID: ev.SessionID,
		Severity: audit.SeverityInfo, Outcome: audit.OutcomeSuccess, Detail: map[string]any{}}
	if ev.Action == liveness.ActionDeviceEnrolled {
		e.ResourceType, e.ResourceID = "device", ev.DeviceID
	}
	if ev.Level != "" {
		e.Detail["level"] = string(ev.Level)
	}
	if ev.AttestationID != "" {
		e.Detail["attestationId"] = ev.AttestationID
	}
	if ev.Action == liveness.ActionRejected {
		e.Severity, e.Outcome = audit.SeverityNotice, audit.OutcomeFailure
		reasons := make([]any, len(ev.Reasons))
		for i, r := range ev.Reasons {
			reasons[i] = string(r)
		}
		e.Detail["reasons"] = reasons
	}
	return s.audit(ctx, tx, e)
}

// attestationRevoked records a revocation in the audit log and tells the verifier
// (attestation.revoked) when the attestation came from one of its requests.
func (s *Server) attestationRevoked(ctx context.Context, tx storage.Tx, env veriland.Environment, att *attestation.Attestation) error {
	if err := s.audit(ctx, tx, audit.Entry{Env: env, Action: "attestation.revoke", ResourceType: "attestation",
		ResourceID: att.ID, Severity: audit.SeverityNotice, Outcome: audit.OutcomeSuccess,
		Detail: map[string]any{"kind": string(att.Kind)}}); err != nil {
		return err
	}
	return s.notifyRevocation(ctx, tx, env, att)
}

func (s *Server) identityChanged(ctx context.Context, tx storage.Tx, ev identity.Event) error {
	detail := map[string]any{}
	if ev.From != "" {
		detail["from"] = string(ev.From)
	}
	if ev.To != "" {
		detail["to"] = string(ev.To)
	}
	if ev.ReviewID != "" {
		detail["reviewId"] = ev.ReviewID
		detail["reviewStatus"] = string(ev.ReviewStatus)
	}
	return s.audit(ctx, tx, audit.Entry{
		Env: ev.Env, Action: string(ev.Action), ResourceType: "identity", ResourceID: ev.DID,
		Severity: audit.SeverityInfo, Outcome: audit.OutcomeSuccess, Detail: detail,
	})
}

// parcelEvent records a parcel or transfer state change in the audit log, in the
// transaction of the change, and queues its webhook when the parcel's creator gave a
// callbackUrl. Parcel events carry identifiers, states and wallet addresses only
// (never the owner's name or id_doc), so they go into the entry as is.
func (s *Server) parcelEvent(ctx context.Context, tx storage.Tx, ev parcel.Event) error {
	resourceType, resourceID := "parcel", ev.ParcelID
	detail := map[string]any{"status": ev.Status}
	if ev.TransferID != "" {
		resourceType, resourceID = "transfer", ev.TransferID
		detail["parcelId"] = ev.ParcelID
	}
	if ev.Account != "" && ev.Env == veriland.Sandbox {
		detail[audit.DetailAccount] = ev.Account
	}
	if ev.Version != 0 {
		detail["version"] = ev.Version
	}
	if ev.CertificateHash != "" {
		detail["certificateHash"] = ev.CertificateHash
	}
	if ev.TokenID != "" {
		detail["tokenId"] = ev.TokenID
	}
	if ev.BurnedTokenID != "" {
		detail["burnedTokenId"] = ev.BurnedTokenID
	}
	// How the owner consented (OWNER_SIGNATURE, or NOTARY_WITNESSED when the owner has
	// no wallet and the notary attests that the owner appeared) and the owner's
	// wallet: a public address, not personal data.
	if ev.OwnerConsent != "" {
		detail["ownerConsent"] = ev.OwnerConsent
	}
	if ev.OwnerWallet != "" {
		detail["ownerWallet"] = ev.OwnerWallet
	}
	e := auditEntry(ev.Env, string(ev.Action), resourceType, resourceID, ev.Actor, detail)
	if ev.Role != "" {
		e.Role = ev.Role
	}
	switch ev.Action {
	case parcel.ActionRevoked, parcel.ActionTransferOwnerRejected, parcel.ActionTransferExpired:
		e.Severity = audit.SeverityNotice
	}
	if err := s.audit(ctx, tx, e); err != nil {
		return err
	}
	return s.notifyParcel(ctx, tx, ev, detail)
}

// notifyParcel queues the webhook of a parcel event for the parcel's creator, at the
// callbackUrl it gave (none: nothing is queued). The payload holds identifiers, states
// and hashes: the same facts as the audit entry, never the owner.
func (s *Server) notifyParcel(ctx context.Context, tx storage.Tx, ev parcel.Event, detail map[string]any) error {
	if s.cfg.Outbox == nil || ev.CallbackURL == "" || ev.Action == parcel.ActionCreated {
		return nil
	}
	data := map[string]any{"parcelId": ev.ParcelID}
	for k, v := range detail {
		if k != audit.DetailAccount {
			data[k] = v
		}
	}
	if ev.TransferID != "" {
		data["transferId"] = ev.TransferID
	}
	_, err := s.cfg.Outbox.Enqueue(ctx, tx, ev.Env, webhook.Event{Type: string(ev.Action), Verifier: ev.CreatedBy,
		Account: ev.Account, CallbackURL: ev.CallbackURL, Data: data})
	return err
}
