package attestation_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

func openStore(t *testing.T) storage.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func newService(t *testing.T, clock *fakeClock) *attestation.Service {
	t.Helper()
	return &attestation.Service{
		Store:  openStore(t),
		Issuer: testIssuer(t, issuerKeyHex, clock),
		Now:    clock.Now,
	}
}

func issue(t *testing.T, s *attestation.Service, env veriland.Environment, d attestation.Draft) *attestation.Attestation {
	t.Helper()
	var att *attestation.Attestation
	err := s.Store.Update(context.Background(), func(tx storage.Tx) error {
		var err error
		att, err = s.Issue(context.Background(), tx, env, d)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return att
}

var (
	holder = veriland.Principal{Subject: "did:veriland:7Xq9hZK3mB2nP4rT6vW8yA", Role: veriland.RoleHolder, Env: veriland.Sandbox}
	admin  = veriland.Principal{Subject: "ops", Role: veriland.RoleAdmin, Env: veriland.Sandbox}
)

func TestServiceIssueGetAndIsolation(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	att := issue(t, s, veriland.Sandbox, livenessDraft())
	if att.Anchor.Status != attestation.AnchorDisabled {
		t.Errorf("anchor = %+v, want DISABLED", att.Anchor)
	}
	got, err := s.Get(ctx, veriland.Sandbox, att.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(att)
	have, _ := json.Marshal(got)
	if string(want) != string(have) {
		t.Errorf("stored attestation differs:\n%s\n%s", want, have)
	}
	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{s.Issuer.Address()}, ChainID: 1, Now: t0}
	if err := attestation.Verify(got, opts); err != nil {
		t.Errorf("stored attestation does not verify: %v", err)
	}
	// The other environment never sees it.
	if _, err := s.Get(ctx, veriland.Production, att.ID); veriland.CodeOf(err) != veriland.CodeNotFound {
		t.Errorf("Get from PRODUCTION: %v", err)
	}
	if l, err := s.ListBySubject(ctx, veriland.Production, att.Subject, ""); err != nil || len(l) != 0 {
		t.Errorf("ListBySubject in PRODUCTION = %d, %v", len(l), err)
	}
	if _, err := s.Status(ctx, veriland.Production, att.ID); veriland.CodeOf(err) != veriland.CodeNotFound {
		t.Errorf("Status from PRODUCTION: %v", err)
	}
	if _, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "", veriland.Principal{Subject: holder.Subject, Role: veriland.RoleHolder, Env: veriland.Production}); veriland.CodeOf(err) != veriland.CodeNotFound {
		t.Errorf("Revoke by a PRODUCTION principal: %v", err)
	}
	for _, id := range []string{"att_unknown", ""} {
		if _, err := s.Get(ctx, veriland.Sandbox, id); veriland.CodeOf(err) != veriland.CodeNotFound {
			t.Errorf("Get(%q): %v", id, err)
		}
	}
	if _, err := s.Get(ctx, "TEST", att.ID); err == nil {
		t.Error("invalid environment accepted")
	}
}

func TestServiceIssueIsPartOfTheCallersTransaction(t *testing.T) {
	ctx := context.Background()
	s := newService(t, &fakeClock{t: t0})
	boom := errors.New("later step failed")
	var id string
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		att, err := s.Issue(ctx, tx, veriland.Sandbox, livenessDraft())
		if err != nil {
			return err
		}
		id = att.ID
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, veriland.Sandbox, id); veriland.CodeOf(err) != veriland.CodeNotFound {
		t.Fatalf("rolled-back attestation is visible: %v", err)
	}
	if l, _ := s.ListBySubject(ctx, veriland.Sandbox, livenessDraft().Subject, ""); len(l) != 0 {
		t.Fatalf("rolled-back attestation is listed")
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		_, err := s.Issue(ctx, tx, veriland.Sandbox, attestation.Draft{Kind: "X"})
		return err
	})
	if veriland.CodeOf(err) != veriland.CodeValidationFailed {
		t.Fatalf("bad draft: %v", err)
	}
}

func TestServiceRevoke(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	var hooked []string
	s.OnRevoke = func(_ context.Context, tx storage.Tx, _ veriland.Environment, att *attestation.Attestation) error {
		hooked = append(hooked, att.ID)
		return tx.Put(storage.Bucket(veriland.Sandbox, "audit_test"), []byte(att.ID), []byte("revoked"))
	}
	att := issue(t, s, veriland.Sandbox, livenessDraft())
	other := veriland.Principal{Subject: "did:veriland:someoneelse", Role: veriland.RoleHolder, Env: veriland.Sandbox}
	verifier := veriland.Principal{Subject: "verifier-acme-bank", Role: veriland.RoleVerifier, Env: veriland.Sandbox}
	for _, p := range []veriland.Principal{other, verifier, {}} {
		if _, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "", p); veriland.CodeOf(err) != veriland.CodeForbidden {
			t.Errorf("Revoke by %+v: %v", p, err)
		}
	}
	if _, err := s.Revoke(ctx, veriland.Sandbox, "att_nope", "", admin); veriland.CodeOf(err) != veriland.CodeNotFound {
		t.Errorf("unknown id: %v", err)
	}

	// A failing hook rolls the revocation back.
	s.OnRevoke = func(context.Context, storage.Tx, veriland.Environment, *attestation.Attestation) error {
		return errors.New("outbox down")
	}
	if _, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "", holder); err == nil {
		t.Fatal("revocation with a failing hook succeeded")
	}
	if st, _ := s.Status(ctx, veriland.Sandbox, att.ID); st.Status != attestation.StatusValid {
		t.Fatalf("status after a failed revocation = %s", st.Status)
	}
	s.OnRevoke = func(_ context.Context, tx storage.Tx, _ veriland.Environment, att *attestation.Attestation) error {
		hooked = append(hooked, att.ID)
		return nil
	}

	clock.Advance(90 * time.Second)
	rev, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "lost my phone", holder)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Status != attestation.StatusRevoked || rev.RevokedAt == nil || !rev.RevokedAt.Equal(t0.Add(90*time.Second)) {
		t.Fatalf("revoked = %s at %v", rev.Status, rev.RevokedAt)
	}
	clock.Advance(time.Hour)
	again, err := s.Revoke(ctx, veriland.Sandbox, att.ID, "", admin)
	if err != nil || !again.RevokedAt.Equal(*rev.RevokedAt) {
		t.Fatalf("second revocation = %v, %v", again.RevokedAt, err)
	}
	if len(hooked) != 1 {
		t.Fatalf("OnRevoke ran %d times", len(hooked))
	}
	st, err := s.Status(ctx, veriland.Sandbox, att.ID)
	if err != nil || st.Status != attestation.StatusRevoked || !st.RevokedAt.Equal(*rev.RevokedAt) {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if b, _ := json.Marshal(st); string(b) != `{"id":"`+att.ID+`","status":"REVOKED","revokedAt":"2026-11-21T12:01:30Z"}` {
		t.Fatalf("status JSON = %s", b)
	}
	got, _ := s.Get(ctx, veriland.Sandbox, att.ID)
	if b, _ := json.Marshal(got); strings.Contains(string(b), "lost my phone") {
		t.Fatal("the revocation reason leaks into the attestation")
	}
	// An admin can revoke anything.
	att2 := issue(t, s, veriland.Sandbox, consentDraft())
	if _, err := s.Revoke(ctx, veriland.Sandbox, att2.ID, "", admin); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revoke(ctx, veriland.Sandbox, att2.ID, string(make([]byte, 501)), admin); veriland.CodeOf(err) != veriland.CodeValidationFailed {
		t.Fatalf("long reason: %v", err)
	}
}

func TestServiceListBySubjectAndRevocations(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: t0}
	s := newService(t, clock)
	subject := livenessDraft().Subject
	var ids []string
	for i := range 4 {
		d := livenessDraft()
		if i%2 == 1 {
			d = consentDraft()
			d.Subject = subject
		}
		ids = append(ids, issue(t, s, veriland.Sandbox, d).ID)
		clock.Advance(time.Minute)
	}
	issue(t, s, veriland.Sandbox, consentDraft()) // another subject
	issue(t, s, veriland.Production, livenessDraft())

	all, err := s.ListBySubject(ctx, veriland.Sandbox, subject, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(all); !reflect.DeepEqual(got, []string{ids[3], ids[2], ids[1], ids[0]}) {
		t.Fatalf("all = %v, want newest first %v", got, ids)
	}
	live, _ := s.ListBySubject(ctx, veriland.Sandbox, subject, attestation.KindLiveness)
	if got := idsOf(live); !reflect.DeepEqual(got, []string{ids[2], ids[0]}) {
		t.Fatalf("liveness = %v", got)
	}
	if l, _ := s.ListBySubject(ctx, veriland.Sandbox, "did:veriland:nobody", ""); l == nil || len(l) != 0 {
		t.Fatalf("unknown subject = %v", l)
	}

	if _, err := s.Revoke(ctx, veriland.Sandbox, ids[0], "", admin); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if _, err := s.Revoke(ctx, veriland.Sandbox, ids[1], "", admin); err != nil {
		t.Fatal(err)
	}
	trusted := []common.Address{s.Issuer.Address()}
	l, err := s.Revocations(ctx, veriland.Sandbox, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := attestation.VerifyRevocationList(roundTripList(t, l), trusted, 1); err != nil {
		t.Fatalf("list does not verify: %v", err)
	}
	if len(l.Revocations) != 2 || l.Revocations[0].ID != ids[0] || l.Revocations[1].ID != ids[1] || l.Since != nil {
		t.Fatalf("revocations = %+v", l)
	}
	l, _ = s.Revocations(ctx, veriland.Sandbox, clock.Now().Add(-time.Minute))
	if len(l.Revocations) != 1 || l.Revocations[0].ID != ids[1] || l.Since == nil {
		t.Fatalf("since = %+v", l)
	}
	if l, _ := s.Revocations(ctx, veriland.Production, time.Time{}); len(l.Revocations) != 0 {
		t.Fatalf("PRODUCTION sees SANDBOX revocations: %+v", l.Revocations)
	}
	// An offline verifier with the list refuses the revoked attestation.
	att, _ := s.Get(ctx, veriland.Sandbox, ids[1])
	att.Status = attestation.StatusValid // pretend the verifier holds an old copy
	l, _ = s.Revocations(ctx, veriland.Sandbox, time.Time{})
	err = attestation.Verify(att, attestation.VerifyOptions{TrustedIssuers: trusted, Now: clock.Now(), Revocations: l})
	if !errors.Is(err, attestation.ErrRevoked) {
		t.Fatalf("Verify with the list: %v", err)
	}
}

func roundTripList(t *testing.T, l *attestation.RevocationList) *attestation.RevocationList {
	t.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var out attestation.RevocationList
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func idsOf(l []*attestation.Attestation) []string {
	out := []string{}
	for _, a := range l {
		out = append(out, a.ID)
	}
	return out
}
