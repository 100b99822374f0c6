package audit

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// A prepared entry is the entry Append would have written: stamped at Prepare, sealed
// in order, and written once however often the transaction function runs.
func TestPrepareThenAppend(t *testing.T) {
	store := rerunStore{openStore(t)}
	clk := newClock(t0)
	l := &Log{Now: clk.Now}
	ctx := veriland.WithPrincipal(context.Background(), veriland.Principal{
		Subject: "verifier-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1",
	})
	ctx = veriland.WithRequestID(ctx, "req_1")

	tests := []struct {
		name string
		in   Entry
	}{
		{"defaults from context", Entry{Env: veriland.Sandbox, Action: "verification.approved", Outcome: OutcomeSuccess}},
		{"explicit values win", Entry{Env: veriland.Sandbox, Action: "verification.rejected", Outcome: OutcomeSuccess,
			Actor: "did:veriland:x", Severity: SeverityNotice, Detail: map[string]any{"status": "REJECTED"}}},
	}
	var prepared []*Prepared
	for _, tt := range tests {
		p, err := l.Prepare(ctx, tt.in)
		require.NoError(t, err, tt.name)
		clk.Advance(time.Second) // the entry keeps Prepare's time, not the commit's
		require.NoError(t, store.Update(ctx, func(tx storage.Tx) error { return p.Append(tx) }), tt.name)
		prepared = append(prepared, p)
	}
	require.Equal(t, len(tests), pendingCount(t, store, veriland.Sandbox), "one pending record per entry despite the reruns")

	// Append on the same input gives the same entry but for id and time.
	clk = newClock(t0)
	l.Now = clk.Now
	for i, tt := range tests {
		var e Entry
		require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
			var err error
			e, err = l.Append(ctx, tx, tt.in)
			return err
		}))
		clk.Advance(time.Second)
		p := prepared[i].Entry
		require.Equal(t, t0.Add(time.Duration(i)*time.Second), p.Time, tests[i].name)
		e.ID, e.Time = p.ID, p.Time
		require.Equal(t, e, p, tests[i].name)
	}
	_, err := Seal(ctx, store, veriland.Sandbox)
	require.NoError(t, err)
	requireValid(t, store, veriland.Sandbox, 2*len(tests))
}

// Prepare refuses what Append refuses, with the same error.
func TestPrepareValidation(t *testing.T) {
	l := &Log{}
	bad := Entry{Env: veriland.Sandbox, Action: "Consent Approve", Outcome: OutcomeSuccess}
	_, perr := l.Prepare(context.Background(), bad)
	require.True(t, veriland.IsCode(perr, veriland.CodeValidationFailed), "%v", perr)
	_, aerr := l.Write(context.Background(), openStore(t), bad)
	require.Equal(t, aerr.Error(), perr.Error())
}
