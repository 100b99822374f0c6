package parcel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

func TestCreateAndGet(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p, err := f.svc.Create(ctx, owner, validRequest())
	require.NoError(t, err)
	require.Regexp(t, `^prc_[a-z2-7]{26}$`, p.ID)
	require.Equal(t, parcel.StatusPendingNotary, p.Status)
	require.Equal(t, "Amina Bello-Okafor", p.Owner.FullName)
	require.Equal(t, "5678", p.Owner.IDDocLast4)
	require.Regexp(t, `^0x[0-9a-f]{64}$`, p.Owner.IDDocHash)
	require.Nil(t, p.Token)

	for _, tt := range []struct {
		name string
		who  veriland.Principal
		code veriland.Code
	}{
		{"creator account", owner, ""},
		{"named notary", notary, ""},
		{"admin", admin, ""},
		{"other account", otherOwner, veriland.CodeNotFound},
		{"other notary", otherNotary, veriland.CodeNotFound},
		{"sandbox token of the same account", sbxOwner, veriland.CodeNotFound},
		{"sandbox admin", veriland.Principal{Subject: "root", Role: veriland.RoleAdmin, Env: veriland.Sandbox, Account: "acct_1"}, veriland.CodeNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.svc.Get(ctx, tt.who, p.ID)
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if err == nil {
				require.Equal(t, p.ID, got.ID)
			}
		})
	}
	_, err = f.svc.Create(ctx, veriland.Principal{Subject: "x", Role: veriland.RoleHolder, Env: veriland.Production}, validRequest())
	require.Equal(t, veriland.CodeForbidden, codeOf(err))
	_, err = f.svc.Get(ctx, owner, "prc_nope")
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	require.Equal(t, []parcel.Action{parcel.ActionCreated}, f.actions())
}

func TestTransitions(t *testing.T) {
	ctx := context.Background()
	type step func(f *fixture, id string) (*parcel.Parcel, error)
	certify := func(p veriland.Principal) step {
		return func(f *fixture, id string) (*parcel.Parcel, error) { return f.svc.Certify(ctx, p, id) }
	}
	reject := func(p veriland.Principal) step {
		return func(f *fixture, id string) (*parcel.Parcel, error) {
			return f.svc.Reject(ctx, p, id, "survey mismatch")
		}
	}
	revoke := func(p veriland.Principal) step {
		return func(f *fixture, id string) (*parcel.Parcel, error) { return f.svc.Revoke(ctx, p, id, "fraud") }
	}
	tests := []struct {
		name   string
		before []step // run first, must succeed
		do     step
		code   veriland.Code
		status parcel.Status
	}{
		{"named notary certifies", nil, certify(notary), "", parcel.StatusCertified},
		{"admin certifies", nil, certify(admin), "", parcel.StatusCertified},
		{"other notary may not certify", nil, certify(otherNotary), veriland.CodeForbidden, ""},
		{"owner may not certify", nil, certify(owner), veriland.CodeForbidden, ""},
		{"stranger sees nothing", nil, certify(otherOwner), veriland.CodeNotFound, ""},
		{"certify twice", []step{certify(notary)}, certify(notary), veriland.CodeInvalidState, ""},
		{"named notary rejects", nil, reject(notary), "", parcel.StatusRejected},
		{"other notary may not reject", nil, reject(otherNotary), veriland.CodeForbidden, ""},
		{"reject after certify", []step{certify(notary)}, reject(notary), veriland.CodeInvalidState, ""},
		{"certify after reject", []step{reject(admin)}, certify(notary), veriland.CodeInvalidState, ""},
		{"admin revokes", []step{certify(notary)}, revoke(admin), "", parcel.StatusRevoked},
		{"notary may not revoke", []step{certify(notary)}, revoke(notary), veriland.CodeForbidden, ""},
		{"owner may not revoke", []step{certify(notary)}, revoke(owner), veriland.CodeForbidden, ""},
		{"revoke pending", nil, revoke(admin), veriland.CodeInvalidState, ""},
		{"revoke twice", []step{certify(notary), revoke(admin)}, revoke(admin), veriland.CodeInvalidState, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			p, err := f.svc.Create(ctx, owner, validRequest())
			require.NoError(t, err)
			for _, b := range tt.before {
				_, err := b(f, p.ID)
				require.NoError(t, err)
			}
			got, err := tt.do(f, p.ID)
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if err != nil {
				return
			}
			require.Equal(t, tt.status, got.Status)
		})
	}
}

func TestCertifyMintsTokenAndCertificate(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	require.Equal(t, uint64(1), p.Version)
	require.NotNil(t, p.Token)
	require.Equal(t, parcel.TokenID(p.ID, 1), p.Token.TokenID)
	require.Equal(t, "ERC-5192", p.Token.Standard)
	require.True(t, p.Token.Locked)
	require.Equal(t, parcel.TokenDisabled, p.Token.Status, "no chain in this fixture")
	require.Equal(t, p.CertificateHash, p.Token.MetadataHash)
	require.Equal(t, "DISABLED", string(p.Token.Anchor.Status))
	require.NotContains(t, p.Token.Holder, "Amina")

	sc, err := f.svc.Certificate(ctx, owner, p.ID)
	require.NoError(t, err)
	require.Equal(t, p.CertificateHash, sc.Hash)
	require.Equal(t, parcel.CertificateCurrent, sc.Status)
	var cert map[string]any
	require.NoError(t, json.Unmarshal(sc.Certificate, &cert))
	require.Equal(t, map[string]any{"fullName": "Amina Bello-Okafor", "idDocHash": p.Owner.IDDocHash}, cert["owner"])
	require.Equal(t, "2026-03-01T12:00:00Z", cert["certifiedAt"])
	h, err := parcel.HashCertificateJSON(sc.Certificate)
	require.NoError(t, err)
	require.Equal(t, sc.Hash, parcel.HashString(h))

	tok, err := f.svc.Token(ctx, veriland.Production, p.Token.TokenID)
	require.NoError(t, err)
	md, err := json.Marshal(tok.Metadata())
	require.NoError(t, err)
	require.NotContains(t, string(md), "Amina")
	require.Contains(t, string(md), `"locked":true`)
	_, err = f.svc.Token(ctx, veriland.Sandbox, p.Token.TokenID)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))
	_, err = f.svc.Token(ctx, veriland.Production, "0x12")
	require.Equal(t, veriland.CodeNotFound, codeOf(err))

	v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
	require.NoError(t, err)
	require.True(t, v.Authentic)
	require.Equal(t, parcel.CertificateCurrent, v.Status)
	require.Equal(t, "Abuja", v.City)
	require.Len(t, v.History, 1)
	b, _ := json.Marshal(v)
	require.NotContains(t, string(b), "Amina")
	require.NotContains(t, string(b), p.Owner.IDDocHash)
	_, err = f.svc.VerifyHash(ctx, veriland.Sandbox, h)
	require.Equal(t, veriland.CodeNotFound, codeOf(err))

	require.Equal(t, []parcel.Action{parcel.ActionCreated, parcel.ActionCertified}, f.actions())
}

func TestRevokedHashVerifiesAsRevoked(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.certified(t)
	_, err := f.svc.Revoke(ctx, admin, p.ID, "court order")
	require.NoError(t, err)
	h, err := parcel.ParseHash(p.CertificateHash)
	require.NoError(t, err)
	v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
	require.NoError(t, err)
	require.Equal(t, parcel.CertificateRevoked, v.Status)
	tok, err := f.svc.Token(ctx, veriland.Production, p.Token.TokenID)
	require.NoError(t, err)
	require.Equal(t, parcel.TokenBurned, tok.Status)
	l, err := f.svc.Statuses(ctx, veriland.Production, timeZero)
	require.NoError(t, err)
	require.Len(t, l.Entries, 1)
	require.Equal(t, parcel.CertificateRevoked, l.Entries[0].Status)
}

func TestSandboxNotaries(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for notaryID, want := range map[string]parcel.Status{
		parcel.NotarySandboxSuccess: parcel.StatusCertified,
		parcel.NotarySandboxFailure: parcel.StatusRejected,
		parcel.NotarySandboxTimeout: parcel.StatusPendingNotary,
	} {
		req := validRequest()
		req.Notary = notaryID
		p, err := f.svc.Create(ctx, sbxOwner, req)
		require.NoError(t, err)
		require.Equal(t, want, p.Status, notaryID)
		// In PRODUCTION the sandbox notaries are ordinary identifiers.
		p, err = f.svc.Create(ctx, owner, req)
		require.NoError(t, err)
		require.Equal(t, parcel.StatusPendingNotary, p.Status)
	}
}

func TestList(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	var created []string
	for range 5 {
		p, err := f.svc.Create(ctx, owner, validRequest())
		require.NoError(t, err)
		created = append(created, p.ID)
		f.clock.Advance(1e9)
	}
	_, err := f.svc.Create(ctx, otherOwner, validRequest())
	require.NoError(t, err)
	var got []string
	cursor := ""
	for {
		page, next, err := f.svc.List(ctx, owner, cursor, 2)
		require.NoError(t, err)
		for _, p := range page {
			got = append(got, p.ID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	require.Equal(t, []string{created[4], created[3], created[2], created[1], created[0]}, got)
	all, _, err := f.svc.List(ctx, admin, "", 100)
	require.NoError(t, err)
	require.Len(t, all, 6)
	mine, _, err := f.svc.List(ctx, notary, "", 100)
	require.NoError(t, err)
	require.Len(t, mine, 6)
	_, _, err = f.svc.List(ctx, owner, "", 101)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
	_, _, err = f.svc.List(ctx, owner, "!!", 10)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
}

// A callbackUrl needs a Service that can check it (and so deliver to it); with one, a
// refused URL keeps its pointer and an accepted one reaches the events.
func TestCreateCallbackURL(t *testing.T) {
	f := newFixture(t, nil)
	p := veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"}
	req := validRequest()
	req.CallbackURL = "https://hooks.example/parcels"
	_, err := f.svc.Create(t.Context(), p, req)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
	require.Equal(t, []string{"/callbackUrl"}, pointersOf(err))

	f.svc.ValidateCallback = func(_ veriland.Environment, raw string) error {
		if raw != "https://hooks.example/parcels" {
			return veriland.Invalid("/callbackUrl", "refused")
		}
		return nil
	}
	bad := req
	bad.CallbackURL = "http://10.0.0.1/x"
	_, err = f.svc.Create(t.Context(), p, bad)
	require.Equal(t, []string{"/callbackUrl"}, pointersOf(err))

	par, err := f.svc.Create(t.Context(), p, req)
	require.NoError(t, err)
	_, err = f.svc.Certify(t.Context(), veriland.Principal{Subject: "NOT-ABJ-1", Role: veriland.RoleNotary, Env: veriland.Sandbox, Account: "acct_1"}, par.ID)
	require.NoError(t, err)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ev := range f.events {
		require.Equal(t, "agency-1", ev.CreatedBy)
		require.Equal(t, "https://hooks.example/parcels", ev.CallbackURL)
	}
}
