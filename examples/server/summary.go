package main

import (
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant/pocketsphinx"
	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/parcel/landtitle"
)

// feature is one line item of the startup summary: what is live, by name.
type feature struct{ name, value string }

// envSummary is what one environment offers at start, and the flags that would
// enable what it lacks.
type envSummary struct {
	env     veriland.Environment
	live    []feature
	missing []string // "WHAT: -flag …"
}

// summarize describes the features of the configured server in each environment:
// device attestation types, KYC, anchoring, the assistant's model and transcriber,
// and the protection of /metrics. ch are the chains.
func summarize(o *options, k *httpserver.Keys, ch *chains) []envSummary {
	var types []string
	for t := range k.DeviceVerifiers {
		types = append(types, string(t))
	}
	slices.Sort(types)
	prodTypes := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == string(deviceattest.Mock) })

	var deviceMissing []string
	if o.androidPackage == "" {
		deviceMissing = append(deviceMissing, "KEY_ATTESTATION bound to your app: -android-package [-android-signing-digest]")
	}
	if _, ok := k.DeviceVerifiers[deviceattest.AppAttest]; !ok {
		deviceMissing = append(deviceMissing, "APP_ATTEST: -apple-app-id")
	}
	if _, ok := k.DeviceVerifiers[deviceattest.PlayIntegrity]; !ok {
		flags := "-play-integrity-decryption-key -play-integrity-verification-key"
		if o.androidPackage == "" {
			flags = "-android-package " + flags
		}
		deviceMissing = append(deviceMissing, "PLAY_INTEGRITY: "+flags)
	}
	var apps []feature
	if o.androidPackage != "" {
		apps = append(apps, feature{"android_app", o.androidPackage})
	}
	if o.appleAppID != "" {
		id := o.appleAppID
		if o.appleDevelopment {
			id += " (development keys)"
		}
		apps = append(apps, feature{"apple_app", id})
	}

	var shared []feature
	var sharedMissing []string
	if k.AssistantModel != nil {
		shared = append(shared, feature{"assistant_model", o.llmModel + " at " + redactURL(o.llmURL)})
	} else {
		shared = append(shared, feature{"assistant_model", "none (router and help text)"})
		sharedMissing = append(sharedMissing, "assistant model: -llm-url -llm-model")
	}
	switch {
	case k.Transcriber == nil:
		shared = append(shared, feature{"transcriber", "none (voice answers 503)"})
		sharedMissing = append(sharedMissing, "transcriber: -transcriber-url (or "+pocketsphinx.InstallHint+")")
	case o.sttURL != "":
		shared = append(shared, feature{"transcriber", o.sttModel + " at " + redactURL(o.sttURL)})
	default:
		shared = append(shared, feature{"transcriber", "embedded PocketSphinx (English)"})
	}
	if o.metricsToken != "" {
		shared = append(shared, feature{"metrics", "bearer token required"})
	} else {
		shared = append(shared, feature{"metrics", "public"})
		sharedMissing = append(sharedMissing, "metrics protection: -metrics-token")
	}

	sandbox := envSummary{env: veriland.Sandbox, live: append(append([]feature{
		{"device_attestation", strings.Join(types, ",")}}, apps...),
		feature{"kyc", "sandbox provider"},
		feature{"chain", "simulated (in-process, empty at each start)"},
		feature{"land_titles", landTitleSummary(ch.sandboxLand)},
	)}
	prod := envSummary{env: veriland.Production, live: append([]feature{{"device_attestation", strings.Join(prodTypes, ",")}}, apps...)}
	if o.kycURL != "" {
		prod.live = append(prod.live, feature{"kyc", "HTTP provider at " + redactURL(o.kycURL)})
	} else {
		prod.live = append(prod.live, feature{"kyc", "none (issuance answers 503)"})
		prod.missing = append(prod.missing, "KYC: -kyc-url -kyc-secret")
	}
	if ch != nil && ch.prod != nil {
		prod.live = append(prod.live, feature{"chain", "ethereum via " + redactURL(o.ethRPC) + " (chain id " + strconv.FormatUint(o.chainID, 10) + ")"},
			feature{"land_titles", landTitleSummary(ch.prodLand)},
			feature{"anchoring", "from " + ch.prod.From().Hex()})
	} else {
		prod.live = append(prod.live, feature{"chain", "off (land titles DISABLED, anchors DISABLED)"})
		prod.missing = append(prod.missing, "chain: -eth-rpc -anchor-key -chain-id")
	}
	for _, s := range []*envSummary{&sandbox, &prod} {
		s.live = append(s.live, shared...)
		s.missing = append(append(deviceMissing[:len(deviceMissing):len(deviceMissing)], s.missing...), sharedMissing...)
	}
	return []envSummary{sandbox, prod}
}

// logSummary logs one line per environment: its live features, then to_enable, the
// flags that would enable the others.
func logSummary(logger *slog.Logger, sums []envSummary) {
	for _, s := range sums {
		args := []any{"env", string(s.env)}
		for _, f := range s.live {
			args = append(args, f.name, f.value)
		}
		to := "nothing: every feature is live"
		if len(s.missing) > 0 {
			to = strings.Join(s.missing, "; ")
		}
		args = append(args, "to_enable", to)
		logger.Info("features", args...)
	}
}

// landTitleSummary names a LandTitle contract and its registry account.
func landTitleSummary(c *landtitle.Contract) string {
	if c == nil {
		return "off"
	}
	return "LandTitle " + c.Address().Hex() + ", registry " + c.Registry().Hex()
}
