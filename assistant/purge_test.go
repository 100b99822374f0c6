package assistant_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpAssistant returns every key and value of the assistant buckets of both
// environments.
func dumpAssistant(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	return storagetest.Dump(t, st, storagetest.EnvBuckets("assistant_sessions", "assistant_messages", "assistant_owners")...)
}

// chat opens a session for p with two exchanges, and an empty one.
func chat(t *testing.T, w *world, p veriland.Principal) {
	t.Helper()
	ctx := context.Background()
	m, err := w.svc.Send(ctx, p, assistant.MessageRequest{Text: "Hello, what can you do?"})
	require.NoError(t, err)
	_, err = w.svc.Send(ctx, p, assistant.MessageRequest{SessionID: &m.SessionID, Text: "How do I certify a parcel?"})
	require.NoError(t, err)
	_, err = w.svc.CreateSession(ctx, p, assistant.SessionRequest{})
	require.NoError(t, err)
}

func TestPurgeSandboxAccount(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	sbx := func(sub, acct string) veriland.Principal {
		return veriland.Principal{Subject: sub, Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: acct}
	}
	// acct_A's sub sorts between acct_B's and a sub of an account whose id extends
	// acct_A's, so that a prefix mistake would show.
	chat(t, w, sbx("agency-1", "acct_B"))
	chat(t, w, sbx("agency-1", "acct_AB"))
	chat(t, w, veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_A"})
	others := dumpAssistant(t, w.svc.Store)
	chat(t, w, sbx("agency-1", "acct_A"))
	chat(t, w, sbx("agency-2", "acct_A"))
	before := dumpAssistant(t, w.svc.Store)

	n, err := w.svc.PurgeSandboxAccount(ctx, "acct_A")
	require.NoError(t, err)
	require.Equal(t, others, dumpAssistant(t, w.svc.Store))
	require.Equal(t, len(before)-len(others), n)
	for _, sub := range []string{"agency-1", "agency-2"} {
		list, _, err := w.svc.ListSessions(ctx, sbx(sub, "acct_A"), "", 50)
		require.NoError(t, err)
		require.Empty(t, list)
	}
	n, err = w.svc.PurgeSandboxAccount(ctx, "acct_A")
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestPurgeSandboxAccountRefused(t *testing.T) {
	w := newWorld(t)
	chat(t, w, veriland.Principal{Subject: "a", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_A"})
	chat(t, w, veriland.Principal{Subject: "a", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_A"})
	before := dumpAssistant(t, w.svc.Store)
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		account string
		code    veriland.Code
	}{
		{"production principal", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_A"}), "acct_A", veriland.CodeForbidden},
		{"another account", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_B"}), "acct_A", veriland.CodeForbidden},
		{"empty account", context.Background(), "", veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := w.svc.PurgeSandboxAccount(tc.ctx, tc.account)
			require.Equal(t, tc.code, veriland.CodeOf(err))
			require.Zero(t, n)
			require.Equal(t, before, dumpAssistant(t, w.svc.Store))
		})
	}
}
