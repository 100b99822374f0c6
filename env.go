package veriland

import "fmt"

// Environment separates test traffic from live traffic. Every stored record is keyed by
// it, and a principal of one environment never sees a record of the other.
type Environment string

// The two environments.
const (
	Sandbox    Environment = "SANDBOX"
	Production Environment = "PRODUCTION"
)

// Valid reports whether e is one of the two environments.
func (e Environment) Valid() bool { return e == Sandbox || e == Production }

// ParseEnvironment parses "SANDBOX" or "PRODUCTION".
func ParseEnvironment(s string) (Environment, error) {
	e := Environment(s)
	if !e.Valid() {
		return "", Errorf(CodeValidationFailed, "environment must be SANDBOX or PRODUCTION, got %q", s)
	}
	return e, nil
}

// KeyID returns the JWT "kid" that selects this environment's signing secret.
func (e Environment) KeyID() string {
	switch e {
	case Sandbox:
		return "sandbox"
	case Production:
		return "production"
	}
	panic(fmt.Sprintf("veriland: invalid environment %q", string(e)))
}
