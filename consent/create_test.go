package consent_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ids"
)

func intp(v int) *int { return &v }

func live(level string, days float64) *consent.LivenessInput {
	return &consent.LivenessInput{MinLevel: level, MaxAgeDays: &days}
}

func TestCreateValidation(t *testing.T) {
	f := newFixture(t)
	pkh := identity.PKHDID(testChainID, addr(f.holder).Hex())
	tests := []struct {
		name     string
		env      veriland.Environment
		mut      func(*consent.CreateRequest)
		pointers []string // nil: accepted
	}{
		{"valid", "", func(*consent.CreateRequest) {}, nil},
		{"did:pkh subject", "", func(c *consent.CreateRequest) { c.SubjectRef = pkh }, nil},
		{"empty subject", "", func(c *consent.CreateRequest) { c.SubjectRef = "" }, []string{"/subjectRef"}},
		{"free-text subject", "", func(c *consent.CreateRequest) { c.SubjectRef = "Jane Doe" }, []string{"/subjectRef"}},
		{"did:pkh on another chain", "", func(c *consent.CreateRequest) { c.SubjectRef = identity.PKHDID(1, addr(f.holder).Hex()) }, []string{"/subjectRef"}},
		{"did:pkh with bad address", "", func(c *consent.CreateRequest) { c.SubjectRef = "did:pkh:eip155:31337:0x12" }, []string{"/subjectRef"}},
		{"no scope", "", func(c *consent.CreateRequest) { c.Scope = nil }, []string{"/scope"}},
		{"too many scope items", "", func(c *consent.CreateRequest) {
			c.Scope = nil
			for i := range consent.MaxScopeItems + 1 {
				c.Scope = append(c.Scope, "item"+strings.Repeat("x", i))
			}
		}, []string{"/scope"}},
		{"bad scope item", "", func(c *consent.CreateRequest) { c.Scope = []string{"is_adult", "full name"} }, []string{"/scope/1"}},
		{"empty scope item", "", func(c *consent.CreateRequest) { c.Scope = []string{""} }, []string{"/scope/0"}},
		{"repeated scope item", "", func(c *consent.CreateRequest) { c.Scope = []string{"is_adult", "nationality", "is_adult"} }, []string{"/scope/2"}},
		{"unknown scope item", "", func(c *consent.CreateRequest) { c.Scope = []string{"bank:account_holder", "is_adult"} }, []string{"/scope/0"}},
		{"the bookkeeping member is no scope item", "", func(c *consent.CreateRequest) { c.Scope = []string{"consent"} }, []string{"/scope/0"}},
		{"every item of the vocabulary", "", func(c *consent.CreateRequest) { c.Scope = consent.Vocabulary(nil) }, nil},
		{"identity in PROOF_ONLY", "", func(c *consent.CreateRequest) { c.Scope = []string{"identity"} }, nil},
		{"identity in SELECTIVE", "", func(c *consent.CreateRequest) { c.Scope, c.Mode = []string{"identity"}, consent.ModeSelective }, nil},
		{"explicit PROOF_ONLY", "", func(c *consent.CreateRequest) { c.Mode = consent.ModeProofOnly }, nil},
		{"SELECTIVE", "", func(c *consent.CreateRequest) { c.Mode = consent.ModeSelective }, nil},
		{"SELECTIVE unknown item", "", func(c *consent.CreateRequest) {
			c.Mode = consent.ModeSelective
			c.Scope = []string{"is_adult", "bank:account_holder"}
		}, []string{"/scope/1"}},
		{"FULL is gone", "", func(c *consent.CreateRequest) { c.Mode = "FULL" }, []string{"/mode"}},
		{"bad mode", "", func(c *consent.CreateRequest) { c.Mode = "PARTIAL" }, []string{"/mode"}},
		{"no reason", "", func(c *consent.CreateRequest) { c.Reason = "" }, []string{"/reason"}},
		{"long reason", "", func(c *consent.CreateRequest) { c.Reason = strings.Repeat("é", consent.MaxReasonLen+1) }, []string{"/reason"}},
		{"reason with control character", "", func(c *consent.CreateRequest) { c.Reason = "a\x00b" }, []string{"/reason"}},
		{"reason not UTF-8", "", func(c *consent.CreateRequest) { c.Reason = "a\xffb" }, []string{"/reason"}},
		{"no callback", "", func(c *consent.CreateRequest) { c.CallbackURL = "" }, nil},
		{"relative callback", "", func(c *consent.CreateRequest) { c.CallbackURL = "/hooks" }, []string{"/callbackUrl"}},
		{"callback with credentials", "", func(c *consent.CreateRequest) { c.CallbackURL = "https://u:p@verifier.example/" }, []string{"/callbackUrl"}},
		{"ftp callback", "", func(c *consent.CreateRequest) { c.CallbackURL = "ftp://verifier.example/" }, []string{"/callbackUrl"}},
		{"http callback in SANDBOX", "", func(c *consent.CreateRequest) { c.CallbackURL = "http://localhost:9000/hook" }, nil},
		{"http callback in PRODUCTION", veriland.Production, func(c *consent.CreateRequest) { c.CallbackURL = "http://verifier.example/hook" }, []string{"/callbackUrl"}},
		{"liveness L1", "", func(c *consent.CreateRequest) { c.RequireLiveness = &consent.LivenessInput{MinLevel: "L1"} }, nil},
		{"liveness L2", "", func(c *consent.CreateRequest) { c.RequireLiveness = &consent.LivenessInput{MinLevel: "L2"} }, nil},
		{"liveness L3", "", func(c *consent.CreateRequest) { c.RequireLiveness = &consent.LivenessInput{MinLevel: "L3"} }, nil},
		{"liveness without minLevel", "", func(c *consent.CreateRequest) { c.RequireLiveness = &consent.LivenessInput{} }, []string{"/requireLiveness/minLevel"}},
		{"bad min level", "", func(c *consent.CreateRequest) { c.RequireLiveness = &consent.LivenessInput{MinLevel: "L4"} }, []string{"/requireLiveness/minLevel"}},
		{"max age 0", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 0) }, []string{"/requireLiveness/maxAgeDays"}},
		{"max age 0.5", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 0.5) }, []string{"/requireLiveness/maxAgeDays"}},
		{"max age 1", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 1) }, nil},
		{"max age 1.5", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 1.5) }, nil},
		{"max age 365", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 365) }, nil},
		{"max age 366", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", 366) }, []string{"/requireLiveness/maxAgeDays"}},
		{"max age NaN", "", func(c *consent.CreateRequest) { c.RequireLiveness = live("L2", math.NaN()) }, []string{"/requireLiveness/maxAgeDays"}},
		{"expires 59", "", func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(59) }, []string{"/expiresInSeconds"}},
		{"expires 60", "", func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(60) }, nil},
		{"expires 604800", "", func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(604800) }, nil},
		{"expires 604801", "", func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(604801) }, []string{"/expiresInSeconds"}},
		{"several at once", "", func(c *consent.CreateRequest) {
			c.SubjectRef, c.Reason, c.ExpiresInSeconds = "x", "", intp(0)
		}, []string{"/subjectRef", "/reason", "/expiresInSeconds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if env == "" {
				env = veriland.Sandbox
			}
			c := consent.CreateRequest{
				SubjectRef:  f.did,
				Scope:       []string{"is_adult", "nationality"},
				Reason:      "Opening a savings account",
				CallbackURL: "https://verifier.example/hooks/veriland",
			}
			tc.mut(&c)
			p := f.verifier
			p.Env = env
			r, err := f.svc.Create(f.ctx, env, p, c)
			if tc.pointers == nil {
				require.NoError(t, err)
				require.Equal(t, consent.StatusPending, r.Status)
				return
			}
			require.Nil(t, r)
			require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err), "%v", err)
			require.Equal(t, tc.pointers, pointers(err))
		})
	}
}

func TestCreateDefaultsAndEvent(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	require.True(t, ids.Valid(r.ID, "vrq"), r.ID)
	require.Equal(t, veriland.Sandbox, r.Env)
	require.Equal(t, "acct_1", r.Account)
	require.Equal(t, "verifier-acme", r.Verifier)
	require.Equal(t, consent.ModeProofOnly, r.Mode)
	require.False(t, r.RequireLiveness)
	require.Nil(t, r.Liveness())
	require.Equal(t, "verifier-acme", r.DisplayName(), "no API key name: the sub")
	require.NotZero(t, r.Nonce)
	require.Equal(t, f.clock.Now(), r.CreatedAt)
	require.Equal(t, f.clock.Now().Add(time.Hour), r.ExpiresAt)
	require.Equal(t, uint64(r.ExpiresAt.Unix()), r.Deadline())
	require.Nil(t, r.DecidedAt)

	other := f.create(nil)
	require.NotEqual(t, r.ID, other.ID)
	require.NotEqual(t, r.Nonce, other.Nonce)

	ev := f.events(veriland.Sandbox)
	require.Len(t, ev, 2)
	require.Equal(t, recorded{Type: consent.EventCreated, RequestID: r.ID, Status: consent.StatusPending,
		CallbackURL: "https://verifier.example/hooks/veriland", Actor: "verifier-acme"}, ev[0])
	require.False(t, consent.EventCreated.Webhook())
	require.True(t, consent.EventExpired.Webhook())

	// requireLiveness.maxAgeDays defaults to 30; the display name is the caller's.
	l := f.create(func(c *consent.CreateRequest) {
		c.RequireLiveness = &consent.LivenessInput{MinLevel: "L3"}
		c.VerifierName = "Acme Bank"
	})
	require.Equal(t, &consent.LivenessRequirement{MinLevel: "L3", MaxAgeDays: 30}, l.Liveness())
	require.Equal(t, 30*24*time.Hour, l.Liveness().MaxAge())
	require.Equal(t, "Acme Bank", l.DisplayName())
	require.Equal(t, l.Liveness(), l.Summary().RequireLiveness)

	// A did:pkh subject is stored in its canonical (lower-case) form.
	mixed := "did:pkh:eip155:31337:" + addr(f.holder).Hex()
	p := f.create(func(c *consent.CreateRequest) { c.SubjectRef = mixed })
	require.Equal(t, strings.ToLower(mixed), p.SubjectRef)
}

func TestCreateRefusals(t *testing.T) {
	f := newFixture(t)
	valid := consent.CreateRequest{SubjectRef: f.did, Scope: []string{"is_adult"}, Reason: "r"}
	for name, p := range map[string]veriland.Principal{
		"holder":            {Subject: f.did, Role: veriland.RoleHolder, Env: veriland.Sandbox},
		"no sub":            {Role: veriland.RoleVerifier, Env: veriland.Sandbox},
		"other environment": {Subject: "v", Role: veriland.RoleVerifier, Env: veriland.Production},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.Create(f.ctx, veriland.Sandbox, p, valid)
			requireCode(t, err, veriland.CodeForbidden, "-")
		})
	}

	t.Run("liveness without a gate", func(t *testing.T) {
		svc := *f.svc
		svc.Liveness = nil
		c := valid
		c.RequireLiveness = &consent.LivenessInput{MinLevel: "L2"}
		_, err := svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		requireCode(t, err, veriland.CodeValidationFailed, "/requireLiveness")
	})

	t.Run("unknown subject", func(t *testing.T) {
		c := valid
		c.SubjectRef = "did:veriland:" + strings.Repeat("a", 22)
		_, err := f.svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		requireCode(t, err, veriland.CodeUnknownSubject, "/subjectRef")
		// An identity of the other environment is unknown here.
		_, prodDID := f.newIdentity(veriland.Production)
		c.SubjectRef = prodDID
		_, err = f.svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		requireCode(t, err, veriland.CodeUnknownSubject, "/subjectRef")
		// Without an IdentityGetter, Wallets says whether it exists.
		svc := *f.svc
		svc.Wallets = walletsFunc(func(_ context.Context, _ veriland.Environment, did string) (string, error) {
			if did == f.did {
				return "", veriland.Errorf(veriland.CodeBusinessRuleViolation, "not ACTIVE")
			}
			return "", veriland.Errorf(veriland.CodeNotFound, "no such identity")
		})
		_, err = svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		requireCode(t, err, veriland.CodeUnknownSubject, "/subjectRef")
		c.SubjectRef = f.did
		_, err = svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		require.NoError(t, err, "it exists, even if it may not consent now")
	})

	t.Run("pluggable callback validator", func(t *testing.T) {
		svc := *f.svc
		cause := errors.New("loopback address")
		svc.ValidateCallback = func(env veriland.Environment, raw string) error {
			if strings.Contains(raw, "127.0.0.1") {
				return cause
			}
			return nil
		}
		c := valid
		c.CallbackURL = "https://127.0.0.1/hook"
		_, err := svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		requireCode(t, err, veriland.CodeValidationFailed, "/callbackUrl")
		require.ErrorIs(t, err, cause)
		c.CallbackURL = "http://anything.example/hook" // the validator decides alone
		_, err = svc.Create(f.ctx, veriland.Sandbox, f.verifier, c)
		require.NoError(t, err)
	})

	t.Run("misconfigured", func(t *testing.T) {
		svc := *f.svc
		svc.Attestations = nil
		_, err := svc.Create(f.ctx, veriland.Sandbox, f.verifier, valid)
		require.Error(t, err)
		require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))
		_, err = f.svc.Create(f.ctx, "STAGING", f.verifier, valid)
		requireCode(t, err, veriland.CodeValidationFailed, "-")
	})
}

func TestGetAndEnvironmentIsolation(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, r, got)

	for _, id := range []string{r.ID, "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", "vrq_x", "", "../../etc"} {
		_, err = f.svc.Get(f.ctx, veriland.Production, id)
		requireCode(t, err, veriland.CodeNotFound, "")
	}
	_, err = f.svc.Context(f.ctx, veriland.Production, r.ID)
	requireCode(t, err, veriland.CodeNotFound, "")

	s := r.Summary()
	require.Equal(t, r.ID, s.RequestID)
	require.Equal(t, r.Scope, s.Scope)
}

// TestHas answers as Get finds: nil for a request of the environment, Get's very
// not_found error otherwise, and the storage error when the store fails.
func TestHas(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	require.NoError(t, f.svc.Has(f.ctx, veriland.Sandbox, r.ID))
	for _, tc := range []struct {
		env veriland.Environment
		id  string
	}{
		{veriland.Production, r.ID},
		{veriland.Sandbox, "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{veriland.Sandbox, "vrq_x"},
		{veriland.Sandbox, ""},
		{veriland.Sandbox, "../../etc"},
	} {
		_, want := f.svc.Get(f.ctx, tc.env, tc.id)
		got := f.svc.Has(f.ctx, tc.env, tc.id)
		requireCode(t, got, veriland.CodeNotFound, "")
		require.Equal(t, want.Error(), got.Error(), "%s %q", tc.env, tc.id)
	}
	require.Error(t, f.svc.Has(f.ctx, "STAGING", r.ID), "an unknown environment is refused")
}
