package attestation_test

import (
	"context"
	"crypto/rand"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// legacySign is Issuer.Sign as it was before ids were time-ordered: the same
// attestation under a wholly random id (ids.New), signed over that id.
func legacySign(t *testing.T, iss *attestation.Issuer, d attestation.Draft) *attestation.Attestation {
	t.Helper()
	att, err := iss.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	if att.ID, err = ids.New(rand.Reader, attestation.IDPrefix); err != nil {
		t.Fatal(err)
	}
	m, err := att.Message()
	if err != nil {
		t.Fatal(err)
	}
	if att.Signature, err = ethsig.Sign(iss.Key, m.Digest(iss.ChainID)); err != nil {
		t.Fatal(err)
	}
	att.TypedData = m.TypedData(iss.ChainID)
	return att
}

// TestLegacyRandomIDs is the migration to time-ordered ids: a store written with
// random attestation ids, closed and reopened by this code, needs no rewrite. Old
// records are found by id, verify, list in issue order (the subject index orders by
// issuedAt, not by id) beside new ones issued in between, and revoke alike.
func TestLegacyRandomIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "veriland.db")
	env := veriland.Sandbox
	subject := livenessDraft().Subject
	draft := func(kind attestation.Kind) attestation.Draft {
		if kind == attestation.KindConsent {
			d := consentDraft()
			d.Subject = subject
			return d
		}
		return livenessDraft()
	}
	clock := &fakeClock{t: t0}
	// The writes, in issue order, a second apart: the old build's at even seconds,
	// the new build's in between.
	writes := []struct {
		legacy bool
		kind   attestation.Kind
	}{
		{true, attestation.KindLiveness}, {false, attestation.KindLiveness},
		{true, attestation.KindConsent}, {false, attestation.KindConsent},
		{true, attestation.KindLiveness}, {false, attestation.KindLiveness},
	}
	issued := make([]*attestation.Attestation, len(writes))

	open := func() *attestation.Service {
		st, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &attestation.Service{Store: st, Issuer: testIssuer(t, issuerKeyHex, clock), Now: clock.Now}
	}
	// The old build writes its records and stops.
	old := open()
	for i, w := range writes {
		if !w.legacy {
			continue
		}
		clock.t = t0.Add(time.Duration(i) * time.Second)
		att := legacySign(t, old.Issuer, draft(w.kind))
		if err := old.Store.Update(ctx, func(tx storage.Tx) error { return old.Put(ctx, tx, env, att) }); err != nil {
			t.Fatal(err)
		}
		issued[i] = att
	}
	if err := old.Store.(*bolt.Store).Close(); err != nil {
		t.Fatal(err)
	}

	// This build opens the same file and issues its own between them.
	s := open()
	t.Cleanup(func() { _ = s.Store.(*bolt.Store).Close() })
	for i, w := range writes {
		if w.legacy {
			continue
		}
		clock.t = t0.Add(time.Duration(i) * time.Second)
		issued[i] = issue(t, s, env, draft(w.kind))
	}
	clock.t = t0.Add(time.Hour)

	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{s.Issuer.Address()}, ChainID: 1, Now: clock.t}
	for i, want := range issued {
		got, err := s.Get(ctx, env, want.ID)
		if err != nil {
			t.Fatalf("write %d (%s): %v", i, want.ID, err)
		}
		if got.ID != want.ID || !got.IssuedAt.Equal(want.IssuedAt) || got.Kind != want.Kind {
			t.Errorf("write %d: got %s %s %s, want %s %s %s", i, got.ID, got.IssuedAt, got.Kind, want.ID, want.IssuedAt, want.Kind)
		}
		if err := attestation.Verify(roundTrip(t, got), opts); err != nil {
			t.Errorf("write %d (%s) does not verify: %v", i, want.ID, err)
		}
		if !ids.Valid(got.ID, attestation.IDPrefix) {
			t.Errorf("write %d: id %s is not valid", i, got.ID)
		}
	}
	// New ids follow issue order; the old ones had no order.
	if !(issued[1].ID < issued[3].ID && issued[3].ID < issued[5].ID) {
		t.Errorf("new ids are not in issue order: %s %s %s", issued[1].ID, issued[3].ID, issued[5].ID)
	}

	// Lists are newest first by issuedAt, old and new mixed, of every kind and of one.
	for _, tc := range []struct {
		kind attestation.Kind
		want []int // indexes into writes
	}{
		{"", []int{5, 4, 3, 2, 1, 0}},
		{attestation.KindLiveness, []int{5, 4, 1, 0}},
		{attestation.KindConsent, []int{3, 2}},
	} {
		list, err := s.ListBySubject(ctx, env, subject, tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, a := range list {
			got = append(got, a.ID)
		}
		for _, i := range tc.want {
			want = append(want, issued[i].ID)
		}
		if len(got) != len(want) {
			t.Fatalf("kind %q: listed %v, want %v", tc.kind, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("kind %q: listed %v, want %v", tc.kind, got, want)
			}
		}
	}

	// An old record revokes like a new one, and both statuses read.
	if _, err := s.Revoke(ctx, env, issued[0].ID, "test", admin); err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]attestation.Status{0: attestation.StatusRevoked, 1: attestation.StatusValid, 2: attestation.StatusValid} {
		view, _, err := s.StatusIn(ctx, []veriland.Environment{veriland.Production, env}, issued[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		if view.Status != want {
			t.Errorf("write %d: status %s, want %s", i, view.Status, want)
		}
	}
	revoked, err := s.Revocations(ctx, env, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := revoked.RevokedAt(issued[0].ID); !ok {
		t.Errorf("the revoked old record is not in the revocation list")
	}
}
