package identity_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestAgeAt(t *testing.T) {
	tests := []struct {
		birth, at time.Time
		age       int
	}{
		{date(2008, 3, 1), date(2026, 3, 1), 18},                                  // the birthday itself
		{date(2008, 3, 2), date(2026, 3, 1), 17},                                  // the day before
		{date(2008, 2, 29), date(2026, 2, 28), 17},                                // leap-day birth, common year
		{date(2008, 2, 29), date(2026, 3, 1), 18},                                 //   … a year older on 1 March
		{date(2008, 2, 29), date(2028, 2, 29), 20},                                // leap year: on the day
		{date(2026, 5, 1), date(2026, 3, 1), -1},                                  // not born yet
		{date(1990, 12, 31), time.Date(2026, 12, 30, 23, 59, 0, 0, time.UTC), 35}, // time of day ignored
	}
	for _, tt := range tests {
		require.Equal(t, tt.age, identity.AgeAt(tt.birth, tt.at), "%s at %s", tt.birth, tt.at)
	}
	require.Equal(t, map[string]any{"age_over_16": true, "age_over_18": false, "age_over_21": false, "is_adult": false},
		identity.AgeClaims(17))
	require.Equal(t, map[string]any{"age_over_16": true, "age_over_18": true, "age_over_21": false, "is_adult": true},
		identity.AgeClaims(18))
	require.Equal(t, map[string]any{"age_over_16": false, "age_over_18": false, "age_over_21": false, "is_adult": false},
		identity.AgeClaims(15))
}

// The sandbox provider's derived claims, for every kind of payload.
func TestSandboxKYCClaims(t *testing.T) {
	now := date(2026, 3, 1)
	p := identity.SandboxKYC{Now: func() time.Time { return now }}
	adult := map[string]any{"age_over_16": true, "age_over_18": true, "age_over_21": true, "is_adult": true, "kyc_level": "standard"}
	with := func(base map[string]any, extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name    string
		country string
		payload string
		outcome identity.Outcome
		claims  map[string]any
	}{
		{"no payload", "", ``, identity.OutcomeApproved, adult},
		{"null", "FR", `null`, identity.OutcomeApproved, with(adult, map[string]any{"nationality": "FR", "document_country": "FR"})},
		{"array", "FRA", `[{"scenario":"failure"}]`, identity.OutcomeApproved, with(adult, map[string]any{"nationality": "FRA", "document_country": "FRA"})},
		{"string", "", `"failure"`, identity.OutcomeApproved, adult},
		{"number", "", `42`, identity.OutcomeApproved, adult},
		{"boolean", "", `true`, identity.OutcomeApproved, adult},
		{"empty object", "", `{}`, identity.OutcomeApproved, adult},
		{"17 today", "", `{"dateOfBirth":"2008-03-02"}`, identity.OutcomeApproved,
			map[string]any{"age_over_16": true, "age_over_18": false, "age_over_21": false, "is_adult": false, "kyc_level": "standard"}},
		{"18 today", "", `{"dateOfBirth":"2008-03-01"}`, identity.OutcomeApproved,
			map[string]any{"age_over_16": true, "age_over_18": true, "age_over_21": false, "is_adult": true, "kyc_level": "standard"}},
		{"dateOfBirth wins over is_adult", "", `{"dateOfBirth":"2015-01-01","is_adult":true}`, identity.OutcomeApproved,
			map[string]any{"age_over_16": false, "age_over_18": false, "age_over_21": false, "is_adult": false, "kyc_level": "standard"}},
		{"is_adult false", "", `{"is_adult":false}`, identity.OutcomeApproved,
			map[string]any{"age_over_18": false, "age_over_21": false, "is_adult": false, "kyc_level": "standard"}},
		{"null members", "", `{"scenario":null,"dateOfBirth":null,"is_adult":null}`, identity.OutcomeApproved, adult},
		{"review keeps claims", "NG", `{"scenario":"review"}`, identity.OutcomeReview,
			with(adult, map[string]any{"nationality": "NG", "document_country": "NG"})},
		{"failure", "NG", `{"scenario":"failure"}`, identity.OutcomeRejected, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := p.Check(context.Background(), identity.KYCRequest{Env: veriland.Sandbox, DID: "did:veriland:x",
				CountryCode: tt.country, Payload: json.RawMessage(tt.payload)})
			require.NoError(t, err)
			require.Equal(t, tt.outcome, res.Outcome)
			require.Equal(t, tt.claims, res.Claims)
			for _, v := range res.Claims {
				require.NotEqual(t, "2008-03-02", v, "the date of birth is never a claim")
			}
		})
	}
}

func TestKYCByEnvironment(t *testing.T) {
	p := identity.KYCByEnvironment{veriland.Sandbox: identity.SandboxKYC{}}
	res, err := p.Check(context.Background(), identity.KYCRequest{Env: veriland.Sandbox})
	require.NoError(t, err)
	require.Equal(t, identity.OutcomeApproved, res.Outcome)
	_, err = p.Check(context.Background(), identity.KYCRequest{Env: veriland.Production})
	var missing *identity.NotConfiguredError
	require.ErrorAs(t, err, &missing)
	require.Equal(t, veriland.Production, missing.Env)
	require.Contains(t, missing.Detail(), "-kyc-url")

	f := newFixture(t, p)
	_, err = f.svc.Issue(context.Background(), veriland.Production, identity.IssueRequest{SubjectRef: "p"})
	verr := requireCode(t, err, veriland.CodeUnavailable)
	require.Equal(t, missing.Detail(), verr.Message)
}

func TestIssueWithoutCountryCode(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "no-country", Payload: json.RawMessage(`["any"]`)})
	require.NoError(t, err)
	require.Equal(t, identity.StatusActive, res.Status)
	st, err := f.svc.Status(ctx, veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.Empty(t, st.CountryCode)
	b, err := json.Marshal(st)
	require.NoError(t, err)
	require.NotContains(t, string(b), "countryCode", "an absent country code is omitted")
	id, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.NotContains(t, id.Claims, "nationality")
}

func setChipClaims(t *testing.T, f *fixture, env veriland.Environment, did string, claims map[string]any) bool {
	t.Helper()
	var ok bool
	require.NoError(t, f.store.Update(context.Background(), func(tx storage.Tx) error {
		var err error
		ok, err = f.svc.SetChipClaims(context.Background(), tx, env, did, claims)
		return err
	}))
	return ok
}

func TestSetChipClaims(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "chip", CountryCode: "FR",
		Payload: json.RawMessage(`{"dateOfBirth":"2000-01-01"}`)})
	require.NoError(t, err)

	chip := map[string]any{"nationality": "UTO", "document_country": "UTO", "document_type": "P",
		"age_over_16": true, "age_over_18": true, "age_over_21": true, "is_adult": true, "chip_bound": true,
		"surname": "ERIKSSON"} // not on the allow-list: dropped
	f.clock.Advance(time.Minute)
	require.True(t, setChipClaims(t, f, veriland.Sandbox, res.DID, chip))
	id, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.Equal(t, "UTO", id.Claims["nationality"], "chip claims take precedence")
	require.Equal(t, "standard", id.Claims["kyc_level"], "KYC claims stay")
	require.Equal(t, true, id.Claims["chip_bound"])
	require.NotContains(t, id.Claims, "surname")
	require.Equal(t, "FR", id.KYCClaims["nationality"])
	require.Equal(t, f.clock.Now(), id.UpdatedAt)
	evs := f.events.list(t)
	require.Equal(t, identity.Event{Env: veriland.Sandbox, Action: identity.ActionClaimsUpdated, DID: res.DID,
		From: identity.StatusActive, To: identity.StatusActive, At: f.clock.Now()}, evs[len(evs)-1])

	// The same claims again: nothing written, no event.
	n := len(evs)
	require.True(t, setChipClaims(t, f, veriland.Sandbox, res.DID, chip))
	require.Len(t, f.events.list(t), n)

	// No identity record: a did:pkh holder, an unknown DID, the other environment.
	require.False(t, setChipClaims(t, f, veriland.Sandbox, "did:pkh:eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", chip))
	require.False(t, setChipClaims(t, f, veriland.Sandbox, "did:veriland:AAAAAAAAAAAAAAAAAAAAAA", chip))
	require.False(t, setChipClaims(t, f, veriland.Production, res.DID, chip))
	require.Len(t, f.events.list(t), n)
}

// Chip claims survive a KYC result that arrives after the binding.
func TestChipClaimsSurviveLateKYC(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "late", CountryCode: "FR", Payload: payload("timeout")})
	require.NoError(t, err)
	require.True(t, setChipClaims(t, f, veriland.Sandbox, res.DID, map[string]any{"nationality": "UTO", "chip_bound": true}))
	id, err := f.svc.CompleteKYC(ctx, veriland.Sandbox, res.DID, identity.KYCResult{Outcome: identity.OutcomeApproved,
		Claims: map[string]any{"nationality": "FRA", "is_adult": true}})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"nationality": "UTO", "chip_bound": true, "is_adult": true}, id.Claims)
	require.Equal(t, map[string]any{"nationality": "FRA", "is_adult": true}, id.KYCClaims)
}

// A record written before claims had sources keeps its claims as the KYC's.
func TestLegacyClaimsAreKYCClaims(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	did := "did:veriland:LLLLLLLLLLLLLLLLLLLLLL"
	legacy := `{"did":"` + did + `","env":"SANDBOX","status":"ACTIVE","countryCode":"FR",` +
		`"claims":{"is_adult":true,"nationality":"FR"},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`
	require.NoError(t, f.store.Update(ctx, func(tx storage.Tx) error {
		return tx.Put(storage.Bucket(veriland.Sandbox, "identities"), []byte(did), []byte(legacy))
	}))
	id, err := f.svc.Get(ctx, veriland.Sandbox, did)
	require.NoError(t, err)
	require.Equal(t, id.Claims, id.KYCClaims)
	require.True(t, setChipClaims(t, f, veriland.Sandbox, did, map[string]any{"nationality": "UTO", "chip_bound": true}))
	id, err = f.svc.Get(ctx, veriland.Sandbox, did)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"is_adult": true, "nationality": "UTO", "chip_bound": true}, id.Claims)
	require.Equal(t, map[string]any{"is_adult": true, "nationality": "FR"}, id.KYCClaims)
}
