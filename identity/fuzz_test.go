package identity_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// FuzzSandboxKYC feeds arbitrary payloads to the sandbox provider, which reads
// outside bytes: it must never panic, refuse only with validation_failed errors
// pointing into /payload (or fail as the unavailable scenario), and never echo a
// date of birth into its claims.
func FuzzSandboxKYC(f *testing.F) {
	for _, s := range []string{``, `null`, `[]`, `"x"`, `1`, `true`, `{}`, `{"scenario":"review"}`,
		`{"scenario":1}`, `{"dateOfBirth":"2008-02-29"}`, `{"dateOfBirth":"0000-01-01"}`, `{"is_adult":false}`,
		`{"scenario":"unavailable"}`, `{"scenario":"success","dateOfBirth":null,"is_adult":"no"}`, `{"a":`} {
		f.Add([]byte(s), "FR")
	}
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	p := identity.SandboxKYC{Now: func() time.Time { return now }}
	f.Fuzz(func(t *testing.T, payload []byte, country string) {
		res, err := p.Check(context.Background(), identity.KYCRequest{Env: veriland.Sandbox, DID: "did:veriland:x",
			CountryCode: country, Payload: json.RawMessage(payload)})
		if err != nil {
			list := veriland.ErrorList(err)
			if list == nil {
				return // the unavailable scenario: a plain provider failure
			}
			for _, e := range list {
				if e.Code != veriland.CodeValidationFailed || !strings.HasPrefix(e.Pointer, "/payload") {
					t.Fatalf("bad error %#v", e)
				}
			}
			return
		}
		if !res.Outcome.Valid() {
			t.Fatalf("outcome %q", res.Outcome)
		}
		for k, v := range res.Claims {
			if s, ok := v.(string); ok && k != "nationality" && k != "document_country" && k != "kyc_level" {
				t.Fatalf("claim %s = %q", k, s)
			}
		}
	})
}
