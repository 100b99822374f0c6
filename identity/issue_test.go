package identity_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage"
)

const checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55 test vector

func TestIssueRequestValidate(t *testing.T) {
	valid := identity.IssueRequest{SubjectRef: "user-1", CountryCode: "FR"}
	tests := []struct {
		name     string
		edit     func(r *identity.IssueRequest)
		pointers []string
	}{
		{"valid", func(*identity.IssueRequest) {}, nil},
		{"three-letter country", func(r *identity.IssueRequest) { r.CountryCode = "FRA" }, nil},
		{"checksummed wallet", func(r *identity.IssueRequest) { r.WalletAddress = checksummed }, nil},
		{"lower-case wallet", func(r *identity.IssueRequest) { r.WalletAddress = strings.ToLower(checksummed) }, nil},
		{"upper-case wallet", func(r *identity.IssueRequest) { r.WalletAddress = "0x" + strings.ToUpper(checksummed[2:]) }, nil},
		{"object payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`{"a":1}`) }, nil},
		{"null payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`null`) }, nil},
		{"array payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`[1, {"a": 2}]`) }, nil},
		{"string payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`"scan-123"`) }, nil},
		{"number payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`-1.5e3`) }, nil},
		{"boolean payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`false`) }, nil},
		{"no country", func(r *identity.IssueRequest) { r.CountryCode = "" }, nil},
		{"two-letter country", func(r *identity.IssueRequest) { r.CountryCode = "FR" }, nil},
		{"256 characters", func(r *identity.IssueRequest) { r.SubjectRef = strings.Repeat("é", 256) }, nil},
		{"empty subject", func(r *identity.IssueRequest) { r.SubjectRef = "" }, []string{"/subjectRef"}},
		{"257 characters", func(r *identity.IssueRequest) { r.SubjectRef = strings.Repeat("a", 257) }, []string{"/subjectRef"}},
		{"invalid UTF-8", func(r *identity.IssueRequest) { r.SubjectRef = "a\xffb" }, []string{"/subjectRef"}},
		{"lower-case country", func(r *identity.IssueRequest) { r.CountryCode = "fr" }, []string{"/countryCode"}},
		{"one-letter country", func(r *identity.IssueRequest) { r.CountryCode = "F" }, []string{"/countryCode"}},
		{"four-letter country", func(r *identity.IssueRequest) { r.CountryCode = "FRAN" }, []string{"/countryCode"}},
		{"country with newline", func(r *identity.IssueRequest) { r.CountryCode = "FR\n" }, []string{"/countryCode"}},
		{"bad checksum", func(r *identity.IssueRequest) { r.WalletAddress = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }, []string{"/walletAddress"}},
		{"short wallet", func(r *identity.IssueRequest) { r.WalletAddress = "0x1234" }, []string{"/walletAddress"}},
		{"wallet without 0x", func(r *identity.IssueRequest) { r.WalletAddress = checksummed[2:] + "00" }, []string{"/walletAddress"}},
		{"wallet with 0X", func(r *identity.IssueRequest) { r.WalletAddress = "0X" + checksummed[2:] }, []string{"/walletAddress"}},
		{"non-hex wallet", func(r *identity.IssueRequest) { r.WalletAddress = "0x" + strings.Repeat("g", 40) }, []string{"/walletAddress"}},
		{"invalid JSON payload", func(r *identity.IssueRequest) { r.Payload = json.RawMessage(`{"a":`) }, []string{"/payload"}},
		{"payload too large", func(r *identity.IssueRequest) {
			r.Payload = json.RawMessage(`{"x":"` + strings.Repeat("a", identity.MaxPayloadSize) + `"}`)
		}, []string{"/payload"}},
		{"everything wrong", func(r *identity.IssueRequest) {
			*r = identity.IssueRequest{CountryCode: "x", WalletAddress: "0x", Payload: json.RawMessage(`tru`)}
		}, []string{"/subjectRef", "/countryCode", "/walletAddress", "/payload"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := valid
			tt.edit(&r)
			err := r.Validate()
			if tt.pointers == nil {
				require.NoError(t, err)
				return
			}
			require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
			var got []string
			for _, e := range veriland.ErrorList(err) {
				got = append(got, e.Pointer)
			}
			require.Equal(t, tt.pointers, got)
		})
	}
}

func TestIssueOutcomes(t *testing.T) {
	tests := []struct {
		scenario string
		status   identity.Status
		review   bool
	}{
		{"", identity.StatusActive, false},
		{"success", identity.StatusActive, false},
		{"failure", identity.StatusRejected, false},
		{"review", identity.StatusPendingReview, true},
		{"timeout", identity.StatusPendingKYC, false},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			f := newFixture(t, nil)
			ctx := context.Background()
			res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
				SubjectRef: "user-" + tt.scenario, CountryCode: "NG", WalletAddress: checksummed, Payload: payload(tt.scenario),
			})
			require.NoError(t, err)
			require.True(t, identity.ValidDID(res.DID), res.DID)
			require.Equal(t, tt.status, res.Status)
			require.Equal(t, strings.ToLower(checksummed), res.WalletAddress)
			require.Equal(t, tt.review, res.ReviewID != "")

			st, err := f.svc.Status(ctx, veriland.Sandbox, res.DID)
			require.NoError(t, err)
			require.Equal(t, &identity.StatusReport{
				DID: res.DID, Status: tt.status, CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now(),
				CountryCode: "NG", WalletBound: true,
			}, st)

			id, err := f.svc.Get(ctx, veriland.Sandbox, res.DID)
			require.NoError(t, err)
			if tt.status == identity.StatusActive {
				require.Equal(t, map[string]any{"is_adult": true, "age_over_16": true, "age_over_18": true, "age_over_21": true,
					"kyc_level": "standard", "nationality": "NG", "document_country": "NG"}, id.Claims)
				require.Equal(t, id.Claims, id.KYCClaims)
			}
			if tt.status == identity.StatusRejected {
				require.Nil(t, id.Claims)
			}

			evs := f.events.list(t)
			require.Equal(t, identity.ActionCreated, evs[0].Action)
			require.Equal(t, identity.StatusPendingKYC, evs[0].To)
			if tt.status == identity.StatusPendingKYC {
				require.Len(t, evs, 1)
				return
			}
			require.Len(t, evs, 2)
			require.Equal(t, identity.Event{
				Env: veriland.Sandbox, Action: identity.ActionKYCCompleted, DID: res.DID,
				From: identity.StatusPendingKYC, To: tt.status, ReviewID: res.ReviewID,
				ReviewStatus: map[bool]identity.ReviewStatus{true: identity.ReviewOpen}[tt.review],
				At:           f.clock.Now(),
			}, evs[1])
		})
	}
}

func TestIssueWithoutWallet(t *testing.T) {
	f := newFixture(t, nil)
	res, err := f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "s", CountryCode: "FR"})
	require.NoError(t, err)
	require.Empty(t, res.WalletAddress)
	st, err := f.svc.Status(context.Background(), veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.False(t, st.WalletBound)
}

func TestIssueDuplicates(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	first, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "dup", CountryCode: "FR", WalletAddress: checksummed})
	require.NoError(t, err)

	t.Run("same subject", func(t *testing.T) {
		_, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "dup", CountryCode: "DE"})
		verr := requireCode(t, err, veriland.CodeAlreadyExists)
		require.Equal(t, "/subjectRef", verr.Pointer)
		require.Equal(t, first.DID, verr.Meta["did"])
	})
	t.Run("same wallet, other case", func(t *testing.T) {
		_, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "other", CountryCode: "DE", WalletAddress: strings.ToLower(checksummed)})
		verr := requireCode(t, err, veriland.CodeAlreadyExists)
		require.Equal(t, "/walletAddress", verr.Pointer)
		require.Nil(t, verr.Meta, "the wallet's identity is not revealed")
		// The refused request left nothing behind: the subject is still free.
		_, err = f.svc.BySubject(ctx, veriland.Sandbox, "other")
		requireCode(t, err, veriland.CodeNotFound)
	})
	t.Run("same subject in the other environment", func(t *testing.T) {
		res, err := f.svc.Issue(ctx, veriland.Production, identity.IssueRequest{SubjectRef: "dup", CountryCode: "FR", WalletAddress: checksummed})
		require.NoError(t, err)
		require.NotEqual(t, first.DID, res.DID)
	})
}

func TestIssueConcurrentSameSubject(t *testing.T) {
	calls := &countingKYC{next: identity.SandboxKYC{}}
	f := newFixture(t, calls)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "race", CountryCode: "FR"})
		}()
	}
	wg.Wait()
	var ok int
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		require.Equal(t, veriland.CodeAlreadyExists, veriland.CodeOf(err))
	}
	require.Equal(t, 1, ok)
	require.Equal(t, 1, calls.count(), "the provider is asked once")
}

type countingKYC struct {
	mu   sync.Mutex
	n    int
	next identity.KYCProvider
}

func (c *countingKYC) Check(ctx context.Context, req identity.KYCRequest) (identity.KYCResult, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.next.Check(ctx, req)
}

func (c *countingKYC) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

type kycFunc func(ctx context.Context, req identity.KYCRequest) (identity.KYCResult, error)

func (f kycFunc) Check(ctx context.Context, req identity.KYCRequest) (identity.KYCResult, error) {
	return f(ctx, req)
}

func TestIssueProviderFailure(t *testing.T) {
	tests := []struct {
		name    string
		kyc     identity.KYCProvider
		payload json.RawMessage
		code    veriland.Code
		pointer string
	}{
		{"provider down", identity.SandboxKYC{}, payload("unavailable"), veriland.CodeUnavailable, ""},
		{"unknown scenario", identity.SandboxKYC{}, payload("explode"), veriland.CodeValidationFailed, "/payload/scenario"},
		{"scenario not a string", identity.SandboxKYC{}, json.RawMessage(`{"scenario":1}`), veriland.CodeValidationFailed, "/payload/scenario"},
		{"dateOfBirth not a date", identity.SandboxKYC{}, json.RawMessage(`{"dateOfBirth":"1990-02-30"}`), veriland.CodeValidationFailed, "/payload/dateOfBirth"},
		{"dateOfBirth not a string", identity.SandboxKYC{}, json.RawMessage(`{"dateOfBirth":19900101}`), veriland.CodeValidationFailed, "/payload/dateOfBirth"},
		{"dateOfBirth in the future", identity.SandboxKYC{}, json.RawMessage(`{"dateOfBirth":"2999-01-01"}`), veriland.CodeValidationFailed, "/payload/dateOfBirth"},
		{"is_adult not a boolean", identity.SandboxKYC{}, json.RawMessage(`{"is_adult":"yes"}`), veriland.CodeValidationFailed, "/payload/is_adult"},
		{"invalid answer", kycFunc(func(context.Context, identity.KYCRequest) (identity.KYCResult, error) {
			return identity.KYCResult{Outcome: "MAYBE"}, nil
		}), nil, veriland.CodeUnavailable, ""},
		{"context error", kycFunc(func(context.Context, identity.KYCRequest) (identity.KYCResult, error) {
			return identity.KYCResult{}, context.DeadlineExceeded
		}), nil, veriland.CodeUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.kyc)
			ctx := context.Background()
			req := identity.IssueRequest{SubjectRef: "retry-me", CountryCode: "FR", WalletAddress: checksummed, Payload: tt.payload}
			_, err := f.svc.Issue(ctx, veriland.Sandbox, req)
			verr := requireCode(t, err, tt.code)
			require.Equal(t, tt.pointer, verr.Pointer)

			evs := f.events.list(t)
			require.Len(t, evs, 2)
			require.Equal(t, identity.ActionCreated, evs[0].Action)
			require.Equal(t, identity.ActionAborted, evs[1].Action)
			require.Equal(t, evs[0].DID, evs[1].DID)
			_, err = f.svc.Get(ctx, veriland.Sandbox, evs[0].DID)
			requireCode(t, err, veriland.CodeNotFound)

			// Subject and wallet were released: a retry succeeds.
			f.svc.KYC = identity.SandboxKYC{}
			req.Payload = nil
			res, err := f.svc.Issue(ctx, veriland.Sandbox, req)
			require.NoError(t, err)
			require.Equal(t, identity.StatusActive, res.Status)
		})
	}
}

func TestIssueHookFailureRollsBack(t *testing.T) {
	f := newFixture(t, nil)
	boom := errors.New("audit log full")
	f.svc.OnChange = func(context.Context, storage.Tx, identity.Event) error { return boom }
	_, err := f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "x", CountryCode: "FR"})
	require.ErrorIs(t, err, boom)
	_, err = f.svc.BySubject(context.Background(), veriland.Sandbox, "x")
	requireCode(t, err, veriland.CodeNotFound)
}

func TestIssueCancelledContextAfterCreate(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := newFixture(t, kycFunc(func(context.Context, identity.KYCRequest) (identity.KYCResult, error) {
		cancel() // the client goes away while the provider answers
		return identity.KYCResult{Outcome: identity.OutcomeApproved, Claims: map[string]any{"is_adult": true}}, nil
	}))
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "gone", CountryCode: "FR"})
	require.NoError(t, err)
	require.Equal(t, identity.StatusActive, res.Status, "the provider's answer is still recorded")
}

func TestSandboxRefusesProduction(t *testing.T) {
	f := newFixture(t, identity.SandboxKYC{})
	_, err := f.svc.Issue(context.Background(), veriland.Production, identity.IssueRequest{SubjectRef: "p", CountryCode: "FR"})
	verr := requireCode(t, err, veriland.CodeUnavailable)
	// Not a bare "retry later": the detail names what to configure, and where.
	for _, want := range []string{"PRODUCTION", "-kyc-url", "VERILAND_KYC_URL", "-kyc-secret", "identity.Service.KYC"} {
		require.Contains(t, verr.Message, want)
	}
	require.NotContains(t, verr.Message, "retry later")
	require.Equal(t, "kyc_provider", verr.Meta["missing"])
	var missing *identity.NotConfiguredError
	require.True(t, errors.As(&identity.NotConfiguredError{Env: veriland.Production}, &missing))
}

func TestIssueRequestRedacted(t *testing.T) {
	req := identity.IssueRequest{SubjectRef: "secret-subject", CountryCode: "FR", Payload: json.RawMessage(`{"name":"secret-name"}`)}
	kreq := identity.KYCRequest{DID: "did:veriland:x", Payload: req.Payload}
	for _, s := range []string{
		fmt.Sprint(req), fmt.Sprintf("%+v", req), fmt.Sprintf("%#v", req), fmt.Sprintf("%v", &req),
		fmt.Sprint(kreq), fmt.Sprintf("%#v", kreq), req.LogValue().String(), kreq.LogValue().String(),
	} {
		require.NotContains(t, s, "secret")
	}
}

func TestClaimsAllowList(t *testing.T) {
	f := newFixture(t, kycFunc(func(context.Context, identity.KYCRequest) (identity.KYCResult, error) {
		return identity.KYCResult{Outcome: identity.OutcomeApproved, Claims: map[string]any{
			"is_adult":      true,
			"age_over_21":   false,
			"kyc_level":     2.0,
			"nationality":   map[string]any{"name": "Jane Doe"},
			"document_type": strings.Repeat("x", 65),
			"full_name":     "Jane Doe",
			"date_of_birth": "1990-01-01",
		}}, nil
	}))
	res, err := f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "c", CountryCode: "FR"})
	require.NoError(t, err)
	id, err := f.svc.Get(context.Background(), veriland.Sandbox, res.DID)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"is_adult": true, "age_over_21": false, "kyc_level": 2.0}, id.Claims)

	f.svc.ClaimNames = []string{"kyc_level"}
	id2, err := f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "d", CountryCode: "FR"})
	require.NoError(t, err)
	got, err := f.svc.Get(context.Background(), veriland.Sandbox, id2.DID)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"kyc_level": 2.0}, got.Claims)
}

func TestMisconfiguredService(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	short := *f.svc
	short.Pepper = []byte("short")
	_, err := short.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "x", CountryCode: "FR"})
	require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))

	noKYC := *f.svc
	noKYC.KYC = nil
	_, err = noKYC.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "x", CountryCode: "FR"})
	verr := requireCode(t, err, veriland.CodeUnavailable)
	require.Contains(t, verr.Message, "identity.Service.KYC")
	require.Nil(t, verr.Cause, "the message is for the client")

	_, err = f.svc.Issue(ctx, "STAGING", identity.IssueRequest{SubjectRef: "x", CountryCode: "FR"})
	require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
}
