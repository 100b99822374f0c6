package sandbox_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
)

// Each account's seeding makes its own provider: a name fit for the route, derived
// from the account, and a secret of its own; the example is signed at Ensure's clock
// and verifies under that secret, byte for byte; a second Ensure lists the same.
func TestSeederInboundProvider(t *testing.T) {
	w := newSeedWorld(t, true)
	ctx := t.Context()
	a, err := w.seeder.Ensure(ctx, "acct_a")
	require.NoError(t, err)
	b, err := w.seeder.Ensure(ctx, "acct_b")
	require.NoError(t, err)
	in := a.Seeded.InboundWebhook
	require.Equal(t, sandbox.ProviderName("acct_a"), in.Provider)
	require.Regexp(t, regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`), in.Provider, "a provider name")
	require.True(t, strings.HasPrefix(in.Provider, webhook.SandboxProviderPrefix))
	require.Equal(t, "/v1/webhooks/"+in.Provider, in.Path)
	require.NotEqual(t, in.Provider, b.Seeded.InboundWebhook.Provider)
	require.NotEqual(t, in.Secret, b.Seeded.InboundWebhook.Secret)
	require.Equal(t, sandbox.InboundEventTypes(), in.EventTypes)

	ex := in.Example
	require.NotNil(t, ex)
	body, err := sandbox.ExampleBody("acct_a")
	require.NoError(t, err)
	require.Equal(t, string(body), ex.Body)
	require.Contains(t, ex.Body, `"subjectRef":"sandbox:acct_a:kyc-timeout"`)
	secret, err := webhook.ParseSecret(in.Secret)
	require.NoError(t, err)
	h := http.Header{}
	for k, v := range ex.Headers {
		h.Set(k, v)
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	require.NoError(t, webhook.Verify(h, []byte(ex.Body), []webhook.Secret{secret}, now))
	require.Error(t, webhook.Verify(h, []byte(ex.Body), []webhook.Secret{secret}, now.Add(6*time.Minute)), "stale after the tolerance")
	require.Equal(t, now.Add(5*time.Minute), ex.ValidUntil)

	again, err := w.seeder.Ensure(ctx, "acct_a")
	require.NoError(t, err)
	require.Equal(t, a.Seeded, again.Seeded)

	st, err := w.seeder.InboundProvider(ctx, in.Provider)
	require.NoError(t, err)
	require.Equal(t, "acct_a", st.Account)
	require.Nil(t, st.Seeded.InboundWebhook.Example, "the example is never stored")
	_, err = w.seeder.InboundProvider(ctx, sandbox.ProviderName("acct_unseeded"))
	require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))

	// After Forget (a reset, before it seeds again) the provider is gone: its secret
	// no longer verifies anything (the reset itself is TestSandboxInboundProvider's).
	require.NoError(t, w.seeder.Forget(ctx, "acct_a"))
	_, err = w.seeder.InboundProvider(ctx, in.Provider)
	require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))
}

// A sandbox seeded before the providers existed gets its own on its next Ensure, once.
func TestSeederInboundProviderUpgrade(t *testing.T) {
	w := newSeedWorld(t, true)
	ctx := t.Context()
	_, err := w.seeder.Ensure(ctx, "acct_old")
	require.NoError(t, err)
	accounts := storage.Bucket(veriland.Sandbox, "sandbox_accounts")
	require.NoError(t, w.seeder.Store.Update(ctx, func(tx storage.Tx) error {
		raw, err := tx.Get(accounts, []byte("acct_old"))
		if err != nil {
			return err
		}
		var rec, state, seeded map[string]json.RawMessage
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		if err := json.Unmarshal(rec["state"], &state); err != nil {
			return err
		}
		if err := json.Unmarshal(state["seeded"], &seeded); err != nil {
			return err
		}
		delete(seeded, "inboundWebhook")
		if state["seeded"], err = json.Marshal(seeded); err != nil {
			return err
		}
		if rec["state"], err = json.Marshal(state); err != nil {
			return err
		}
		if raw, err = json.Marshal(rec); err != nil {
			return err
		}
		if err := tx.Delete(storage.Bucket(veriland.Sandbox, "sandbox_inbound_providers"), []byte(sandbox.ProviderName("acct_old"))); err != nil {
			return err
		}
		return tx.Put(accounts, []byte("acct_old"), raw)
	}))
	_, err = w.seeder.InboundProvider(ctx, sandbox.ProviderName("acct_old"))
	require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))

	st, err := w.seeder.Ensure(ctx, "acct_old")
	require.NoError(t, err)
	require.NotEmpty(t, st.Seeded.InboundWebhook.Secret)
	require.NotNil(t, st.Seeded.InboundWebhook.Example)
	again, err := w.seeder.Ensure(ctx, "acct_old")
	require.NoError(t, err)
	require.Equal(t, st.Seeded.InboundWebhook.Secret, again.Seeded.InboundWebhook.Secret, "made once")
	found, err := w.seeder.InboundProvider(ctx, sandbox.ProviderName("acct_old"))
	require.NoError(t, err)
	require.Equal(t, st.Seeded.InboundWebhook.Secret, found.Seeded.InboundWebhook.Secret)
}

// The scenario webhooks.inbound is the seeded example, and its curl command sends it.
func TestScenarioInbound(t *testing.T) {
	w := newSeedWorld(t, true)
	st, err := w.seeder.Ensure(t.Context(), "acct_o'brien")
	require.NoError(t, err)
	var sc sandbox.Scenario
	for _, s := range sandbox.Scenarios("http://veriland.test/", st.Seeded) {
		if s.ID == "webhooks.inbound" {
			sc = s
		}
	}
	in := st.Seeded.InboundWebhook
	require.Equal(t, "POST", sc.Request.Method)
	require.Equal(t, in.Path, sc.Request.Path)
	require.Equal(t, in.Example.Headers, sc.Request.Headers)
	require.Equal(t, in.Example.Body, string(sc.Request.Body.(json.RawMessage)))
	require.Equal(t, "curl -sS -X POST 'http://veriland.test"+in.Path+"'"+
		" -H 'Content-Type: application/json'"+
		" -H 'webhook-id: "+in.Example.Headers["webhook-id"]+"'"+
		" -H 'webhook-timestamp: "+in.Example.Headers["webhook-timestamp"]+"'"+
		" -H 'webhook-signature: "+in.Example.Headers["webhook-signature"]+"'"+
		` --data-binary '{"data":{"env":"SANDBOX","outcome":"APPROVED","subjectRef":"sandbox:acct_o'\''brien:kyc-timeout"},"type":"kyc.completed"}'`,
		sc.Curl)
	require.Contains(t, sc.Prerequisites, "sandbox:acct_o'brien:kyc-timeout")
	require.NotContains(t, sc.Curl, in.Secret, "the curl carries a signature, not the secret")
	// Without a provider (a list made from nothing), placeholders and no curl.
	for _, s := range sandbox.Scenarios("", sandbox.Seeded{}) {
		if s.ID == "webhooks.inbound" {
			require.Empty(t, s.Curl)
			require.Equal(t, "/v1/webhooks/"+sandbox.PathInboundProvider, s.Request.Path)
			require.True(t, sandbox.IsPlaceholder(s.Request.Headers[webhook.HeaderSignature]))
		}
	}
}
