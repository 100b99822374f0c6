package webhook_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

func TestInboxDetectsDuplicates(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "inbox.db"))
	defer store.Close()
	clk := &clock{t: t0}
	in := &webhook.Inbox{Store: store, Now: clk.Now}
	body := []byte(`{"type":"kyc.completed","data":{"ref":"did:veriland:x"}}`)

	dup, err := in.Accept(t.Context(), veriland.Sandbox, "kyc", "msg_1", webhook.EventKYCCompleted, body)
	require.NoError(t, err)
	require.False(t, dup)
	clk.Advance(time.Minute)
	dup, err = in.Accept(t.Context(), veriland.Sandbox, "kyc", "msg_1", webhook.EventKYCCompleted, []byte(`{"other":1}`))
	require.NoError(t, err)
	require.True(t, dup)

	ev, err := in.Get(t.Context(), veriland.Sandbox, "kyc", "msg_1")
	require.NoError(t, err)
	require.Equal(t, body, ev.Body, "the first body is kept")
	require.Equal(t, t0, ev.ReceivedAt)
	require.True(t, ev.ProcessedAt.IsZero())

	// The same id from another provider or environment is another event.
	dup, err = in.Accept(t.Context(), veriland.Sandbox, "anchor", "msg_1", webhook.EventAnchorConfirmed, body)
	require.NoError(t, err)
	require.False(t, dup)
	dup, err = in.Accept(t.Context(), veriland.Production, "kyc", "msg_1", webhook.EventKYCCompleted, body)
	require.NoError(t, err)
	require.False(t, dup)

	un, err := in.Unprocessed(t.Context(), veriland.Sandbox, 10)
	require.NoError(t, err)
	require.Len(t, un, 2)
	require.NoError(t, in.MarkProcessed(t.Context(), veriland.Sandbox, "kyc", "msg_1"))
	require.NoError(t, in.MarkProcessed(t.Context(), veriland.Sandbox, "kyc", "msg_1"))
	ev, err = in.Get(t.Context(), veriland.Sandbox, "kyc", "msg_1")
	require.NoError(t, err)
	require.Equal(t, t0.Add(time.Minute), ev.ProcessedAt)
	un, err = in.Unprocessed(t.Context(), veriland.Sandbox, 10)
	require.NoError(t, err)
	require.Len(t, un, 1)
	require.Equal(t, "anchor", un[0].Provider)

	err = in.MarkProcessed(t.Context(), veriland.Sandbox, "kyc", "msg_unknown")
	require.True(t, veriland.IsCode(err, veriland.CodeNotFound), "%v", err)
	for _, bad := range [][2]string{{"KYC", "msg_2"}, {"kyc", ""}, {"kyc", "msg 2"}, {"kyc", strings.Repeat("m", 257)}} {
		_, err := in.Accept(t.Context(), veriland.Sandbox, bad[0], bad[1], webhook.EventKYCCompleted, body)
		require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%q: %v", bad, err)
	}
}

func TestInboxConcurrentDuplicatesStoredOnce(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "inbox.db"))
	defer store.Close()
	in := &webhook.Inbox{Store: store}
	var firsts atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			dup, err := in.Accept(t.Context(), veriland.Production, "kyc", "msg_same", webhook.EventKYCCompleted, []byte(`{}`))
			require.NoError(t, err)
			if !dup {
				firsts.Add(1)
			}
		})
	}
	wg.Wait()
	require.EqualValues(t, 1, firsts.Load())
}

func TestProviders(t *testing.T) {
	secret, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	require.NoError(t, err)
	ps := webhook.Providers{
		"kyc":    {Secrets: []webhook.Secret{secret}, EventTypes: []string{webhook.EventKYCCompleted}},
		"anchor": {Secrets: []webhook.Secret{secret}, EventTypes: []string{webhook.EventAnchorConfirmed}},
	}
	require.NoError(t, ps.Validate())
	p, ok := ps.Lookup("kyc")
	require.True(t, ok)
	require.True(t, p.Accepts("kyc.completed"))
	require.False(t, p.Accepts("anchor.confirmed"))
	_, ok = ps.Lookup("nope")
	require.False(t, ok)

	body := []byte(`{"type":"kyc.completed"}`)
	h := http.Header{}
	webhook.SetHeaders(h, []webhook.Secret{secret}, "msg_1", t0, body)
	require.NoError(t, p.Verify(h, body, t0.Add(time.Minute)))
	require.ErrorIs(t, p.Verify(h, body, t0.Add(time.Hour)), webhook.ErrStaleTimestamp)

	for name, bad := range map[string]webhook.Providers{
		"name":    {"Bad Name": ps["kyc"]},
		"secret":  {"kyc": {EventTypes: []string{"kyc.completed"}, Secrets: []webhook.Secret{{}}}},
		"eventTy": {"kyc": {Secrets: []webhook.Secret{secret}}},
	} {
		require.True(t, veriland.IsCode(bad.Validate(), veriland.CodeValidationFailed), name)
	}
}
