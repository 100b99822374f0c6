package liveness_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"regexp"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/liveness"
)

func TestStartSession(t *testing.T) {
	h := newHarness(t)
	nonceRE := regexp.MustCompile(`^0x[0-9a-f]{64}$`)
	for _, tc := range []struct {
		req   liveness.Level
		level liveness.Level
		steps int
	}{{"", liveness.L2, 3}, {liveness.L1, liveness.L1, 1}, {liveness.L2, liveness.L2, 3}, {liveness.L3, liveness.L3, 5}} {
		s := h.start(t, veriland.Sandbox, holderA, tc.req)
		if !ids.Valid(s.ID, "lvs") || !nonceRE.MatchString(s.Nonce) || s.Level != tc.level || len(s.Script) != tc.steps {
			t.Fatalf("session for %q = %+v", tc.req, s)
		}
		if !s.CreatedAt.Equal(h.clock.Now()) || s.ExpiresAt.Sub(s.CreatedAt) != 120*time.Second {
			t.Fatalf("times %v..%v", s.CreatedAt, s.ExpiresAt)
		}
		if tc.level == liveness.L1 && s.Script[0].Step != liveness.StepHoldStill {
			t.Fatalf("L1 script %+v", s.Script)
		}
	}
	_, err := h.svc.StartSession(context.Background(), veriland.Sandbox, holderA, liveness.SessionRequest{RequestedLevel: "L4"})
	if codeOf(err) != veriland.CodeValidationFailed || pointerOf(err) != "/requestedLevel" {
		t.Fatalf("L4: %v", err)
	}
}

func TestSessionLifetimeIsConfigurable(t *testing.T) {
	h := newHarness(t)
	h.svc.SessionLifetime = 30 * time.Second
	s := h.start(t, veriland.Sandbox, holderA, "")
	if s.ExpiresAt.Sub(s.CreatedAt) != 30*time.Second {
		t.Fatalf("lifetime %v", s.ExpiresAt.Sub(s.CreatedAt))
	}
}

func TestNewScript(t *testing.T) {
	rnd := rand.NewChaCha8([32]byte{9})
	seen := map[liveness.StepKind]int{}
	colorRE := regexp.MustCompile(`^#[0-9A-F]{6}$`)
	for range 2000 {
		script, err := liveness.NewScript(rnd, liveness.L3)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range script {
			seen[st.Step]++
			if i > 0 && script[i-1].Step == st.Step {
				t.Fatalf("repeated step in %+v", script)
			}
			if st.Step == liveness.StepHoldStill {
				t.Fatalf("HOLD_STILL in an L3 script")
			}
			if (st.Step == liveness.StepColorFlash) != (len(st.Colors) == liveness.FlashLength) {
				t.Fatalf("step %+v", st)
			}
			for j, c := range st.Colors {
				if !colorRE.MatchString(c) || j > 0 && st.Colors[j-1] == c {
					t.Fatalf("colours %v", st.Colors)
				}
			}
		}
	}
	// Uniform-ish: each of the five active steps appears about 2000·5/5 times.
	for _, k := range []liveness.StepKind{liveness.StepBlink, liveness.StepTurnHeadLeft, liveness.StepTurnHeadRight, liveness.StepSmile, liveness.StepColorFlash} {
		if n := seen[k]; n < 1700 || n > 2300 {
			t.Errorf("%s drawn %d times of 10000", k, n)
		}
	}
	// Randomness failures are reported, not hidden.
	if _, err := liveness.NewScript(bytes.NewReader(nil), liveness.L2); err == nil {
		t.Fatal("script from an empty reader")
	}
	if _, err := liveness.NewScript(rnd, "L9"); err == nil {
		t.Fatal("script for L9")
	}
}

func TestPruneSessions(t *testing.T) {
	h := newHarness(t)
	old := h.start(t, veriland.Sandbox, holderA, "")
	h.clock.Advance(time.Hour)
	fresh := h.start(t, veriland.Sandbox, holderA, "")
	n, err := h.svc.PruneSessions(context.Background(), veriland.Sandbox, h.clock.Now().Add(-time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	key := deviceKey("k")
	h.enrollMock(t, holderA, key)
	_, err = h.svc.Verify(context.Background(), veriland.Sandbox, holderA, proof(old, key, 40, "MOCK"))
	if got := liveness.Reasons(err); len(got) == 0 || got[0] != liveness.ReasonSessionNotFound {
		t.Fatalf("pruned session: %v", err)
	}
	h.clock.Advance(5 * time.Second)
	if _, err := h.svc.Verify(context.Background(), veriland.Sandbox, holderA, proof(fresh, key, 40, "MOCK")); err != nil {
		t.Fatalf("fresh session: %v", err)
	}
}
