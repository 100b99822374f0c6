package webhook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpOutbox returns every key and value of the outbox buckets of both environments,
// the global due index and the secrets included.
func dumpOutbox(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	buckets := append([]string{storage.Global("webhook_due")},
		storagetest.EnvBuckets("webhook_deliveries", "webhook_deliveries_by_created", "webhook_deliveries_by_verifier", "webhook_secrets")...)
	return storagetest.Dump(t, st, buckets...)
}

// event is a delivery of account's verifier to url.
func event(verifier, account, url string) webhook.Event {
	e := approved(url)
	e.Verifier, e.Account = verifier, account
	return e
}

// settled enqueues, for account's verifiers in SANDBOX, deliveries that end SUCCEEDED
// and FAILED (the sandbox receiver's /fail), and returns their ids.
func (f *fixture) settled(account string, rcv *receiver) []string {
	f.t.Helper()
	ok := f.enqueue(veriland.Sandbox, event("verifier-1", account, rcv.URL+"/ok"))
	require.Equal(f.t, webhook.StatusSucceeded, f.drive(veriland.Sandbox, ok.ID).Status)
	failed := f.enqueue(veriland.Sandbox, event("verifier-2", account, "https://hooks.example"+webhook.SandboxFailPath))
	require.Equal(f.t, webhook.StatusFailed, f.drive(veriland.Sandbox, failed.ID).Status)
	return []string{ok.ID, failed.ID}
}

func TestPurgeSandboxAccount(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rcv := newReceiver(t, 1)
	mine := f.settled("acct_A", rcv)
	f.settled("acct_B", rcv)
	// PENDING ones, enqueued once nothing else runs the worker.
	mine = append(mine, f.enqueue(veriland.Sandbox, event("verifier-1", "acct_A", rcv.URL+"/later")).ID)
	f.enqueue(veriland.Sandbox, event("verifier-1", "acct_B", rcv.URL+"/later"))
	f.enqueue(veriland.Production, event("verifier-1", "acct_A", rcv.URL+"/later"))
	before := dumpOutbox(t, f.store)
	// Every key naming one of acct_A's deliveries goes; every other key stays as it
	// was, the secrets of acct_A's verifiers included (verifier-1 and verifier-2 are
	// acct_B's verifiers' subs too).
	want := map[string]string{}
	for k, v := range before {
		if !strings.Contains(k, mine[0]) && !strings.Contains(k, mine[1]) && !strings.Contains(k, mine[2]) {
			want[k] = v
		}
	}

	n, err := f.ob.PurgeSandboxAccount(ctx, "acct_A")
	require.NoError(t, err)
	require.Equal(t, want, dumpOutbox(t, f.store))
	require.Equal(t, len(before)-len(want), n)
	require.Equal(t, 3*3+1, n, "3 deliveries, 2 list entries each, and the pending one's due entry")
	for _, id := range mine {
		_, err := f.ob.Get(ctx, veriland.Sandbox, id)
		require.True(t, veriland.IsCode(err, veriland.CodeNotFound))
	}
	list, _, err := f.ob.List(ctx, veriland.Sandbox, webhook.Filter{Account: "acct_A"})
	require.NoError(t, err)
	require.Empty(t, list)
	list, _, err = f.ob.List(ctx, veriland.Sandbox, webhook.Filter{Account: "acct_B"})
	require.NoError(t, err)
	require.Len(t, list, 3)
	hits := rcv.hits.Load()
	f.runOnce() // acct_B's pending delivery goes out; acct_A's is gone
	require.Equal(t, hits+1, rcv.hits.Load())

	n, err = f.ob.PurgeSandboxAccount(ctx, "acct_A")
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestPurgeSandboxAccountRefused(t *testing.T) {
	f := newFixture(t)
	f.enqueue(veriland.Production, event("verifier-1", "acct_1", "https://hooks.example/later"))
	f.enqueue(veriland.Sandbox, approved("https://hooks.example/later"))
	before := dumpOutbox(t, f.store)
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		account string
		code    veriland.Code
	}{
		{"production principal", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_1"}), "acct_1", veriland.CodeForbidden},
		{"another account", veriland.WithPrincipal(context.Background(),
			veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_B"}), "acct_1", veriland.CodeForbidden},
		{"empty account", context.Background(), "", veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := f.ob.PurgeSandboxAccount(tc.ctx, tc.account)
			require.True(t, veriland.IsCode(err, tc.code), "%v", err)
			require.Zero(t, n)
			require.Equal(t, before, dumpOutbox(t, f.store))
		})
	}
}
