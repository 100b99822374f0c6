package httpserver

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpAPIKeys returns every key and value of the API key buckets of both
// environments.
func dumpAPIKeys(t *testing.T, h *harness) map[string]string {
	t.Helper()
	var buckets []string
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		buckets = append(buckets, apiKeysBucket(env), apiKeyJTIBucket(env), revokedJTIBucket(env))
	}
	return storagetest.Dump(t, h.store, buckets...)
}

// keyJTI reads the jti of API key id of env.
func keyJTI(t *testing.T, h *harness, env veriland.Environment, id string) string {
	t.Helper()
	var rec apiKeyRecord
	require.NoError(t, h.store.View(context.Background(), func(tx storage.Tx) error {
		raw, err := tx.Get(apiKeysBucket(env), []byte(id))
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &rec)
	}))
	return rec.JTI
}

func TestPurgeSandboxAPIKeys(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	inAccount := func(acct string) func(*veriland.Principal) {
		return func(p *veriland.Principal) { p.Account = acct }
	}
	adminA := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin", inAccount("acct_A"))
	adminB := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin", inAccount("acct_B"))
	prodA := h.token(veriland.RoleAdmin, veriland.Production, "admin", inAccount("acct_A"))
	type key struct{ id, token string }
	mk := func(admin, role, sub string) key {
		id, tok := createKey(t, h, admin, role, sub)
		return key{id, tok}
	}
	others := []key{mk(adminB, "admin", "ops"), mk(adminB, "verifier", "bank"), mk(prodA, "admin", "ops")}
	kept := mk(adminA, "admin", "ops") // the caller's own key
	doomed := []key{mk(adminA, "verifier", "bank"), mk(adminA, "notary", "NOT-ABJ-1"), mk(adminA, "admin", "ops-2")}
	r := h.do(request{method: "DELETE", path: "/v1/api-keys/" + doomed[2].id, token: adminA}) // already revoked
	require.Equal(t, http.StatusNoContent, r.status, string(r.body))
	before := dumpAPIKeys(t, h)
	// Expected: the doomed keys' records and jti index entries gone, a revocation
	// entry for each of their jtis, everything else as it was.
	want := maps.Clone(before)
	for _, k := range doomed {
		jti := keyJTI(t, h, veriland.Sandbox, k.id)
		rec := before[apiKeysBucket(veriland.Sandbox)+"|"+k.id]
		var stored apiKeyRecord
		require.NoError(t, json.Unmarshal([]byte(rec), &stored))
		exp, err := stored.ExpiresAt.MarshalText()
		require.NoError(t, err)
		delete(want, apiKeysBucket(veriland.Sandbox)+"|"+k.id)
		delete(want, apiKeyJTIBucket(veriland.Sandbox)+"|"+jti)
		want[revokedJTIBucket(veriland.Sandbox)+"|"+jti] = string(exp)
	}

	n, err := h.srv.purgeSandboxAPIKeys(ctx, "acct_A", keyJTI(t, h, veriland.Sandbox, kept.id))
	require.NoError(t, err)
	require.Equal(t, 2*len(doomed), n)
	require.Equal(t, want, dumpAPIKeys(t, h))

	// The deleted keys' tokens are refused; the others' still work.
	for _, tc := range []struct {
		name   string
		token  string
		status int
	}{
		{"deleted verifier key", doomed[0].token, http.StatusUnauthorized},
		{"deleted notary key", doomed[1].token, http.StatusUnauthorized},
		{"deleted revoked key", doomed[2].token, http.StatusUnauthorized},
		{"kept key", kept.token, http.StatusOK},
		{"other account's key", others[0].token, http.StatusOK},
		{"production key", others[2].token, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "GET", path: "/v1/api-keys", token: tc.token})
			if tc.status == http.StatusOK && r.status == http.StatusForbidden {
				return // authenticated, but not an admin's route
			}
			require.Equal(t, tc.status, r.status, string(r.body))
		})
	}
	r = h.do(request{method: "GET", path: "/v1/api-keys", token: adminA})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	data := r.json(t)["data"].([]any)
	require.Len(t, data, 1)
	require.Equal(t, kept.id, data[0].(map[string]any)["id"])

	n, err = h.srv.purgeSandboxAPIKeys(ctx, "acct_A")
	require.NoError(t, err)
	require.Equal(t, 2, n, "without keepJTIs the caller's key goes too")
	r = h.do(request{method: "GET", path: "/v1/api-keys", token: kept.token})
	require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
}

func TestPurgeSandboxAPIKeysRefused(t *testing.T) {
	h := newHarness(t)
	adminA := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin", func(p *veriland.Principal) { p.Account = "acct_A" })
	createKey(t, h, adminA, "verifier", "bank")
	before := dumpAPIKeys(t, h)
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
			n, err := h.srv.purgeSandboxAPIKeys(tc.ctx, tc.account)
			require.Equal(t, tc.code, veriland.CodeOf(err))
			require.Zero(t, n)
			require.Equal(t, before, dumpAPIKeys(t, h))
		})
	}
}
