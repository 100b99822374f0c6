package liveness_test

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

func TestEnrollMockIsIdempotentPerHolder(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	key := deviceKey("phone")
	req := liveness.EnrollRequest{
		PublicKey: addr(key), Platform: liveness.PlatformIOS,
		AttestationType: deviceattest.Mock, AttestationToken: "mock-attestation-token",
	}
	dev, created, err := h.svc.Enroll(ctx, veriland.Sandbox, holderA, req)
	if err != nil || !created {
		t.Fatalf("first enrolment: created=%v err=%v", created, err)
	}
	if !ids.Valid(dev.ID, "dev") || dev.PublicKey != strings.ToLower(addr(key)) ||
		dev.Trust != deviceattest.TrustBasic || dev.Platform != liveness.PlatformIOS ||
		!dev.EnrolledAt.Equal(h.clock.Now()) {
		t.Fatalf("device = %+v", dev)
	}

	// Same key, same holder, any case and any token: the stored record, created=false.
	h.clock.Advance(time.Minute)
	req.PublicKey = "0x" + strings.ToUpper(addr(key)[2:])
	req.AttestationToken = "another-mock-token"
	again, created, err := h.svc.Enroll(ctx, veriland.Sandbox, holderA, req)
	if err != nil || created || again.ID != dev.ID || !again.EnrolledAt.Equal(dev.EnrolledAt) {
		t.Fatalf("repeat: created=%v err=%v dev=%+v", created, err, again)
	}
	if n := h.eventCount(liveness.ActionDeviceEnrolled); n != 1 {
		t.Fatalf("%d enrolment events, want 1", n)
	}

	// Another holder: 409 already_exists.
	_, _, err = h.svc.Enroll(ctx, veriland.Sandbox, holderB, req)
	if codeOf(err) != veriland.CodeAlreadyExists || pointerOf(err) != "/publicKey" {
		t.Fatalf("other holder: %v", err)
	}

	// The other environment is separate: the same key enrols afresh there (with a
	// verifier that PRODUCTION accepts).
	h.enrollStrong(t, veriland.Production, holderB, key)
}

func TestEnrollMockRefusedInProduction(t *testing.T) {
	h := newHarness(t)
	_, _, err := h.svc.Enroll(context.Background(), veriland.Production, holderA, liveness.EnrollRequest{
		PublicKey: addr(deviceKey("p")), Platform: liveness.PlatformAndroid,
		AttestationType: deviceattest.Mock, AttestationToken: "mock-attestation-token",
	})
	if codeOf(err) != veriland.CodeAttestationUnsupported || !errors.Is(err, deviceattest.ErrMockNotAllowed) {
		t.Fatalf("MOCK in PRODUCTION: %v", err)
	}
	assertNoDevice(t, h, veriland.Production)
}

func TestEnrollStrongBindsHolderAndKey(t *testing.T) {
	h := newHarness(t)
	key := deviceKey("strong")
	dev := h.enrollStrong(t, veriland.Sandbox, holderA, key)
	if dev.Trust != deviceattest.TrustStrong || dev.AttestationType != deviceattest.KeyAttestation {
		t.Fatalf("device = %+v", dev)
	}
	// A token made for another holder's challenge fails and stores nothing.
	other := deviceKey("other")
	ch := deviceattest.EnrollChallenge(holderB, addr(other))
	_, _, err := h.svc.Enroll(context.Background(), veriland.Sandbox, holderA, liveness.EnrollRequest{
		PublicKey: addr(other), Platform: liveness.PlatformAndroid,
		AttestationType: deviceattest.KeyAttestation, AttestationToken: hex.EncodeToString(ch[:]),
	})
	if codeOf(err) != veriland.CodeInvalidSignature {
		t.Fatalf("wrong challenge: %v", err)
	}
}

func TestEnrollValidation(t *testing.T) {
	h := newHarness(t)
	good := liveness.EnrollRequest{
		PublicKey: addr(deviceKey("v")), Platform: liveness.PlatformAndroid,
		AttestationType: deviceattest.Mock, AttestationToken: "mock-attestation-token",
	}
	cases := []struct {
		name    string
		edit    func(*liveness.EnrollRequest)
		code    veriland.Code
		pointer string
	}{
		{"short key", func(r *liveness.EnrollRequest) { r.PublicKey = r.PublicKey[:41] }, veriland.CodeValidationFailed, "/publicKey"},
		{"key without 0x", func(r *liveness.EnrollRequest) { r.PublicKey = "00" + r.PublicKey[2:] }, veriland.CodeValidationFailed, "/publicKey"},
		{"uncompressed public key", func(r *liveness.EnrollRequest) { r.PublicKey = "0x04" + strings.Repeat("ab", 64) }, veriland.CodeValidationFailed, "/publicKey"},
		{"platform", func(r *liveness.EnrollRequest) { r.Platform = "WINDOWS" }, veriland.CodeValidationFailed, "/platform"},
		{"type", func(r *liveness.EnrollRequest) { r.AttestationType = "SAFETYNET" }, veriland.CodeValidationFailed, "/attestationType"},
		{"app attest on android", func(r *liveness.EnrollRequest) { r.AttestationType = deviceattest.AppAttest }, veriland.CodeValidationFailed, "/platform"},
		{"no token", func(r *liveness.EnrollRequest) { r.AttestationToken = "" }, veriland.CodeValidationFailed, "/attestationToken"},
		{"short mock token", func(r *liveness.EnrollRequest) { r.AttestationToken = "short" }, veriland.CodeValidationFailed, ""},
		{"unconfigured type", func(r *liveness.EnrollRequest) { r.AttestationType = deviceattest.PlayIntegrity }, veriland.CodeAttestationUnsupported, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := good
			tc.edit(&req)
			_, _, err := h.svc.Enroll(context.Background(), veriland.Sandbox, holderA, req)
			if codeOf(err) != tc.code || pointerOf(err) != tc.pointer {
				t.Fatalf("err = %v (pointer %q), want %s at %q", err, pointerOf(err), tc.code, tc.pointer)
			}
		})
	}
	assertNoDevice(t, h, veriland.Sandbox)
}

func assertNoDevice(t *testing.T, h *harness, env veriland.Environment) {
	t.Helper()
	err := h.store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, "liveness_devices"), storage.Range{}, func(k, _ []byte) error {
			t.Errorf("unexpected device %s", k)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
