package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
)

var (
	admin           = []veriland.Role{veriland.RoleAdmin}
	holder          = []veriland.Role{veriland.RoleHolder}
	verifier        = []veriland.Role{veriland.RoleVerifier}
	holderOrAdmin   = []veriland.Role{veriland.RoleHolder, veriland.RoleAdmin}
	verifierOrAdmin = []veriland.Role{veriland.RoleVerifier, veriland.RoleAdmin}
	notaryOrAdmin   = []veriland.Role{veriland.RoleNotary, veriland.RoleAdmin}
	anyRole         = []veriland.Role{veriland.RoleHolder, veriland.RoleVerifier, veriland.RoleNotary, veriland.RoleAdmin}
)

// noRateLimit marks routes that are never rate limited (probes and documents).
const noRateLimit rateGroup = "-"

// registerRoutes registers every route. The OpenAPI document must list exactly
// these (a test checks both directions).
func (s *Server) registerRoutes() {
	// Platform: health, documents, metrics.
	s.add(route{method: "GET", path: "/v1/health", rate: noRateLimit, handle: s.health})
	s.add(route{method: "GET", path: "/v1/openapi.json", rate: noRateLimit, handle: s.openAPI})
	s.registerDashboard()
	s.registerDocs()
	metricsHandler := s.metrics.handler(s.cfg.MetricsToken, s.writeError)
	s.add(route{method: "GET", path: "/metrics", rate: noRateLimit, ownAuth: s.cfg.MetricsToken != "",
		handle: func(w http.ResponseWriter, r *http.Request) error {
			metricsHandler.ServeHTTP(w, r)
			return nil
		}})

	// Platform: API keys and audit (admin).
	s.add(route{method: "POST", path: "/v1/api-keys", roles: admin, handle: s.createAPIKey})
	s.add(route{method: "GET", path: "/v1/api-keys", roles: admin, handle: s.listAPIKeys})
	s.add(route{method: "DELETE", path: "/v1/api-keys/{id}", roles: admin, handle: s.revokeAPIKey})
	s.add(route{method: "GET", path: "/v1/audit", roles: admin, handle: s.listAudit})
	s.add(route{method: "GET", path: "/v1/audit/verify", roles: admin, handle: s.verifyAudit})

	if s.cfg.Identity != nil {
		s.add(route{method: "POST", path: "/identity/issue", handle: s.issueIdentity})
		s.add(route{method: "GET", path: "/identity/{first}/{second}", handle: s.identityRead,
			documents: []string{"/identity/{did}/status", "/identity/review/{id}"}})
		s.add(route{method: "POST", path: "/identity/review/{id}/decision", roles: admin, handle: s.decideReview})
	}
	if s.cfg.Attestations != nil {
		s.add(route{method: "GET", path: "/attestation/issuer", handle: s.attestationIssuer})
		s.add(route{method: "GET", path: "/attestation/revocations", handle: s.revocations})
		s.add(route{method: "GET", path: "/attestation/{id}", handle: s.getAttestation}) // any role for JSON; the HTML page is public
		s.add(route{method: "GET", path: "/attestation/{id}/status", handle: s.attestationStatus})
		s.add(route{method: "POST", path: "/attestation/{id}/revoke", roles: holderOrAdmin, optionalBody: true, handle: s.revokeAttestation})
	}
	if s.cfg.Liveness != nil {
		s.add(route{method: "POST", path: "/liveness/device/enroll", roles: holder, handle: s.enrollDevice})
		s.add(route{method: "POST", path: "/liveness/session", roles: holder, optionalBody: true, handle: s.startLivenessSession})
		s.add(route{method: "POST", path: "/liveness/verify", roles: holder, handle: s.verifyLiveness})
		s.add(route{method: "GET", path: "/liveness/attestations/me", roles: holder, handle: s.myLivenessAttestations})
	}
	if s.cfg.ChipBinding != nil {
		s.add(route{method: "POST", path: "/identity/chip-verify", roles: holder, bodyLimit: limitChipVerify, handle: s.chipVerify})
		s.add(route{method: "GET", path: "/identity/chip-bindings/me", roles: holder, handle: s.myChipBindings})
	}
	if s.cfg.Consent != nil {
		s.add(route{method: "POST", path: "/verify/request", roles: verifier, handle: s.createVerificationRequest})
		s.add(route{method: "GET", path: "/verify/request/{id}", handle: s.getVerificationRequest})
		s.add(route{method: "POST", path: "/verify/request/{id}/cancel", roles: verifier, optionalBody: true, handle: s.cancelVerificationRequest})
		s.add(route{method: "GET", path: "/consent/{requestId}", handle: s.consentContext})
		s.add(route{method: "POST", path: "/consent/{requestId}", handle: s.decideConsent})
	}
	if s.cfg.Parcels != nil {
		// Land parcels (SPEC S9). Who may act on which parcel (the creating account,
		// the named notary, admin) is the parcel service's decision.
		s.add(route{method: "POST", path: "/v1/parcels", roles: anyRole, handle: s.createParcel})
		s.add(route{method: "GET", path: "/v1/parcels", roles: anyRole, handle: s.listParcels})
		s.add(route{method: "GET", path: "/v1/parcels/{id}", roles: anyRole, handle: s.getParcel})
		s.add(route{method: "POST", path: "/v1/parcels/{id}/certify", roles: notaryOrAdmin, optionalBody: true, handle: s.certifyParcel})
		s.add(route{method: "POST", path: "/v1/parcels/{id}/reject", roles: notaryOrAdmin, optionalBody: true, handle: s.rejectParcel})
		s.add(route{method: "POST", path: "/v1/parcels/{id}/revoke", roles: admin, optionalBody: true, handle: s.revokeParcel})
		s.add(route{method: "GET", path: "/v1/parcels/{id}/certificate", roles: anyRole, handle: s.parcelCertificate})
		s.add(route{method: "GET", path: "/v1/parcels/{id}/history", roles: anyRole, handle: s.parcelHistory})
		s.add(route{method: "POST", path: "/v1/parcels/{id}/transfer", roles: anyRole, handle: s.requestTransfer})
		s.add(route{method: "GET", path: "/v1/parcels/{id}/transfers", roles: anyRole, handle: s.listParcelTransfers})
		s.add(route{method: "GET", path: "/v1/transfers", roles: anyRole, handle: s.listOpenTransfers})
		s.add(route{method: "GET", path: "/v1/transfers/{id}", roles: anyRole, handle: s.getTransfer})
		s.add(route{method: "POST", path: "/v1/transfers/{id}/approve", roles: notaryOrAdmin, optionalBody: true, handle: s.approveTransfer})
		s.add(route{method: "POST", path: "/v1/transfers/{id}/reject", roles: notaryOrAdmin, optionalBody: true, handle: s.rejectTransfer})
		s.add(route{method: "POST", path: "/v1/transfers/{id}/cancel", roles: anyRole, optionalBody: true, handle: s.cancelTransfer})
		// The owner's decision (SPEC S13): public, like POST /consent/{requestId}; the
		// signature by the parcel owner's bound wallet is the authentication.
		s.add(route{method: "GET", path: "/v1/transfers/{id}/owner-consent", handle: s.ownerConsentContext})
		s.add(route{method: "POST", path: "/v1/transfers/{id}/owner-consent", handle: s.decideOwnerConsent})
		s.add(route{method: "GET", path: "/v1/me/parcels", roles: holder, handle: s.myParcels})
		s.add(route{method: "GET", path: "/v1/registry/verify/{hash}", handle: s.verifyCertificateHash})
		s.add(route{method: "GET", path: "/v1/registry/statuses", handle: s.certificateStatuses})
		s.add(route{method: "GET", path: "/v1/tokens/{tokenId}", handle: s.tokenMetadata})
	}
	if s.cfg.Assistant != nil {
		// The assistant (SPEC S11): sessions belong to the token's (environment,
		// account, sub); the tools read with the caller's own permissions.
		s.add(route{method: "POST", path: "/v1/assistant/sessions", roles: anyRole, optionalBody: true, rate: "assistant", handle: s.createAssistantSession})
		s.add(route{method: "GET", path: "/v1/assistant/sessions", roles: anyRole, rate: "assistant", handle: s.listAssistantSessions})
		s.add(route{method: "GET", path: "/v1/assistant/sessions/{id}", roles: anyRole, rate: "assistant", handle: s.getAssistantSession})
		s.add(route{method: "DELETE", path: "/v1/assistant/sessions/{id}", roles: anyRole, rate: "assistant", handle: s.deleteAssistantSession})
		s.add(route{method: "POST", path: "/v1/assistant/messages", roles: anyRole, rate: "assistant", handle: s.sendAssistantMessage})
		s.add(route{method: "POST", path: "/v1/assistant/voice", roles: anyRole, rate: "assistant", media: mediaMultipart,
			bodyLimit: limitVoiceBody, handle: s.assistantVoice})
	}
	if s.cfg.Sandbox != nil {
		// The account's sandbox (SPEC S10): SANDBOX tokens with an account only.
		s.add(route{method: "GET", path: "/v1/sandbox/scenarios", roles: anyRole, handle: s.sandboxScenarios})
		s.add(route{method: "POST", path: "/v1/sandbox/reset", roles: verifierOrAdmin, optionalBody: true, handle: s.resetSandbox})
	}
	if s.cfg.SandboxChain != nil {
		// The sandbox chain's land titles, read-only JSON-RPC for wallets and scripts
		// (public: the sandbox chain holds no personal data).
		s.add(route{method: "POST", path: "/v1/sandbox/chain", bodyLimit: 64 << 10, handle: s.sandboxChain})
	}
	if s.cfg.WebhookSecrets != nil {
		s.add(route{method: "GET", path: "/v1/webhooks/secret", roles: verifierOrAdmin, handle: s.webhookSecret})
		s.add(route{method: "POST", path: "/v1/webhooks/secret/rotate", roles: verifierOrAdmin, optionalBody: true, handle: s.rotateWebhookSecret})
	}
	if s.cfg.Outbox != nil {
		s.add(route{method: "GET", path: "/v1/webhooks/deliveries", roles: verifierOrAdmin, handle: s.listDeliveries})
		s.add(route{method: "GET", path: "/v1/webhooks/deliveries/{id}", roles: verifierOrAdmin, handle: s.getDelivery})
		s.add(route{method: "POST", path: "/v1/webhooks/deliveries/{id}/replay", roles: verifierOrAdmin, optionalBody: true, handle: s.replayDelivery})
	}
	if s.cfg.Inbox != nil {
		s.add(route{method: "POST", path: "/v1/webhooks/{provider}", handle: s.inboundWebhook})
	}
	if s.cfg.SIWE != nil && s.cfg.Identity != nil {
		s.add(route{method: "POST", path: "/auth/siwe/nonce", optionalBody: true, handle: s.siweNonce})
		s.add(route{method: "POST", path: "/auth/siwe", handle: s.siweLogin})
	}
}

func invalidParam(name, msg string) error {
	return veriland.Invalid("/"+name, "%s", msg).WithMeta("parameter", name)
}
