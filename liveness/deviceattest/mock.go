package deviceattest

import (
	"context"
	"unicode/utf8"
)

// Bounds on a MOCK token, in characters (SPEC S4).
const (
	MockTokenMin = 8
	MockTokenMax = 16384
)

// MockVerifier accepts any token of MockTokenMin..MockTokenMax characters with BASIC
// trust. It proves nothing; Verifiers.Verify refuses it outside SANDBOX.
type MockVerifier struct{}

// Verify implements Verifier. It never looks at the challenge.
func (MockVerifier) Verify(_ context.Context, token string, _ [32]byte) (*Result, error) {
	if len(token) > 4*MockTokenMax { // cheap bound before counting runes
		return nil, failf(Mock, ErrMalformedToken, "mock token longer than %d characters", MockTokenMax)
	}
	n := utf8.RuneCountInString(token)
	if n < MockTokenMin || n > MockTokenMax {
		return nil, failf(Mock, ErrMalformedToken, "mock token must be %d..%d characters, got %d", MockTokenMin, MockTokenMax, n)
	}
	return &Result{Type: Mock, Trust: TrustBasic, SecurityLevel: "MOCK"}, nil
}
