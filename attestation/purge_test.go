package attestation_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
	"github.com/veriland/veriland/storage/storagetest"
)

// dumpAttestations returns every key and value of the attestation buckets of both
// environments.
func dumpAttestations(t *testing.T, st storage.Store) map[string]string {
	t.Helper()
	return storagetest.Dump(t, st, storagetest.EnvBuckets("attestations", "attestations_by_subject", "attestation_revocations", chainjob.Bucket)...)
}

// subjectSet issues, in env, a LIVENESS and two CONSENT attestations of subject, the
// second CONSENT revoked, and returns their ids.
func subjectSet(t *testing.T, s *attestation.Service, clock *fakeClock, env veriland.Environment, subject string) []string {
	t.Helper()
	l, c1, c2 := livenessDraft(), consentDraft(), consentDraft()
	l.Subject, c1.Subject, c2.Subject = subject, subject, subject
	a, b, c := issue(t, s, env, l), issue(t, s, env, c1), issue(t, s, env, c2)
	clock.Advance(time.Minute)
	_, err := s.Revoke(context.Background(), env, c.ID, "changed my mind",
		veriland.Principal{Subject: "ops", Role: veriland.RoleAdmin, Env: env})
	require.NoError(t, err)
	return []string{a.ID, b.ID, c.ID}
}

func TestPurgeSandbox(t *testing.T) {
	const (
		doomed = "did:veriland:7Xq9hZK3mB2nP4rT6vW8yA"
		kept   = "did:veriland:9Zz9hZK3mB2nP4rT6vW8yB"
	)
	for _, tc := range []struct {
		name    string
		anchors bool
		purge   func(s *attestation.Service, ids []string) (int, error)
	}{
		{"by ids", false, func(s *attestation.Service, ids []string) (int, error) {
			return s.PurgeSandbox(context.Background(), append(ids, "att_unknown", ids[0]))
		}},
		{"by ids, anchoring", true, func(s *attestation.Service, ids []string) (int, error) {
			return s.PurgeSandbox(context.Background(), ids)
		}},
		{"by subject", false, func(s *attestation.Service, _ []string) (int, error) {
			return s.PurgeSandboxSubject(context.Background(), doomed)
		}},
		{"by subject, anchoring", true, func(s *attestation.Service, _ []string) (int, error) {
			return s.PurgeSandboxSubject(context.Background(), doomed)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: t0}
			s := newService(t, clock)
			if tc.anchors {
				s.Anchors = map[veriland.Environment]anchor.Anchor{veriland.Sandbox: &flakyAnchor{}, veriland.Production: &flakyAnchor{}}
			}
			subjectSet(t, s, clock, veriland.Sandbox, kept)
			subjectSet(t, s, clock, veriland.Production, doomed)
			others := dumpAttestations(t, s.Store)
			ids := subjectSet(t, s, clock, veriland.Sandbox, doomed)
			before := dumpAttestations(t, s.Store)

			n, err := tc.purge(s, ids)
			require.NoError(t, err)
			require.Equal(t, others, dumpAttestations(t, s.Store))
			require.Equal(t, len(before)-len(others), n)
			for _, id := range ids {
				_, err := s.Get(context.Background(), veriland.Sandbox, id)
				require.Equal(t, veriland.CodeNotFound, veriland.CodeOf(err))
			}
			l, err := s.Revocations(context.Background(), veriland.Sandbox, time.Time{})
			require.NoError(t, err)
			require.Len(t, l.Revocations, 1, "only the kept subject's revocation is listed")
			if tc.anchors {
				_, err = s.AnchorPending(context.Background())
				require.NoError(t, err)
			}
			n, err = tc.purge(s, ids)
			require.NoError(t, err)
			require.Zero(t, n)
		})
	}
}

func TestPurgeSandboxRefused(t *testing.T) {
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	const subject = "did:veriland:7Xq9hZK3mB2nP4rT6vW8yA"
	ids := subjectSet(t, s, clock, veriland.Sandbox, subject)
	subjectSet(t, s, clock, veriland.Production, subject)
	before := dumpAttestations(t, s.Store)
	prod := veriland.WithPrincipal(context.Background(),
		veriland.Principal{Subject: "ops", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_A"})
	for _, tc := range []struct {
		name  string
		purge func() (int, error)
		code  veriland.Code
	}{
		{"ids, production principal", func() (int, error) { return s.PurgeSandbox(prod, ids) }, veriland.CodeForbidden},
		{"subject, production principal", func() (int, error) { return s.PurgeSandboxSubject(prod, subject) }, veriland.CodeForbidden},
		{"empty subject", func() (int, error) { return s.PurgeSandboxSubject(context.Background(), "") }, veriland.CodeValidationFailed},
		{"NUL in subject", func() (int, error) { return s.PurgeSandboxSubject(context.Background(), "a\x00b") }, veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.purge()
			require.Equal(t, tc.code, veriland.CodeOf(err))
			require.Zero(t, n)
			require.Equal(t, before, dumpAttestations(t, s.Store))
		})
	}
}
