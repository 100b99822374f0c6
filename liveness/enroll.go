package liveness

import (
	"context"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

// Enroll verifies a device attestation and stores the device for holder in env
// (POST /liveness/device/enroll, holder). The attestation must carry
// deviceattest.EnrollChallenge(holder, publicKey).
//
// It returns created=true for a new device (201). The same key enrolled again by the
// same holder returns the stored record with created=false (200) without looking at
// the new token. Errors: validation_failed (400) for a malformed body or token (a
// token of other than 8..16384 characters, whatever its type; a platform that cannot
// present the attestation type, see PlatformFits),
// already_exists (409) when another holder of env enrolled the key,
// invalid_signature (422) for an attestation that fails its checks,
// attestation_unsupported (422) for MOCK outside SANDBOX or an unconfigured type,
// unavailable (503) when a decode endpoint is down.
func (s *Service) Enroll(ctx context.Context, env veriland.Environment, holder string, req EnrollRequest) (dev *Device, created bool, err error) {
	if err := s.check(env, holder); err != nil {
		return nil, false, err
	}
	if err := req.Validate(); err != nil {
		return nil, false, err
	}
	key := normalAddress(req.PublicKey)

	// Answer a repeat (or a conflict) before spending a verification on it.
	err = s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		dev, err = repo(tx, env).deviceByKey(key)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if dev != nil {
		return sameHolder(dev, holder)
	}

	// The verifier may call out (Play Integrity decode endpoint): never inside a
	// transaction.
	att := *req.Attestation
	res, err := s.Verifiers.Verify(ctx, env, att.Type, att.Token,
		deviceattest.EnrollChallenge(holder, key))
	if err != nil {
		return nil, false, err
	}
	if want := platformOf(att.Type); res.Platform != "" && want != "" &&
		Platform(strings.ToUpper(res.Platform)) != want {
		return nil, false, veriland.Errorf(veriland.CodeInvalidSignature, "the attestation comes from another platform").
			WithMeta("reason", "platform_mismatch")
	}
	trust := res.Trust
	if trust != deviceattest.TrustStrong {
		trust = deviceattest.TrustBasic
	}

	id, err := ids.New(s.rand(), DeviceIDPrefix)
	if err != nil {
		return nil, false, veriland.Errorf(veriland.CodeInternal, "cannot make a device id").WithCause(err)
	}
	now := s.now().Truncate(time.Millisecond)
	fresh := &Device{
		ID:              id,
		PublicKey:       key,
		Platform:        req.Platform,
		AttestationType: att.Type,
		Trust:           trust,
		EnrolledAt:      now,
		Holder:          holder,
		Env:             env,
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		existing, err := r.deviceByKey(key)
		if err != nil {
			return err
		}
		if existing != nil { // enrolled concurrently
			dev, created = existing, false
			return nil
		}
		if err := r.putDevice(fresh); err != nil {
			return err
		}
		dev, created = fresh, true
		return s.emit(ctx, tx, Event{
			Env: env, Action: ActionDeviceEnrolled, Holder: holder, DeviceID: id, At: now,
		})
	})
	if err != nil {
		return nil, false, err
	}
	if !created {
		return sameHolder(dev, holder)
	}
	s.logger().InfoContext(ctx, "liveness device enrolled", "env", env, "deviceId", id,
		"platform", req.Platform, "attestationType", att.Type, "trust", trust)
	return dev, true, nil
}

// sameHolder answers an enrolment of a key that is already stored.
func sameHolder(dev *Device, holder string) (*Device, bool, error) {
	if dev.Holder != holder {
		e := veriland.Errorf(veriland.CodeAlreadyExists, "this device key is enrolled by another holder")
		e.Pointer = "/publicKey"
		return nil, false, e.WithMeta("reason", "device_enrolled_by_another_holder")
	}
	return dev, false, nil
}
