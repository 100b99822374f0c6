package audit

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

func TestSandboxEntriesCarryTheAccount(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	write := func(ctx context.Context, env veriland.Environment, detail map[string]any) Entry {
		var e Entry
		require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
			var err error
			e, err = l.Append(ctx, tx, Entry{Env: env, Action: "test.write", Outcome: OutcomeSuccess, Detail: detail})
			return err
		}))
		return e
	}
	inA := veriland.WithPrincipal(context.Background(), veriland.Principal{Subject: "a", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_a"})
	inB := veriland.WithPrincipal(context.Background(), veriland.Principal{Subject: "b", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_b"})

	caller := map[string]any{"k": "v"}
	e := write(inA, veriland.Sandbox, caller)
	require.Equal(t, "acct_a", e.Detail[DetailAccount])
	require.NotContains(t, caller, DetailAccount, "the caller's map is not modified")
	write(inB, veriland.Sandbox, nil)
	write(context.Background(), veriland.Sandbox, nil) // no account: the whole environment's
	require.NotContains(t, write(inA, veriland.Production, nil).Detail, DetailAccount, "PRODUCTION is not split by account")
	write(inA, veriland.Sandbox, map[string]any{DetailAccount: "acct_b"}) // explicit wins

	for acct, want := range map[string]int{"": 4, "acct_a": 2, "acct_b": 3} {
		got, _, err := List(context.Background(), store, veriland.Sandbox, Filter{Account: acct})
		require.NoError(t, err)
		require.Len(t, got, want, "account %q", acct)
	}
	rep, err := Verify(context.Background(), store, veriland.Sandbox)
	require.NoError(t, err)
	require.True(t, rep.Valid)
}
