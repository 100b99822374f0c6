package httpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
)

// sandboxInbound is the account behind a sandbox test provider (POST
// /v1/webhooks/sandbox-…, see httpserver/sandbox's SeededInbound): its events act on
// that account's SANDBOX records only.
type sandboxInbound struct {
	state *sandbox.State
}

// inboundProvider returns the provider named by POST /v1/webhooks/{provider}: a
// configured one, or an account's sandbox test provider (with the account, non-nil).
// Errors: not_found for an unknown name, or when no inbox is configured.
func (s *Server) inboundProvider(ctx context.Context, name string) (webhook.Provider, *sandboxInbound, error) {
	notFound := veriland.Errorf(veriland.CodeNotFound, "no webhook provider %q", name)
	if s.cfg.Inbox == nil {
		return webhook.Provider{}, nil, notFound
	}
	if !strings.HasPrefix(name, webhook.SandboxProviderPrefix) {
		prov, ok := s.cfg.WebhookProviders.Lookup(name)
		if !ok {
			return webhook.Provider{}, nil, notFound
		}
		return prov, nil, nil
	}
	if s.cfg.Sandbox == nil {
		return webhook.Provider{}, nil, notFound
	}
	st, err := s.cfg.Sandbox.InboundProvider(ctx, name)
	if err != nil {
		return webhook.Provider{}, nil, err
	}
	secret, err := webhook.ParseSecret(st.Seeded.InboundWebhook.Secret)
	if err != nil {
		return webhook.Provider{}, nil, err
	}
	return webhook.Provider{Scheme: webhook.SchemeStandardWebhooks, Secrets: []webhook.Secret{secret},
		EventTypes: sandbox.InboundEventTypes()}, &sandboxInbound{state: st}, nil
}

// scope checks that a sandbox provider's event acts on its account's SANDBOX records,
// and returns it as the dispatcher reads it: data.env SANDBOX, a kyc.completed naming
// the identity by its did, data.subjectRef removed.
//
//   - data.env, when given, must be SANDBOX (forbidden otherwise: PRODUCTION is never
//     reachable through a sandbox provider);
//   - kyc.completed names its identity by data.subjectRef, which must start with the
//     account's prefix (sandbox:<account>:) and name an identity; data.did and
//     data.providerRef, when given, must be that identity's;
//   - anchor.confirmed's attestation must be the seeded holder's, or the subject of
//     data.subjectRef (of the account's prefix).
//
// Errors: validation_failed for malformed data, not_found for an identity or
// attestation that does not exist, forbidden for another account's.
func (s *Server) scope(ctx context.Context, sb *sandboxInbound, ev inboundEnvelope) (inboundEnvelope, error) {
	account := sb.state.Account
	var data map[string]json.RawMessage
	if err := json.Unmarshal(ev.Data, &data); err != nil || data == nil {
		return ev, veriland.Invalid("/data", "data must be a JSON object")
	}
	var env veriland.Environment
	if raw, ok := data["env"]; ok {
		if json.Unmarshal(raw, &env) != nil || env != veriland.Sandbox {
			return ev, forbiddenAt("/data/env", "the sandbox test provider of account %s acts on SANDBOX only: data.env must be SANDBOX", account)
		}
	}
	data["env"] = json.RawMessage(`"SANDBOX"`)
	str := func(member string) (string, error) {
		raw, ok := data[member]
		if !ok {
			return "", nil
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return "", veriland.Invalid("/data/"+member, "%s must be a string", member)
		}
		return v, nil
	}
	subjectRef, err := str("subjectRef")
	if err != nil {
		return ev, err
	}
	delete(data, "subjectRef")
	prefix := sandbox.SubjectPrefix(account)
	// subject returns the DID of subjectRef's identity, after checking that it is the
	// account's.
	subject := func() (string, error) {
		if !strings.HasPrefix(subjectRef, prefix) {
			return "", forbiddenAt("/data/subjectRef", "the sandbox test provider of account %s acts on its own identities only: data.subjectRef must start with %q", account, prefix)
		}
		if s.cfg.Identity == nil {
			return "", veriland.Errorf(veriland.CodeNotFound, "no identity service")
		}
		id, err := s.cfg.Identity.BySubject(ctx, veriland.Sandbox, subjectRef)
		if err != nil {
			return "", err
		}
		return id.DID, nil
	}
	switch ev.Type {
	case webhook.EventKYCCompleted:
		if subjectRef == "" {
			return ev, veriland.Invalid("/data/subjectRef", "the sandbox test provider names the identity by its subjectRef (%s…)", prefix)
		}
		did, err := subject()
		if err != nil {
			return ev, err
		}
		given, err := str("did")
		if err != nil {
			return ev, err
		}
		if given != "" && given != did {
			return ev, forbiddenAt("/data/did", "data.did is not the identity of data.subjectRef: the sandbox test provider of account %s acts on its own identities only", account)
		}
		if ref, err := str("providerRef"); err != nil {
			return ev, err
		} else if ref != "" {
			id, err := s.cfg.Identity.Get(ctx, veriland.Sandbox, did)
			if err != nil {
				return ev, err
			}
			if id.ProviderRef != ref {
				return ev, forbiddenAt("/data/providerRef", "data.providerRef is not the identity of data.subjectRef")
			}
		}
		raw, _ := json.Marshal(did)
		data["did"] = raw
	case webhook.EventAnchorConfirmed:
		id, err := str("attestationId")
		if err != nil {
			return ev, err
		}
		if s.cfg.Attestations == nil {
			return ev, veriland.Errorf(veriland.CodeNotFound, "no attestation service")
		}
		att, err := s.cfg.Attestations.Get(ctx, veriland.Sandbox, id)
		if err != nil {
			return ev, err
		}
		holder := sb.state.Seeded.Holder.DID
		owned := holder != "" && att.Subject == holder
		if !owned && subjectRef != "" {
			did, err := subject()
			if err != nil {
				return ev, err
			}
			owned = att.Subject == did || att.Subject == subjectRef
		}
		if !owned {
			return ev, forbiddenAt("/data/attestationId", "the sandbox test provider of account %s acts on its own attestations only: "+
				"this attestation's subject is neither the seeded holder nor data.subjectRef's identity", account)
		}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return ev, err
	}
	ev.Data = raw
	return ev, nil
}

// forbiddenAt is a forbidden error about the member at pointer.
func forbiddenAt(pointer, format string, args ...any) error {
	e := veriland.Errorf(veriland.CodeForbidden, format, args...)
	e.Pointer = pointer
	return e
}
