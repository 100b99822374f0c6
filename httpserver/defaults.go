package httpserver

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"log/slog"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/audit"
)

// Keys are what WithDefaultServices needs beyond Config: the secrets and the
// integrations that differ between deployments.
type Keys struct {
	// Pepper keys the HMACs under which subject references and documents are indexed
	// (at least 16 secret bytes; changing it orphans existing indexes).
	Pepper []byte
	// IssuerKey is the secp256k1 key that signs attestations.
	IssuerKey *ecdsa.PrivateKey
	// KYC checks new identities; nil uses identity.SandboxKYC, which serves SANDBOX
	// only (PRODUCTION issuance then answers 503 unavailable naming this setting until
	// a provider is configured; identity.KYCByEnvironment combines the sandbox
	// provider with a production one such as identity.HTTPKYC).
	KYC identity.KYCProvider
	// DeviceVerifiers check device attestations at enrolment; nil registers MOCK
	// only (SANDBOX). Register KEY_ATTESTATION, APP_ATTEST and PLAY_INTEGRITY for
	// production devices (see liveness/deviceattest).
	DeviceVerifiers deviceattest.Verifiers
	// Anchors anchor attestation digests per environment; nil disables anchoring.
	Anchors map[veriland.Environment]anchor.Anchor
	// Titles are the LandTitle contracts (parcel/landtitle) per environment, where
	// certified parcels' tokens are minted (SPEC S14); an environment without one
	// records its tokens as DISABLED.
	Titles map[veriland.Environment]parcel.TitleChain
	// CallbackPolicy tunes the SSRF rules of verifier callbacks (the zero value is
	// SPEC's default: SANDBOX may call http and loopback, PRODUCTION never).
	CallbackPolicy webhook.CallbackPolicy
	// WebhookProviders are the inbound event providers (kyc, anchor).
	WebhookProviders webhook.Providers
	// Trust are the CSCA trust stores of chip binding per environment (ICAO master
	// lists and CSCA certificates; SANDBOX adds the sandbox test CSCA). An
	// environment without one trusts no passport.
	Trust map[veriland.Environment]*chipauth.TrustStore
	// AssistantModel answers the assistant's messages that its embedded router cannot
	// place (assistant/openai.ChatModel); nil answers them with the help text.
	AssistantModel assistant.LanguageModel
	// Transcriber serves POST /v1/assistant/voice (assistant/openai.Transcriber, or
	// assistant/pocketsphinx when built with -tags pocketsphinx); nil answers 503 with
	// TranscriberHint.
	Transcriber assistant.Transcriber
	// TranscriberHint tells the operator how to configure a transcriber (the 503
	// message when there is none).
	TranscriberHint string
}

// WithDefaultServices returns cfg with every domain service it lacks built over
// cfg.Store with veriland's defaults: the wiring the reference server uses, and a
// quick start for embedders, who can replace any service by setting it first.
// Parcels (SPEC S9) are built only when cfg.Fields is set: owner names are sealed
// with it, signed with Keys.IssuerKey, and id_doc is hashed with Keys.Pepper.
func WithDefaultServices(cfg Config, k Keys) (Config, error) {
	if cfg.Store == nil {
		return cfg, errors.New("httpserver: Config.Store is required")
	}
	if k.IssuerKey == nil || len(k.Pepper) < identity.MinPepperSize {
		return cfg, errors.New("httpserver: Keys.IssuerKey and a Pepper of at least 16 bytes are required")
	}
	if cfg.IdempotencyFingerprintKey == nil {
		m := hmac.New(sha256.New, k.Pepper)
		m.Write([]byte("veriland idempotency fingerprint v1"))
		cfg.IdempotencyFingerprintKey = m.Sum(nil)
	}
	if cfg.ChainID == 0 {
		cfg.ChainID = 1
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	store, now, rnd, log := cfg.Store, cfg.Now, cfg.Rand, cfg.Logger
	auditLog := &audit.Log{Now: now, Rand: rnd}
	if k.KYC == nil {
		k.KYC = identity.SandboxKYC{Now: now}
	}
	if k.DeviceVerifiers == nil {
		k.DeviceVerifiers = deviceattest.Verifiers{deviceattest.Mock: deviceattest.MockVerifier{}}
	}
	if cfg.Identity == nil {
		cfg.Identity = &identity.Service{Store: store, Pepper: k.Pepper, KYC: k.KYC, Now: now, Rand: rnd, Logger: log}
	}
	if cfg.SIWE == nil {
		cfg.SIWE = &siwe.Service{Store: store, Origin: cfg.PublicOrigin, ChainID: cfg.ChainID, Now: now, Rand: rnd}
	}
	if cfg.Attestations == nil {
		cfg.Attestations = &attestation.Service{Store: store, Anchors: k.Anchors, Now: now, Logger: log,
			Issuer: &attestation.Issuer{Key: k.IssuerKey, ChainID: cfg.ChainID, Rand: rnd, Now: now}}
	}
	gate := &liveness.Gate{Attestations: cfg.Attestations, Now: now}
	if cfg.Liveness == nil {
		cfg.Liveness = &liveness.Service{Store: store, Verifiers: k.DeviceVerifiers, Attestations: cfg.Attestations,
			ChainID: cfg.ChainID, Now: now, Rand: rnd, Logger: log}
	}
	if cfg.Consent == nil {
		policy := k.CallbackPolicy
		cfg.Consent = &consent.Service{Store: store, ChainID: cfg.ChainID, Now: now, Rand: rnd, Logger: log,
			Wallets: consent.IdentityWallets{Identities: cfg.Identity}, Attestations: cfg.Attestations, Liveness: gate,
			ValidateCallback: func(env veriland.Environment, raw string) error {
				return webhook.ValidateCallbackURL(env, raw, policy)
			}}
	}
	if cfg.ChipBinding == nil {
		trust := k.Trust
		cfg.ChipBinding = &binding.Service{Store: store, Pepper: k.Pepper, Attestations: cfg.Attestations, Liveness: gate, Now: now,
			Identities: cfg.Identity, Trust: func(env veriland.Environment) *chipauth.TrustStore { return trust[env] }}
	}
	if cfg.Parcels == nil && cfg.Fields != nil {
		// Owner names are sealed with Config.Fields, so parcels need it: without a
		// field keyring the parcel routes stay unregistered rather than store names
		// in clear.
		policy := k.CallbackPolicy
		cfg.Parcels = &parcel.Service{Store: store, Fields: cfg.Fields, Pepper: k.Pepper, Titles: k.Titles,
			Identities: cfg.Identity, Liveness: gate,
			ValidateCallback: func(env veriland.Environment, raw string) error {
				return webhook.ValidateCallbackURL(env, raw, policy)
			},
			Now: now, Rand: rnd, Logger: log,
			Issuer: &attestation.Issuer{Key: k.IssuerKey, ChainID: cfg.ChainID, Rand: rnd, Now: now}}
	}
	if cfg.Assistant == nil && cfg.Fields != nil {
		// Message text is sealed under per-session keys that Config.Fields seals: like
		// parcels, the assistant needs the field keyring.
		hint := k.TranscriberHint
		if hint == "" {
			hint = "no speech-to-text is configured: set Keys.Transcriber (an OpenAI-compatible /audio/transcriptions client, or PocketSphinx with -tags pocketsphinx)"
		}
		cfg.Assistant = &assistant.Service{Store: store, Fields: cfg.Fields, Model: k.AssistantModel,
			Transcriber: k.Transcriber, TranscriberHint: hint, Now: now, Rand: rnd, Logger: log,
			Domain: assistant.Domain{Parcels: cfg.Parcels, Consent: cfg.Consent, Attestations: cfg.Attestations, PublicOrigin: cfg.PublicOrigin}}
	}
	if cfg.Sandbox == nil {
		cfg.Sandbox = &sandbox.Seeder{Store: store, Parcels: cfg.Parcels, Consent: cfg.Consent, Identity: cfg.Identity,
			ChainID: cfg.ChainID, Now: now, Rand: rnd, Logger: log}
	}
	if cfg.WebhookSecrets == nil {
		cfg.WebhookSecrets = &webhook.SecretStore{Store: store, Now: now, Rand: rnd, Audit: auditLog}
	}
	if cfg.Outbox == nil {
		cfg.Outbox = &webhook.Outbox{Store: store, Now: now, Rand: rnd, Secrets: cfg.WebhookSecrets,
			Policy: k.CallbackPolicy, Logger: log, Audit: auditLog}
	}
	if cfg.Inbox == nil {
		cfg.Inbox = &webhook.Inbox{Store: store, Now: now}
	}
	if cfg.WebhookProviders == nil {
		cfg.WebhookProviders = k.WebhookProviders
	}
	return cfg, nil
}
