package identity

import (
	"context"
	"fmt"

	"github.com/veriland/veriland"
)

// NotConfiguredError is what a KYCProvider returns when it does not serve the
// request's environment: SandboxKYC for PRODUCTION, KYCByEnvironment for an
// environment it has no provider for, and Service.Issue when Service.KYC is nil. The
// client gets 503 unavailable whose detail names the configuration the operator must
// supply (SPEC S2.1), never a bare "retry later": retrying cannot help until then.
type NotConfiguredError struct {
	Env veriland.Environment // the environment without a provider
}

// Error implements error.
func (e *NotConfiguredError) Error() string {
	return fmt.Sprintf("identity: no KYC provider is configured for %s", e.Env)
}

// Detail is the client-facing explanation: what is missing and how to supply it.
func (e *NotConfiguredError) Detail() string {
	return fmt.Sprintf("no KYC provider is configured for %s, so identities cannot be issued there; "+
		"retrying will not help until the operator configures one. "+
		"Reference server (examples/server): start it with -kyc-url https://provider.example/check and "+
		"-kyc-secret whsec_… (or set VERILAND_KYC_URL and VERILAND_KYC_SECRET). "+
		"Embedders: set identity.Service.KYC (httpserver.Keys.KYC) to a KYCProvider such as identity.HTTPKYC; "+
		"identity.SandboxKYC serves SANDBOX only.", e.Env)
}

func (e *NotConfiguredError) clientError() *veriland.Error {
	return veriland.Errorf(veriland.CodeUnavailable, "%s", e.Detail()).
		WithMeta("environment", string(e.Env)).WithMeta("missing", "kyc_provider")
}

// KYCByEnvironment is a KYCProvider that hands each request to the provider of its
// environment: for example SandboxKYC for SANDBOX and an *HTTPKYC for PRODUCTION (the
// reference server's wiring with -kyc-url). An environment without a provider is
// answered with *NotConfiguredError.
type KYCByEnvironment map[veriland.Environment]KYCProvider

// Check implements KYCProvider.
func (m KYCByEnvironment) Check(ctx context.Context, req KYCRequest) (KYCResult, error) {
	p := m[req.Env]
	if p == nil {
		return KYCResult{}, &NotConfiguredError{Env: req.Env}
	}
	return p.Check(ctx, req)
}
