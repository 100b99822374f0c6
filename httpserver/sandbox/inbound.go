package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
)

// Every account's sandbox has its own inbound test provider (SPEC S15): a Standard
// Webhooks sender whose secret is made at seeding and shown in
// GET /v1/sandbox/scenarios, so that a newcomer can post a signed provider event in one
// curl. Its URL is POST /v1/webhooks/{Provider}, where Provider is ProviderName of the
// account; its events act on that account's SANDBOX records only (the route checks it)
// and never on PRODUCTION.
//
// The secret is random, stored with the account's sandbox state and never shared with
// another account. A reset (Forget, then Ensure) seeds a new one: the URL stays, the
// old secret is refused from then on.

// inboundBucket maps a sandbox provider name to its account, in SANDBOX's namespace.
const inboundBucket = "sandbox_inbound_providers"

// SeededInbound is the account's inbound test provider (member "inboundWebhook" of
// the seeded records).
type SeededInbound struct {
	// Provider is the {provider} of POST /v1/webhooks/{provider}: ProviderName of the
	// account.
	Provider string `json:"provider"`
	// Path is the route that receives its events, relative to the server's origin.
	Path string `json:"path"`
	// Scheme is how its events are signed: always standard-webhooks.
	Scheme webhook.Scheme `json:"scheme"`
	// Secret is the Standard Webhooks secret ("whsec_<base64>") of this account's
	// provider. It is a sandbox test secret, shown to the account on purpose.
	Secret string `json:"secret"`
	// EventTypes are the events it may send (InboundEventTypes).
	EventTypes []string `json:"eventTypes"`
	// ToleranceSeconds is how far webhook-timestamp may be from the server's clock.
	ToleranceSeconds int `json:"toleranceSeconds"`
	// Example is a kyc.completed event signed when the sandbox was read (Ensure), that
	// approves the identity of the kyc.timeout scenario; never stored.
	Example *InboundExample `json:"example,omitempty"`
}

// InboundExample is a signed event of the sandbox provider: the exact body and the
// headers to send it with.
type InboundExample struct {
	// Headers are Content-Type and the Standard Webhooks webhook-id,
	// webhook-timestamp and webhook-signature of Body.
	Headers map[string]string `json:"headers"`
	// Body is the exact bytes signed: compact JSON, members in alphabetical order.
	Body string `json:"body"`
	// ValidUntil is when webhook-timestamp falls out of the accepted window.
	ValidUntil time.Time `json:"validUntil"`
}

// InboundEventTypes are the events the sandbox providers accept: those the inbound
// route dispatches.
func InboundEventTypes() []string {
	return []string{webhook.EventKYCCompleted, webhook.EventAnchorConfirmed}
}

// ProviderName returns account's sandbox provider name: "sandbox-" followed by 24 hex
// digits of SHA-256 over the account (an account id may hold characters a provider
// name may not). It is the same after a reset.
func ProviderName(account string) string {
	sum := sha256.Sum256([]byte("veriland sandbox inbound provider\x00" + account))
	return webhook.SandboxProviderPrefix + hex.EncodeToString(sum[:12])
}

// SubjectPrefix is the prefix of the subjectRefs of account's sandbox identities:
// "sandbox:<account>:". The seeded holder's is SubjectPrefix + "holder", the KYC
// scenarios' SubjectPrefix + "kyc-<case>"; the sandbox provider's kyc.completed
// events may only name identities whose subjectRef starts with it.
func SubjectPrefix(account string) string { return "sandbox:" + account + ":" }

// newInbound makes account's provider with a fresh secret.
func (s *Seeder) newInbound(account string) (SeededInbound, error) {
	secret, err := webhook.NewSecret(s.rand())
	if err != nil {
		return SeededInbound{}, err
	}
	name := ProviderName(account)
	return SeededInbound{Provider: name, Path: "/v1/webhooks/" + name, Scheme: webhook.SchemeStandardWebhooks,
		Secret: secret.String(), EventTypes: InboundEventTypes(), ToleranceSeconds: int(webhook.DefaultTolerance / time.Second)}, nil
}

// putInboundIndex records which account a provider name is.
func putInboundIndex(tx storage.Tx, account string, in SeededInbound) error {
	return tx.Put(storage.Bucket(veriland.Sandbox, inboundBucket), []byte(in.Provider), []byte(account))
}

// ensureInbound gives a state seeded before the sandbox providers existed its
// provider, once (concurrent callers agree on the stored one).
func (s *Seeder) ensureInbound(ctx context.Context, account string, st *State) error {
	if st.Seeded.InboundWebhook.Secret != "" {
		return nil
	}
	in, err := s.newInbound(account)
	if err != nil {
		return err
	}
	return s.Store.Update(ctx, func(tx storage.Tx) error {
		var rec accountRecord
		if err := get(tx, account, &rec); err != nil {
			return err
		}
		if rec.State == nil {
			return errors.New("sandbox: the account's state went away")
		}
		if rec.State.Seeded.InboundWebhook.Secret == "" {
			rec.State.Seeded.InboundWebhook = in
			if err := put(tx, account, &rec); err != nil {
				return err
			}
		}
		st.Seeded.InboundWebhook = rec.State.Seeded.InboundWebhook
		return putInboundIndex(tx, account, st.Seeded.InboundWebhook)
	})
}

// InboundProvider returns the state of the account whose sandbox provider is name.
//
// Errors: not_found *veriland.Error when no seeded account has that provider.
func (s *Seeder) InboundProvider(ctx context.Context, name string) (*State, error) {
	notFound := veriland.Errorf(veriland.CodeNotFound, "no webhook provider %q", name)
	if !strings.HasPrefix(name, webhook.SandboxProviderPrefix) {
		return nil, notFound
	}
	var st *State
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		account, err := tx.Get(storage.Bucket(veriland.Sandbox, inboundBucket), []byte(name))
		if err != nil {
			return err
		}
		var rec accountRecord
		if err := get(tx, string(account), &rec); err != nil {
			return err
		}
		st = rec.State
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (st == nil || st.Seeded.InboundWebhook.Provider != name)) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// signExample fills st's provider example: a kyc.completed event approving the
// identity of the kyc.timeout scenario, signed at now.
func signExample(st *State, now time.Time) error {
	in := &st.Seeded.InboundWebhook
	secret, err := webhook.ParseSecret(in.Secret)
	if err != nil {
		return fmt.Errorf("sandbox: the stored provider secret: %w", err)
	}
	body, err := ExampleBody(st.Account)
	if err != nil {
		return err
	}
	ts := now.Truncate(time.Second)
	// The id is the same for a second's listings (which are the same event), and
	// differs from one second to the next.
	sum := sha256.Sum256([]byte("veriland sandbox example\x00" + in.Secret + "\x00" + strconv.FormatInt(ts.Unix(), 10)))
	msgID := "msg_" + hex.EncodeToString(sum[:12])
	in.Example = &InboundExample{
		Headers: map[string]string{
			"Content-Type":          "application/json",
			webhook.HeaderID:        msgID,
			webhook.HeaderTimestamp: strconv.FormatInt(ts.Unix(), 10),
			webhook.HeaderSignature: webhook.Sign([]webhook.Secret{secret}, msgID, ts, body),
		},
		Body:       string(body),
		ValidUntil: ts.Add(time.Duration(in.ToleranceSeconds) * time.Second).UTC(),
	}
	return nil
}

// ExampleBody is the body of the provider's example for account: a kyc.completed event
// that approves the identity of the kyc.timeout scenario (subjectRef
// SubjectPrefix(account)+"kyc-timeout"), as compact JSON with its members in
// alphabetical order, so that a client that decodes and encodes it again sends the
// same bytes.
func ExampleBody(account string) ([]byte, error) {
	return exampleBody(SubjectPrefix(account))
}

func exampleBody(subjectPrefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(map[string]any{
		"type": webhook.EventKYCCompleted,
		"data": map[string]any{"env": "SANDBOX", "subjectRef": subjectPrefix + "kyc-timeout", "outcome": "APPROVED"},
	})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// inboundScenario is webhooks.inbound: the provider's example event, sent as listed.
func inboundScenario(origin string, s Seeded) Scenario {
	in := s.InboundWebhook
	prefix := subjectPrefix(s) + ":"
	sc := Scenario{
		ID: "webhooks.inbound", Family: FamilyWebhooks, Name: "Inbound provider event, signed",
		Description: "Your account's own inbound test provider (seeded.inboundWebhook): POST /v1/webhooks/{provider} in the " +
			"Standard Webhooks scheme with seeded.inboundWebhook.secret, so that any Standard Webhooks library signs for it. " +
			"It sends kyc.completed and anchor.confirmed, for this account's SANDBOX records only, never PRODUCTION's. " +
			"The headers were signed when this list was read: webhook-timestamp must be within " +
			strconv.Itoa(int(webhook.DefaultTolerance/time.Second)) + " s of the server's clock, so read the list again " +
			"(or sign at send time) after that. Events are deduplicated by webhook-id.",
		Prerequisites: "Run kyc.timeout first: its identity (subjectRef " + prefix + "kyc-timeout) stays PENDING_KYC until this " +
			"event approves it. A kyc.completed event of this provider names its identity by data.subjectRef, which must start " +
			"with " + prefix + " (data.did and data.providerRef, when given, must be that identity's); data.env may only be SANDBOX.",
		Request: ScenarioRequest{Method: "POST", Path: "/v1/webhooks/" + PathInboundProvider,
			Headers: map[string]string{"Content-Type": "application/json", webhook.HeaderID: "<webhook-id: msg_ and a unique id>",
				webhook.HeaderTimestamp: "<webhook-timestamp: Unix seconds, now>",
				webhook.HeaderSignature: "<webhook-signature: v1, base64 HMAC-SHA256(secret, id.timestamp.body)>"},
		},
		Expected: Expectation{Status: 200, Outcome: "200 with provider, type kyc.completed, duplicate false and processed true: " +
			"the kyc.timeout identity is ACTIVE. The same webhook-id again: 200, duplicate true, not processed again. " +
			"A body changed after signing, or another account's secret: 401 invalid_webhook_signature. " +
			"A subjectRef, did or attestation of another account, or env PRODUCTION: 403 forbidden, nothing stored."},
	}
	if in.Provider != "" {
		sc.Request.Path = in.Path
	} else {
		sc.Prerequisites += " " + PathInboundProvider + " is seeded.inboundWebhook.provider."
	}
	if in.Example == nil {
		body, _ := exampleBody(prefix)
		sc.Request.Body = json.RawMessage(body)
		return sc
	}
	sc.Request.Headers = in.Example.Headers
	sc.Request.Body = json.RawMessage(in.Example.Body)
	sc.Curl = curlCommand(strings.TrimRight(origin, "/")+sc.Request.Path, in.Example)
	return sc
}

// curlCommand is a curl command that sends ex to url, byte for byte.
func curlCommand(url string, ex *InboundExample) string {
	var b strings.Builder
	b.WriteString("curl -sS -X POST " + shellQuote(url))
	for _, h := range []string{"Content-Type", webhook.HeaderID, webhook.HeaderTimestamp, webhook.HeaderSignature} {
		b.WriteString(" -H " + shellQuote(h+": "+ex.Headers[h]))
	}
	b.WriteString(" --data-binary " + shellQuote(ex.Body))
	return b.String()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
