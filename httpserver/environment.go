package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
)

// headerEnvironment lets an unauthenticated caller choose the environment of a public
// route that creates records (POST /identity/issue, POST /auth/siwe/nonce).
const headerEnvironment = "Veriland-Environment"

// publicEnv is the environment of a public request: the token's when one is sent,
// else the Veriland-Environment header, else PRODUCTION. A sandbox record is never
// created by accident: the caller must ask for SANDBOX.
func (s *Server) publicEnv(r *http.Request) (veriland.Environment, error) {
	if p, ok := veriland.PrincipalFrom(r.Context()); ok {
		return p.Env, nil
	}
	if v := r.Header.Get(headerEnvironment); v != "" {
		env, err := veriland.ParseEnvironment(v)
		if err != nil {
			return "", veriland.Invalid("", "the %s header must be SANDBOX or PRODUCTION", headerEnvironment).WithMeta("header", headerEnvironment)
		}
		return env, nil
	}
	return veriland.Production, nil
}

// readEnvs lists the environments a public read by id may look in: the token's or
// the header's when given, else both. Ids carry 128 or more random bits, so an id
// names one record in one environment.
func (s *Server) readEnvs(r *http.Request) []veriland.Environment {
	if p, ok := veriland.PrincipalFrom(r.Context()); ok {
		return []veriland.Environment{p.Env}
	}
	if v := r.Header.Get(headerEnvironment); v != "" {
		if env, err := veriland.ParseEnvironment(v); err == nil {
			return []veriland.Environment{env}
		}
	}
	return []veriland.Environment{veriland.Production, veriland.Sandbox}
}

// findInEnvs calls get for each environment readEnvs allows until one is found.
func findInEnvs[T any](s *Server, r *http.Request, get func(env veriland.Environment) (T, error)) (T, veriland.Environment, error) {
	var zero T
	var lastErr error
	for _, env := range s.readEnvs(r) {
		v, err := get(env)
		if err == nil {
			return v, env, nil
		}
		if !veriland.IsCode(err, veriland.CodeNotFound) {
			return zero, "", err
		}
		lastErr = err
	}
	return zero, "", lastErr
}
