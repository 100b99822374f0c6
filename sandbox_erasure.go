package veriland

import (
	"context"
	"strings"
)

// CheckSandboxErasure decides whether the caller carried by ctx may erase account's
// SANDBOX records (the sandbox reset, SPEC S10): forbidden for a principal of
// another environment or of another account, validation_failed for an empty account
// (or one holding NUL, which no token can carry). A context without a principal is
// the server's own call and is allowed.
func CheckSandboxErasure(ctx context.Context, account string) error {
	if err := CheckSandboxOnly(ctx); err != nil {
		return err
	}
	if p, ok := PrincipalFrom(ctx); ok && p.Account != "" && p.Account != account {
		return Errorf(CodeForbidden, "a principal of account %s cannot purge the sandbox of another account", p.Account)
	}
	if account == "" || strings.IndexByte(account, 0) >= 0 {
		return Invalid("/account", "account must be a non-empty account id")
	}
	return nil
}

// CheckSandboxOnly refuses, as forbidden, an erasure asked for by a principal
// (carried by ctx) of another environment than SANDBOX.
func CheckSandboxOnly(ctx context.Context) error {
	if p, ok := PrincipalFrom(ctx); ok && p.Env != Sandbox {
		return Errorf(CodeForbidden, "only SANDBOX records can be purged; this principal works in %s", p.Env)
	}
	return nil
}
