package liveness_test

import (
	"context"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

var _ consent.LivenessGate = (*liveness.Gate)(nil)

// pass runs a passing verification of holder at level and returns its attestation.
func (h *harness) pass(t *testing.T, holder string, level liveness.Level) *attestation.Attestation {
	t.Helper()
	key := deviceKey(holder + " phone")
	typ := deviceattest.KeyAttestation
	h.enrollStrong(t, veriland.Sandbox, holder, key) // a repeat returns the same device
	sess := h.start(t, veriland.Sandbox, holder, level)
	req := proof(sess, key, 60, typ)
	h.clock.Advance(3 * time.Second)
	res, err := h.svc.Verify(context.Background(), veriland.Sandbox, holder, req)
	if err != nil {
		t.Fatal(err)
	}
	return res.Attestation
}

func (h *harness) check(subject, minLevel string, maxAge time.Duration) error {
	return h.store.View(context.Background(), func(tx storage.Tx) error {
		return h.gate.Check(context.Background(), tx, veriland.Sandbox, subject, minLevel, maxAge)
	})
}

func TestGate(t *testing.T) {
	h := newHarness(t)
	if err := h.check(holderA, "L1", time.Hour); codeOf(err) != veriland.CodeLivenessRequired {
		t.Fatalf("no attestation: %v", err)
	}
	att := h.pass(t, holderA, liveness.L2)
	day := 24 * time.Hour

	for _, tc := range []struct {
		name     string
		minLevel string
		maxAge   time.Duration
		ok       bool
	}{
		{"same level", "L2", day, true},
		{"lower level asked", "L1", day, true},
		{"no level asked", "", day, true},
		{"higher level asked", "L3", day, false},
		{"any age", "L2", 0, true},
	} {
		err := h.check(holderA, tc.minLevel, tc.maxAge)
		if (err == nil) != tc.ok || err != nil && codeOf(err) != veriland.CodeLivenessRequired {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := h.check(holderB, "L1", day); codeOf(err) != veriland.CodeLivenessRequired {
		t.Errorf("another subject: %v", err)
	}
	if err := h.check(holderA, "L7", day); codeOf(err) != veriland.CodeValidationFailed {
		t.Errorf("unknown level: %v", err)
	}

	// Too old for 24 h, fine for 30 days.
	h.clock.Advance(25 * time.Hour)
	err := h.check(holderA, "L2", day)
	if codeOf(err) != veriland.CodeLivenessRequired {
		t.Fatalf("too old: %v", err)
	}
	if e := err.(*veriland.Error); e.Meta["minLevel"] != "L2" || e.Meta["maxAgeSeconds"] != int64(86400) {
		t.Fatalf("meta %v", e.Meta)
	}
	if err := h.check(holderA, "L2", 30*day); err != nil {
		t.Fatalf("30 days: %v", err)
	}

	// A fresh L3 satisfies L2 within 24 h again.
	h.pass(t, holderA, liveness.L3)
	if err := h.check(holderA, "L2", day); err != nil {
		t.Fatalf("fresh L3 for L2: %v", err)
	}

	// Revoked: not counted.
	h2 := newHarness(t)
	att = h2.pass(t, holderA, liveness.L2)
	h2.atts.update(t, h2.store, veriland.Sandbox, att.ID, func(a *attestation.Attestation) {
		now := h2.clock.Now()
		a.Status, a.RevokedAt = attestation.StatusRevoked, &now
	})
	if err := h2.check(holderA, "L1", day); codeOf(err) != veriland.CodeLivenessRequired {
		t.Fatalf("revoked: %v", err)
	}
}

func TestGateExpiredAttestation(t *testing.T) {
	h := newHarness(t)
	h.svc.AttestationValidity = time.Hour
	h.pass(t, holderA, liveness.L1)
	if err := h.check(holderA, "L1", 0); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Hour)
	if err := h.check(holderA, "L1", 0); codeOf(err) != veriland.CodeLivenessRequired {
		t.Fatalf("expired: %v", err)
	}
}

func TestListAttestations(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	first := h.pass(t, holderA, liveness.L1)
	h.clock.Advance(time.Minute)
	second := h.pass(t, holderA, liveness.L2)
	h.clock.Advance(time.Minute)
	third := h.pass(t, holderA, liveness.L3)
	h.pass(t, holderB, liveness.L2)
	h.atts.update(t, h.store, veriland.Sandbox, second.ID, func(a *attestation.Attestation) {
		a.Status = attestation.StatusRevoked
	})
	// A CONSENT attestation of the same subject is not listed.
	err := h.store.Update(ctx, func(tx storage.Tx) error {
		_, err := h.atts.Issue(ctx, tx, veriland.Sandbox, attestation.Draft{Kind: attestation.KindConsent, Subject: holderA, Verifier: "vrf"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	got, err := h.svc.ListAttestations(ctx, veriland.Sandbox, holderA)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != third.ID || got[1].ID != first.ID {
		t.Fatalf("listed %d: %v", len(got), attIDs(got))
	}
	if liveness.LevelOf(got[0]) != liveness.L3 {
		t.Fatalf("level of newest %q", liveness.LevelOf(got[0]))
	}

	h.clock.Advance(366 * 24 * time.Hour)
	got, err = h.svc.ListAttestations(ctx, veriland.Sandbox, holderA)
	if err != nil || len(got) != 0 {
		t.Fatalf("after expiry: %v %v", attIDs(got), err)
	}
	got, err = h.svc.ListAttestations(ctx, veriland.Production, holderA)
	if err != nil || len(got) != 0 {
		t.Fatalf("other environment: %v %v", attIDs(got), err)
	}
}

func attIDs(atts []*attestation.Attestation) []string {
	out := make([]string, len(atts))
	for i, a := range atts {
		out[i] = a.ID
	}
	return out
}
