package veriland

import (
	"context"
	"time"
)

// Role is what an authenticated principal may do (SPEC S2.3).
type Role string

// The four roles.
const (
	RoleHolder   Role = "holder"
	RoleVerifier Role = "verifier"
	RoleNotary   Role = "notary"
	RoleAdmin    Role = "admin"
)

// Valid reports whether r is one of the four roles.
func (r Role) Valid() bool {
	switch r {
	case RoleHolder, RoleVerifier, RoleNotary, RoleAdmin:
		return true
	}
	return false
}

// Principal is the authenticated caller of a request, taken from a verified token.
type Principal struct {
	Subject   string      // token "sub": a DID, a verifier or notary id, an admin name
	Role      Role        // token "role"
	Env       Environment // token "env", equal to the environment of its "kid"
	Account   string      // token "acct", the account whose sandbox it sees; may be ""
	Wallet    string      // token "wallet", lower-case 0x address of a holder; may be ""
	TokenID   string      // token "jti"
	ExpiresAt time.Time   // token "exp"
}

type principalKey struct{}

// WithPrincipal returns a context that carries p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal carried by ctx, if any.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
