package veriland_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

func TestCheckSandboxErasure(t *testing.T) {
	sbx := func(acct string) context.Context {
		return veriland.WithPrincipal(context.Background(), veriland.Principal{Subject: "a", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: acct})
	}
	prod := veriland.WithPrincipal(context.Background(), veriland.Principal{Subject: "a", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_A"})
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		account string
		want    veriland.Code // "" for allowed
	}{
		{"the account's own principal", sbx("acct_A"), "acct_A", ""},
		{"the server itself (no principal)", context.Background(), "acct_A", ""},
		{"a principal without an account", sbx(""), "acct_A", ""},
		{"another account", sbx("acct_B"), "acct_A", veriland.CodeForbidden},
		{"PRODUCTION", prod, "acct_A", veriland.CodeForbidden},
		{"empty account", context.Background(), "", veriland.CodeValidationFailed},
		{"NUL in the account", context.Background(), "acct\x00A", veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := veriland.CheckSandboxErasure(tc.ctx, tc.account)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Equal(t, tc.want, veriland.CodeOf(err))
		})
	}
	require.Equal(t, veriland.CodeForbidden, veriland.CodeOf(veriland.CheckSandboxOnly(prod)))
	require.NoError(t, veriland.CheckSandboxOnly(sbx("acct_A")))
}
