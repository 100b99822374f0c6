package liveness_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// Simultaneous verifications of one session: exactly one passes, the others find the
// session used, and one attestation is issued.
func TestConcurrentVerifyConsumesOnce(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = fx.verify() })
	}
	wg.Wait()
	passed := 0
	for _, err := range errs {
		switch {
		case err == nil:
			passed++
		case !slices.Equal(liveness.Reasons(err), []liveness.Reason{liveness.ReasonSessionUsed}):
			t.Errorf("unexpected %v", err)
		}
	}
	atts, err := fx.h.svc.ListAttestations(context.Background(), veriland.Sandbox, holderA)
	if passed != 1 || err != nil || len(atts) != 1 {
		t.Fatalf("%d passed, %d attestations, %v", passed, len(atts), err)
	}
}

// Two holders enrolling one key at once: one gets it, the other a conflict.
func TestConcurrentEnrollOneKey(t *testing.T) {
	h := newHarness(t)
	key := addr(deviceKey("contested"))
	holders := []string{holderA, holderB, holderA, holderB, holderA, holderB}
	var wg sync.WaitGroup
	devs := make([]*liveness.Device, len(holders))
	errs := make([]error, len(holders))
	for i, holder := range holders {
		wg.Go(func() {
			devs[i], _, errs[i] = h.svc.Enroll(context.Background(), veriland.Sandbox, holder, liveness.EnrollRequest{
				Platform: liveness.PlatformAndroid, PublicKey: key,
				Attestation: &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "mock-attestation-token"},
			})
		})
	}
	wg.Wait()
	winner := ""
	for i, err := range errs {
		if err == nil {
			if winner == "" {
				winner = holders[i]
			}
			if holders[i] != winner {
				t.Fatalf("both holders enrolled the key")
			}
		} else if codeOf(err) != veriland.CodeAlreadyExists {
			t.Fatalf("unexpected %v", err)
		}
	}
	if winner == "" || h.eventCount(liveness.ActionDeviceEnrolled) != 1 {
		t.Fatalf("winner %q, %d events", winner, h.eventCount(liveness.ActionDeviceEnrolled))
	}
}
