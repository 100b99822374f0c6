package liveness_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
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
	req := mockEnrollment(key, liveness.PlatformIOS)
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
	req.Attestation = &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "another-mock-token"}
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
	for _, platform := range []liveness.Platform{liveness.PlatformAndroid, liveness.PlatformIOS, liveness.PlatformWeb} {
		_, _, err := h.svc.Enroll(context.Background(), veriland.Production, holderA, mockEnrollment(deviceKey("p"), platform))
		if codeOf(err) != veriland.CodeAttestationUnsupported || !errors.Is(err, deviceattest.ErrMockNotAllowed) {
			t.Fatalf("MOCK on %s in PRODUCTION: %v", platform, err)
		}
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
		Platform: liveness.PlatformAndroid, PublicKey: addr(other),
		Attestation: &liveness.DeviceAttestation{Type: deviceattest.KeyAttestation, Token: hex.EncodeToString(ch[:])},
	})
	if codeOf(err) != veriland.CodeInvalidSignature {
		t.Fatalf("wrong challenge: %v", err)
	}
}

func TestEnrollValidation(t *testing.T) {
	h := newHarness(t)
	key := deviceKey("v")
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
		{"lower-case platform", func(r *liveness.EnrollRequest) { r.Platform = "android" }, veriland.CodeValidationFailed, "/platform"},
		{"no attestation", func(r *liveness.EnrollRequest) { r.Attestation = nil }, veriland.CodeValidationFailed, "/attestation"},
		{"type", func(r *liveness.EnrollRequest) { r.Attestation.Type = "SAFETYNET" }, veriland.CodeValidationFailed, "/attestation/type"},
		{"app attest on android", func(r *liveness.EnrollRequest) { r.Attestation.Type = deviceattest.AppAttest }, veriland.CodeValidationFailed, "/platform"},
		{"key attestation on iOS", func(r *liveness.EnrollRequest) {
			r.Platform, r.Attestation.Type = liveness.PlatformIOS, deviceattest.KeyAttestation
		}, veriland.CodeValidationFailed, "/platform"},
		{"play integrity on the web", func(r *liveness.EnrollRequest) {
			r.Platform, r.Attestation.Type = liveness.PlatformWeb, deviceattest.PlayIntegrity
		}, veriland.CodeValidationFailed, "/platform"},
		{"app attest on the web", func(r *liveness.EnrollRequest) {
			r.Platform, r.Attestation.Type = liveness.PlatformWeb, deviceattest.AppAttest
		}, veriland.CodeValidationFailed, "/platform"},
		{"no token", func(r *liveness.EnrollRequest) { r.Attestation.Token = "" }, veriland.CodeValidationFailed, "/attestation/token"},
		{"7-character mock token", func(r *liveness.EnrollRequest) { r.Attestation.Token = "1234567" }, veriland.CodeValidationFailed, "/attestation/token"},
		{"7-character key attestation token", func(r *liveness.EnrollRequest) {
			r.Attestation = &liveness.DeviceAttestation{Type: deviceattest.KeyAttestation, Token: "1234567"}
		}, veriland.CodeValidationFailed, "/attestation/token"},
		{"16385-character play integrity token", func(r *liveness.EnrollRequest) {
			r.Attestation = &liveness.DeviceAttestation{Type: deviceattest.PlayIntegrity, Token: strings.Repeat("x", 16385)}
		}, veriland.CodeValidationFailed, "/attestation/token"},
		{"16385-character app attest token", func(r *liveness.EnrollRequest) {
			r.Platform, r.Attestation = liveness.PlatformIOS, &liveness.DeviceAttestation{Type: deviceattest.AppAttest, Token: strings.Repeat("é", 16385)}
		}, veriland.CodeValidationFailed, "/attestation/token"},
		{"token not UTF-8", func(r *liveness.EnrollRequest) { r.Attestation.Token = "mock-\xff-token" }, veriland.CodeValidationFailed, "/attestation/token"},
		{"unconfigured type", func(r *liveness.EnrollRequest) { r.Attestation.Type = deviceattest.PlayIntegrity }, veriland.CodeAttestationUnsupported, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := mockEnrollment(key, liveness.PlatformAndroid)
			tc.edit(&req)
			_, _, err := h.svc.Enroll(context.Background(), veriland.Sandbox, holderA, req)
			if codeOf(err) != tc.code || pointerOf(err) != tc.pointer {
				t.Fatalf("err = %v (pointer %q), want %s at %q", err, pointerOf(err), tc.code, tc.pointer)
			}
		})
	}
	assertNoDevice(t, h, veriland.Sandbox)
}

// TestEnrollPlatforms: every platform enrols with MOCK in SANDBOX, and the token
// bounds 8 and 16384 are accepted.
func TestEnrollPlatforms(t *testing.T) {
	h := newHarness(t)
	for i, tc := range []struct {
		platform liveness.Platform
		token    string
	}{
		{liveness.PlatformAndroid, "12345678"},
		{liveness.PlatformIOS, strings.Repeat("t", 16384)},
		{liveness.PlatformWeb, strings.Repeat("é", 16384)},
	} {
		req := mockEnrollment(deviceKey(fmt.Sprint("platform ", i)), tc.platform)
		req.Attestation.Token = tc.token
		dev, created, err := h.svc.Enroll(context.Background(), veriland.Sandbox, holderA, req)
		if err != nil || !created || dev.Platform != tc.platform || dev.AttestationType != deviceattest.Mock {
			t.Fatalf("%s: created=%v err=%v dev=%+v", tc.platform, created, err, dev)
		}
	}
	for _, c := range []struct {
		p    liveness.Platform
		t    deviceattest.Type
		fits bool
	}{
		{liveness.PlatformAndroid, deviceattest.KeyAttestation, true}, {liveness.PlatformAndroid, deviceattest.PlayIntegrity, true},
		{liveness.PlatformAndroid, deviceattest.AppAttest, false}, {liveness.PlatformIOS, deviceattest.AppAttest, true},
		{liveness.PlatformIOS, deviceattest.PlayIntegrity, false}, {liveness.PlatformWeb, deviceattest.Mock, true},
		{liveness.PlatformWeb, deviceattest.KeyAttestation, false}, {"", deviceattest.Mock, false},
	} {
		if got := liveness.PlatformFits(c.p, c.t); got != c.fits {
			t.Errorf("PlatformFits(%s, %s) = %v", c.p, c.t, got)
		}
	}
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
