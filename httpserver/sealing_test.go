package httpserver

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// pendingAudit counts env's journaled entries not yet sealed into the chain.
func pendingAudit(t *testing.T, h *harness, env veriland.Environment) int {
	t.Helper()
	n := 0
	require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, "audit_pending"), storage.Range{}, func(_, _ []byte) error {
			n++
			return nil
		})
	}))
	return n
}

// TestRunSealsAuditEntries: Run chains the entries that requests journal, and on
// shutdown flushes the coalesced failures first and then seals them too, so that a
// replica that stops cleanly leaves nothing pending.
func TestRunSealsAuditEntries(t *testing.T) {
	h := newHarness(t)
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	createKey(t, h, admin, "verifier", "acme")
	require.Positive(t, pendingAudit(t, h, veriland.Sandbox), "the change journaled its entry")

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- h.srv.Run(ctx) }()
	require.Eventually(t, func() bool { return pendingAudit(t, h, veriland.Sandbox) == 0 },
		10*time.Second, 10*time.Millisecond, "Run seals at once when it starts")

	// A refused token is coalesced in memory (PRODUCTION's chain), written by the
	// final flush and sealed by the final seal.
	r := h.do(request{method: "GET", path: "/v1/audit", token: "not-a-token"})
	require.Equal(t, http.StatusUnauthorized, r.status)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
	require.Zero(t, pendingAudit(t, h, veriland.Sandbox))
	require.Zero(t, pendingAudit(t, h, veriland.Production), "the final flush's entries are sealed before Run returns")
	var sealed int
	require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(veriland.Production, "audit"), storage.Range{}, func(_, _ []byte) error {
			sealed++
			return nil
		})
	}))
	require.Positive(t, sealed, "the coalesced refusal is in PRODUCTION's chain")
}
