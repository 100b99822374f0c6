package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage/chainjob"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	data, addr, origin, trustDir, rateLimit, logLevel string
	database, keysDir                                 string
	rateLimits                                        httpserver.RateLimits
	trustForwardedFor                                 bool
	trustedProxies                                    []netip.Prefix
	kycURL, kycSecret                                 string
	webhookProviders                                  string
	androidPackage, androidDigests                    string
	appleAppID                                        string
	appleDevelopment                                  bool
	playDecryptionKey, playVerificationKey            string
	ethRPC, anchorKeyFile, anchorAddress              string
	landTitleContract                                 string
	chainPoll, chainLease                             time.Duration
	metricsToken                                      string
	llmURL, llmModel, llmKey                          string
	sttURL, sttModel, sttKey                          string
	chainID                                           uint64
	mint                                              bool
	role, env, sub, acct                              string
	ttl                                               time.Duration
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.data, "data", envOr("VERILAND_DATA", "./data"), "data directory (database and generated keys)")
	fs.StringVar(&o.database, "database", envOr("VERILAND_DATABASE_URL", ""), "postgres://user:password@host:5432/db?sslmode=verify-full (pool_max_conns=N and other pgx pool_* parameters allowed): run on PostgreSQL, which several replicas may share; default: bbolt in -data")
	fs.StringVar(&o.keysDir, "keys-dir", envOr("VERILAND_KEYS_DIR", ""), "directory of the keys (token secrets, issuer key, pepper, field keys, sandbox CSCA), shared by every replica; the first replica to start creates them, the others wait and read them (default: -data)")
	fs.BoolVar(&o.trustForwardedFor, "trust-forwarded-for", envOr("VERILAND_TRUST_FORWARDED_FOR", "") == "true", "behind a load balancer or proxy that appends X-Forwarded-For: key rate limits on the client address it recorded (the rightmost one not in -trusted-proxies) instead of the proxy's")
	proxies := fs.String("trusted-proxies", envOr("VERILAND_TRUSTED_PROXIES", ""), "with -trust-forwarded-for: comma-separated CIDRs of the proxies in front (several hops); requests from other peers are keyed on the peer")
	fs.StringVar(&o.addr, "addr", envOr("VERILAND_ADDR", "127.0.0.1:8080"), "listen address")
	fs.StringVar(&o.origin, "public-origin", envOr("VERILAND_PUBLIC_ORIGIN", ""), "public scheme://host[:port] (default http://ADDR)")
	fs.StringVar(&o.trustDir, "trust-dir", envOr("VERILAND_TRUST_DIR", ""), "directory of CSCA certificates and ICAO master lists")
	fs.StringVar(&o.rateLimit, "rate-limit", envOr("VERILAND_RATE_LIMIT", "on"), rateLimitUsage)
	fs.StringVar(&o.logLevel, "log-level", envOr("VERILAND_LOG_LEVEL", "info"), "log level: debug, info, warn, error")
	fs.StringVar(&o.kycURL, "kyc-url", envOr("VERILAND_KYC_URL", ""), "PRODUCTION KYC provider endpoint (https; signed requests, identity.HTTPKYC); without it PRODUCTION issuance answers 503")
	fs.StringVar(&o.kycSecret, "kyc-secret", envOr("VERILAND_KYC_SECRET", ""), "with -kyc-url: the secret shared with the KYC provider, whsec_<base64>; it signs requests and verifies its kyc.completed webhooks")
	fs.StringVar(&o.webhookProviders, "webhook-providers", envOr("VERILAND_WEBHOOK_PROVIDERS", ""), "inbound webhook providers (POST /v1/webhooks/{provider}): a JSON file, or the JSON itself, mapping names to {scheme: standard-webhooks|hmac-sha256, secrets, eventTypes, header, encoding, prefix, eventIdPath} (see doc.go)")
	fs.StringVar(&o.androidPackage, "android-package", envOr("VERILAND_ANDROID_PACKAGE", ""), "Android application id of the holder app: KEY_ATTESTATION chains must name it (attestationApplicationId); PLAY_INTEGRITY verdicts must be for it")
	fs.StringVar(&o.androidDigests, "android-signing-digest", envOr("VERILAND_ANDROID_SIGNING_DIGEST", ""), "with -android-package: comma-separated SHA-256 digests (hex or base64) of the app's signing certificates; KEY_ATTESTATION chains must carry one")
	fs.StringVar(&o.appleAppID, "apple-app-id", envOr("VERILAND_APPLE_APP_ID", ""), "TEAMID.bundle.id of the iOS holder app: enables APP_ATTEST (pinned to the embedded Apple App Attestation root)")
	fs.BoolVar(&o.appleDevelopment, "app-attest-development", envOr("VERILAND_APP_ATTEST_DEVELOPMENT", "") == "true", "with -apple-app-id: accept App Attest keys of the development environment (test builds) instead of production ones")
	fs.StringVar(&o.playDecryptionKey, "play-integrity-decryption-key", envOr("VERILAND_PLAY_INTEGRITY_DECRYPTION_KEY", ""), "with -android-package: the Play Console's base64 response decryption key; enables PLAY_INTEGRITY (verdicts decoded offline)")
	fs.StringVar(&o.playVerificationKey, "play-integrity-verification-key", envOr("VERILAND_PLAY_INTEGRITY_VERIFICATION_KEY", ""), "with -play-integrity-decryption-key: the Play Console's base64 response verification key")
	fs.StringVar(&o.ethRPC, "eth-rpc", envOr("VERILAND_ETH_RPC", ""), "Ethereum JSON-RPC endpoint (https or wss; http/ws only on loopback) of PRODUCTION's chain: land titles (LandTitle, ERC-5192) and attestation anchors; with -anchor-key, and -chain-id equal to the node's")
	fs.StringVar(&o.anchorKeyFile, "anchor-key", envOr("VERILAND_ANCHOR_KEY", ""), "with -eth-rpc: file (mode 0600) holding the hex secp256k1 key of the registry account, which deploys LandTitle, mints and burns titles, holds the titles of owners without a wallet, sends the anchors and pays the gas")
	fs.StringVar(&o.anchorAddress, "anchor-address", envOr("VERILAND_ANCHOR_ADDRESS", ""), "with -eth-rpc: 0x address that receives attestation anchors as calldata (default: the registry account itself)")
	fs.StringVar(&o.landTitleContract, "land-title-contract", envOr("VERILAND_LAND_TITLE_CONTRACT", ""), "with -eth-rpc: 0x address of a deployed LandTitle contract whose registry is -anchor-key's account (default: the one this server deployed, or a new deployment at first start, recorded and logged)")
	fs.DurationVar(&o.chainPoll, "chain-poll", 0, "pause between rounds of the chain-job worker (default 1s)")
	fs.DurationVar(&o.chainLease, "chain-lease", 0, "how long a claimed chain job stays hidden before another round may retry it, e.g. after a crash (default 5m)")
	fs.StringVar(&o.metricsToken, "metrics-token", envOr("VERILAND_METRICS_TOKEN", ""), "when set, GET /metrics requires \"Authorization: Bearer <token>\" (default: public)")
	fs.StringVar(&o.llmURL, "llm-url", envOr("VERILAND_LLM_URL", ""), "OpenAI-compatible chat-completions base URL (e.g. http://127.0.0.1:8081/v1) that answers the assistant's messages its router cannot place; default: none (the help text)")
	fs.StringVar(&o.llmModel, "llm-model", envOr("VERILAND_LLM_MODEL", ""), "with -llm-url: the model name")
	fs.StringVar(&o.llmKey, "llm-key", envOr("VERILAND_LLM_KEY", ""), "with -llm-url: the API key, if the server needs one")
	fs.StringVar(&o.sttURL, "transcriber-url", envOr("VERILAND_TRANSCRIBER_URL", ""), "OpenAI-compatible /audio/transcriptions base URL (whisper.cpp server, faster-whisper, LocalAI) for POST /v1/assistant/voice; default: the embedded PocketSphinx when installed (apt-get install pocketsphinx pocketsphinx-en-us; or a -tags pocketsphinx build), else none (503)")
	fs.StringVar(&o.sttModel, "transcriber-model", envOr("VERILAND_TRANSCRIBER_MODEL", "whisper-1"), "with -transcriber-url: the model name")
	fs.StringVar(&o.sttKey, "transcriber-key", envOr("VERILAND_TRANSCRIBER_KEY", ""), "with -transcriber-url: the API key, if the server needs one")
	chain, err := strconv.ParseUint(envOr("VERILAND_CHAIN_ID", "1"), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("VERILAND_CHAIN_ID: %w", err)
	}
	fs.Uint64Var(&o.chainID, "chain-id", chain, "EIP-712 chainId of every signing domain")
	fs.BoolVar(&o.mint, "mint-token", false, "print one token on stdout and exit")
	fs.StringVar(&o.role, "role", "admin", "with -mint-token: holder, verifier, notary or admin")
	fs.StringVar(&o.env, "env", "SANDBOX", "with -mint-token: SANDBOX or PRODUCTION")
	fs.StringVar(&o.sub, "sub", "", "with -mint-token: subject (default: the role name)")
	fs.StringVar(&o.acct, "acct", "", "with -mint-token: account id")
	fs.DurationVar(&o.ttl, "ttl", 24*time.Hour, "with -mint-token: lifetime")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.rateLimits, err = parseRateLimits(o.rateLimit); err != nil {
		return nil, err
	}
	for _, c := range strings.Split(*proxies, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		p, err := netip.ParsePrefix(c)
		if err != nil {
			return nil, fmt.Errorf("-trusted-proxies: %q is not a CIDR (10.0.0.0/8, fd00::/8)", c)
		}
		o.trustedProxies = append(o.trustedProxies, p.Masked())
	}
	if len(o.trustedProxies) > 0 && !o.trustForwardedFor {
		return nil, fmt.Errorf("-trusted-proxies needs -trust-forwarded-for")
	}
	if err := checkDatabase(o.database); err != nil {
		return nil, err
	}
	if o.keysDir == "" {
		o.keysDir = o.data
	}
	if o.chainID == 0 {
		return nil, fmt.Errorf("-chain-id must be positive")
	}
	if err := o.checkKYC(); err != nil {
		return nil, err
	}
	if _, err := o.inboundProviders(); err != nil {
		return nil, err
	}
	if err := o.checkDevice(); err != nil {
		return nil, err
	}
	if err := o.checkAnchor(); err != nil {
		return nil, err
	}
	if o.llmURL == "" && (o.llmModel != "" || o.llmKey != "") {
		return nil, fmt.Errorf("-llm-model and -llm-key need -llm-url")
	}
	return o, nil
}

// checkKYC validates -kyc-url and -kyc-secret: both or neither; an https URL (http
// only for a loopback host, for local testing); a whsec_ secret.
func (o *options) checkKYC() error {
	if o.kycURL == "" && o.kycSecret == "" {
		return nil
	}
	if o.kycURL == "" || o.kycSecret == "" {
		return fmt.Errorf("-kyc-url and -kyc-secret (VERILAND_KYC_URL, VERILAND_KYC_SECRET) go together")
	}
	u, err := url.Parse(o.kycURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname()))) {
		return fmt.Errorf("-kyc-url must be an https URL (http only on a loopback host)")
	}
	if _, err := webhook.ParseSecret(o.kycSecret); err != nil {
		return fmt.Errorf("-kyc-secret: %w", err) // the message never repeats the secret
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// kycKeys configures the KYC provider: the sandbox provider for SANDBOX and, with
// -kyc-url, identity.HTTPKYC for PRODUCTION together with the inbound "kyc" webhook
// provider (POST /v1/webhooks/kyc) that delivers its late results. Without -kyc-url,
// PRODUCTION issuance answers 503 naming the flags to set.
func kycKeys(o *options, k *httpserver.Keys) error {
	if o.kycURL == "" {
		return nil
	}
	sec, err := webhook.ParseSecret(o.kycSecret)
	if err != nil {
		return err
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(o.kycSecret, webhook.SecretPrefix))
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimPrefix(o.kycSecret, webhook.SecretPrefix))
	}
	if err != nil {
		return fmt.Errorf("-kyc-secret: not base64")
	}
	k.KYC = identity.KYCByEnvironment{
		veriland.Sandbox:    identity.SandboxKYC{},
		veriland.Production: &identity.HTTPKYC{URL: o.kycURL, Secret: raw},
	}
	k.WebhookProviders = webhook.Providers{
		"kyc": {Secrets: []webhook.Secret{sec}, EventTypes: []string{webhook.EventKYCCompleted}},
	}
	return nil
}

// inboundProviders reads -webhook-providers: a file name, or JSON text when it starts
// with "{" (webhook.ParseProviders). Errors never repeat a secret.
func (o *options) inboundProviders() (webhook.Providers, error) {
	v := strings.TrimSpace(o.webhookProviders)
	if v == "" {
		return nil, nil
	}
	raw := []byte(v)
	if !strings.HasPrefix(v, "{") {
		var err error
		if raw, err = os.ReadFile(v); err != nil {
			return nil, fmt.Errorf("-webhook-providers: %w", err)
		}
	}
	ps, err := webhook.ParseProviders(raw)
	if err != nil {
		return nil, fmt.Errorf("-webhook-providers: %w", err)
	}
	if _, ok := ps["kyc"]; ok && o.kycURL != "" {
		return nil, fmt.Errorf("-webhook-providers: the \"kyc\" provider is configured by -kyc-url and -kyc-secret; name this one otherwise")
	}
	return ps, nil
}

// providerSummary lists providers as "name:scheme" in name order, for the start-up log.
func providerSummary(ps webhook.Providers) string {
	names := slices.Sorted(maps.Keys(ps))
	for i, n := range names {
		names[i] = n + ":" + string(cmp.Or(ps[n].Scheme, webhook.SchemeStandardWebhooks))
	}
	return strings.Join(names, ",")
}

// webhookKeys adds the providers of -webhook-providers to k's (the "kyc" of -kyc-url).
func webhookKeys(o *options, k *httpserver.Keys) error {
	ps, err := o.inboundProviders()
	if err != nil || len(ps) == 0 {
		return err
	}
	if k.WebhookProviders == nil {
		k.WebhookProviders = webhook.Providers{}
	}
	for name, p := range ps {
		k.WebhookProviders[name] = p
	}
	return nil
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "server:", err)
		return 2
	}
	sec, first, err := loadOrCreateSecrets(o.keysDir)
	if err != nil {
		fmt.Fprintln(stderr, "server: keys:", err)
		return 1
	}
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: sec.jwtSandbox, Production: sec.jwtProduction}, Rand: rand.Reader}
	if o.mint {
		return mintToken(tokens, o, stdout, stderr)
	}
	if err := serve(ctx, o, sec, tokens, first, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "server:", err)
		return 1
	}
	return 0
}

func mintToken(tokens *auth.Tokens, o *options, stdout, stderr io.Writer) int {
	env, err := veriland.ParseEnvironment(strings.ToUpper(o.env))
	if err != nil {
		fmt.Fprintln(stderr, "server: -env:", err)
		return 2
	}
	sub := o.sub
	if sub == "" {
		sub = o.role
	}
	tok, _, err := tokens.Mint(veriland.Principal{Subject: sub, Role: veriland.Role(o.role), Env: env, Account: o.acct}, o.ttl)
	if err != nil {
		fmt.Fprintln(stderr, "server: -mint-token:", err)
		return 2
	}
	fmt.Fprintln(stdout, tok)
	return 0
}

func serve(ctx context.Context, o *options, sec *secrets, tokens *auth.Tokens, first bool, stdout, stderr io.Writer) error {
	level := new(slog.LevelVar)
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	store, err := openDatabase(ctx, o)
	if err != nil {
		return err
	}
	defer store.Close()
	logger.Info("database", "kind", store.kind, "at", store.where)

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	origin := o.origin
	if origin == "" {
		origin = "http://" + ln.Addr().String()
	}
	// SANDBOX's chain is go-ethereum's in-process simulated chain, PRODUCTION's the
	// node of -eth-rpc (SPEC S7, S14).
	ch, err := openChains(ctx, o, store.Store, origin, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer ch.Close()

	trust, err := loadTrust(o.keysDir, o.trustDir)
	if err != nil {
		return err
	}

	keys := httpserver.Keys{Pepper: sec.pepper, IssuerKey: sec.issuerKey,
		Anchors: ch.anchors(), Titles: ch.titles(),
		Trust: trust}
	if err := kycKeys(o, &keys); err != nil {
		ln.Close()
		return err
	}
	if err := webhookKeys(o, &keys); err != nil {
		ln.Close()
		return err
	}
	if len(keys.WebhookProviders) > 0 {
		logger.Info("inbound webhook providers", "providers", providerSummary(keys.WebhookProviders))
	}
	if keys.DeviceVerifiers, err = deviceVerifiers(o); err != nil {
		ln.Close()
		return err
	}
	closeSpeech, err := assistantKeys(o, &keys, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer closeSpeech()
	logSummary(logger, summarize(o, &keys, ch))
	cfg, err := httpserver.WithDefaultServices(httpserver.Config{
		Store: store.Store, Tokens: tokens, Logger: logger, Version: version,
		PublicOrigin: origin, ChainID: o.chainID, Fields: sec.fields,
		RateLimits: o.rateLimits, MetricsToken: o.metricsToken,
		MetricsCollectors: store.collectors(),
		TrustForwardedFor: o.trustForwardedFor, TrustedProxies: o.trustedProxies,
		ChainJobs:   chainjob.Policy{PollInterval: o.chainPoll, Lease: o.chainLease},
		FreshChains: []veriland.Environment{veriland.Sandbox}, SandboxChain: ch.sandboxRPC(),
	}, keys)
	if err != nil {
		ln.Close()
		return err
	}
	srv, err := httpserver.New(cfg)
	if err != nil {
		ln.Close()
		return err
	}

	if first {
		acct, err := ids.New(rand.Reader, "acct")
		if err != nil {
			return err
		}
		tok, _, err := tokens.Mint(veriland.Principal{Subject: "admin", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: acct}, 30*24*time.Hour)
		if err != nil {
			return err
		}
		// The banner names the account: a new one, picked at random, so that this token's
		// sandbox is nobody else's. Tokens of any other account (the README's tour uses
		// acct_demo) are minted with -mint-token -acct.
		fmt.Fprintf(stdout, "SANDBOX admin token (shown once, valid 30 days) of account %s, a new random account; "+
			"mint more, for it or any other account, with -mint-token -role admin -env SANDBOX -acct ACCOUNT:\n%s\n", acct, tok)
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	bgCtx, bgCancel := context.WithCancel(context.Background())
	bgDone := make(chan error, 1)
	go func() { bgDone <- srv.Run(bgCtx) }()

	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	fmt.Fprintf(stderr, "listening on http://%s\n", ln.Addr())

	select {
	case err := <-serveErr:
		bgCancel()
		<-bgDone
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = hs.Shutdown(shutdownCtx)
	bgCancel()
	if bgErr := <-bgDone; bgErr != nil && !errors.Is(bgErr, context.Canceled) {
		logger.Warn("background work", "err", bgErr)
	}
	return err
}
