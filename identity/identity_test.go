package identity_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

func TestLookupsAndEnvironmentIsolation(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "alice-ref", CountryCode: "KE", WalletAddress: checksummed})
	require.NoError(t, err)

	t.Run("found in its environment", func(t *testing.T) {
		for _, addr := range []string{checksummed, strings.ToLower(checksummed), "0x" + strings.ToUpper(checksummed[2:])} {
			id, err := f.svc.ByWallet(ctx, veriland.Sandbox, addr)
			require.NoError(t, err)
			require.Equal(t, res.DID, id.DID)
		}
		id, err := f.svc.BySubject(ctx, veriland.Sandbox, "alice-ref")
		require.NoError(t, err)
		require.Equal(t, res.DID, id.DID)
		require.Equal(t, veriland.Sandbox, id.Env)
		require.Equal(t, "KE", id.CountryCode)
		require.Equal(t, strings.ToLower(checksummed), id.WalletAddress)
	})

	lookups := map[string]func(env veriland.Environment) error{
		"Get":       func(env veriland.Environment) error { _, err := f.svc.Get(ctx, env, res.DID); return err },
		"Status":    func(env veriland.Environment) error { _, err := f.svc.Status(ctx, env, res.DID); return err },
		"ByWallet":  func(env veriland.Environment) error { _, err := f.svc.ByWallet(ctx, env, checksummed); return err },
		"BySubject": func(env veriland.Environment) error { _, err := f.svc.BySubject(ctx, env, "alice-ref"); return err },
	}
	for name, lookup := range lookups {
		t.Run(name+" from the other environment", func(t *testing.T) {
			require.NoError(t, lookup(veriland.Sandbox))
			requireCode(t, lookup(veriland.Production), veriland.CodeNotFound)
		})
	}

	notFound := []struct {
		name string
		fn   func() error
	}{
		{"unknown DID", func() error {
			_, err := f.svc.Status(ctx, veriland.Sandbox, "did:veriland:1111111111111111111111")
			return err
		}},
		{"malformed DID", func() error { _, err := f.svc.Status(ctx, veriland.Sandbox, "did:veriland:../../x"); return err }},
		{"other DID method", func() error { _, err := f.svc.Get(ctx, veriland.Sandbox, "did:pkh:eip155:1:"+checksummed); return err }},
		{"unknown wallet", func() error {
			_, err := f.svc.ByWallet(ctx, veriland.Sandbox, "0x"+strings.Repeat("1", 40))
			return err
		}},
		{"malformed wallet", func() error { _, err := f.svc.ByWallet(ctx, veriland.Sandbox, "wallet"); return err }},
		{"unknown subject", func() error { _, err := f.svc.BySubject(ctx, veriland.Sandbox, "bob-ref"); return err }},
	}
	for _, tt := range notFound {
		t.Run(tt.name, func(t *testing.T) { requireCode(t, tt.fn(), veriland.CodeNotFound) })
	}
}

func TestValidDID(t *testing.T) {
	tests := map[string]bool{
		"did:veriland:1111111111111111111111":  true,
		"did:veriland:zzzzzzzzzzzzzzzzzzzzzz":  true,
		"did:veriland:111111111111111111111":   false, // 21
		"did:veriland:11111111111111111111111": false, // 23
		"did:veriland:0111111111111111111111":  false, // 0 is not base58
		"did:veriland:I111111111111111111111":  false,
		"did:veriland:l111111111111111111111":  false,
		"did:other:1111111111111111111111":     false,
		"":                                     false,
	}
	for did, want := range tests {
		require.Equal(t, want, identity.ValidDID(did), did)
	}
}

func TestParseWalletAddress(t *testing.T) {
	lower := strings.ToLower(checksummed)
	tests := []struct {
		in, want string
		ok       bool
	}{
		{checksummed, lower, true},
		{lower, lower, true},
		{"0x" + strings.ToUpper(lower[2:]), lower, true},
		{"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", true}, // EIP-55 vector
		{"0xfb6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "", false},
		{"0x" + strings.Repeat("0", 40), "0x" + strings.Repeat("0", 40), true},
		{"0x" + strings.Repeat("0", 39), "", false},
		{"0x" + strings.Repeat("0", 41), "", false},
		{"0X" + lower[2:], "", false},
		{lower[2:], "", false},
		{" " + lower, "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := identity.ParseWalletAddress(tt.in)
		if !tt.ok {
			require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err), tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, got)
	}
}

func TestPKHDID(t *testing.T) {
	require.Equal(t, "did:pkh:eip155:1:"+strings.ToLower(checksummed), identity.PKHDID(1, checksummed))

	tests := []struct {
		did   string
		chain uint64
		addr  string
		ok    bool
	}{
		{"did:pkh:eip155:1:" + checksummed, 1, strings.ToLower(checksummed), true},
		{"did:pkh:eip155:137:" + strings.ToLower(checksummed), 137, strings.ToLower(checksummed), true},
		{"did:pkh:eip155:18446744073709551615:" + checksummed, 18446744073709551615, strings.ToLower(checksummed), true},
		{"did:pkh:eip155:18446744073709551616:" + checksummed, 0, "", false},
		{"did:pkh:eip155:0:" + checksummed, 0, "", false},
		{"did:pkh:eip155:01:" + checksummed, 0, "", false},
		{"did:pkh:eip155::" + checksummed, 0, "", false},
		{"did:pkh:eip155:1", 0, "", false},
		{"did:pkh:eip155:-1:" + checksummed, 0, "", false},
		{"did:pkh:eip155:1:" + checksummed[2:], 0, "", false},
		{"did:pkh:eip155:1:0x1234", 0, "", false},
		{"did:pkh:eip155:1:" + checksummed + ":x", 0, "", false},
		{"did:pkh:solana:1:" + checksummed, 0, "", false},
		{"did:veriland:1111111111111111111111", 0, "", false},
	}
	for _, tt := range tests {
		chain, addr, ok := identity.ParsePKHDID(tt.did)
		require.Equal(t, tt.ok, ok, tt.did)
		require.Equal(t, tt.chain, chain, tt.did)
		require.Equal(t, tt.addr, addr, tt.did)
		if ok {
			require.Equal(t, identity.PKHDID(chain, addr), strings.ToLower(tt.did))
		}
	}
}
