package liveness_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

// fixture is holder A with an enrolled MOCK device, an L2 session and a passing proof
// of 40 frames, 5 s into the session.
type fixture struct {
	h    *harness
	key  deviceKeyT
	sess *liveness.Session
	req  *liveness.VerifyRequest
}

type deviceKeyT = *ecdsa.PrivateKey

func newFixture(t *testing.T, level liveness.Level) *fixture {
	h := newHarness(t)
	key := deviceKey("device-a")
	h.enrollMock(t, holderA, key)
	sess := h.start(t, veriland.Sandbox, holderA, level)
	req := proof(sess, key, 40, deviceattest.Mock)
	h.clock.Advance(5 * time.Second)
	return &fixture{h: h, key: key, sess: sess, req: req}
}

func (fx *fixture) verify() (*liveness.VerifyResult, error) {
	return fx.h.svc.Verify(context.Background(), veriland.Sandbox, holderA, fx.req)
}

// resign signs fx.req again after an edit of a signed member.
func (fx *fixture) resign() { sign(fx.req, fx.sess.Nonce, fx.key, chainID) }

func TestVerifyRejections(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, fx *fixture) error
		want []liveness.Reason
	}{
		{"expired session", func(t *testing.T, fx *fixture) error {
			fx.h.clock.Advance(116 * time.Second) // 121 s after the start
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionExpired}},
		{"expired exactly at expiresAt", func(t *testing.T, fx *fixture) error {
			fx.h.clock.Set(fx.sess.ExpiresAt)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionExpired}},
		{"reused session", func(t *testing.T, fx *fixture) error {
			if _, err := fx.verify(); err != nil {
				t.Fatalf("first verify: %v", err)
			}
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionUsed}},
		{"session reused after a failed verify", func(t *testing.T, fx *fixture) error {
			good := proof(fx.sess, fx.key, 40, deviceattest.Mock)
			fx.req.Evidence.Camera = &liveness.CameraEvidence{VirtualSourceSuspected: b(true), PhysicalSensorID: "x"}
			if _, err := fx.verify(); liveness.Reasons(err) == nil {
				t.Fatalf("first verify: %v", err)
			}
			fx.req = good
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionUsed}},
		{"unknown session", func(t *testing.T, fx *fixture) error {
			fx.req.SessionID = "lvs_" + strings.Repeat("a", 26)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionNotFound}},
		{"malformed session id", func(t *testing.T, fx *fixture) error {
			fx.req.SessionID = "not-a-session"
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionNotFound}},
		{"another holder's session", func(t *testing.T, fx *fixture) error {
			_, err := fx.h.svc.Verify(context.Background(), veriland.Sandbox, holderB, fx.req)
			return err
		}, []liveness.Reason{liveness.ReasonSessionNotOwned, liveness.ReasonDeviceNotEnrolled}},
		{"session of the other environment", func(t *testing.T, fx *fixture) error {
			_, err := fx.h.svc.Verify(context.Background(), veriland.Production, holderA, fx.req)
			return err
		}, []liveness.Reason{liveness.ReasonSessionNotFound, liveness.ReasonDeviceNotEnrolled}},
		{"unenrolled device", func(t *testing.T, fx *fixture) error {
			fx.key = deviceKey("never enrolled")
			fx.req.DevicePublicKey = addr(fx.key)
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonDeviceNotEnrolled}},
		{"device enrolled by another holder", func(t *testing.T, fx *fixture) error {
			fx.key = deviceKey("b's phone")
			fx.h.enrollMock(t, holderB, fx.key)
			fx.req.DevicePublicKey = addr(fx.key)
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonDeviceNotEnrolled}},
		{"another attestation type", func(t *testing.T, fx *fixture) error {
			fx.req.Attestation.Type = deviceattest.KeyAttestation
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonAttestationTypeMismatch}},
		{"signature by another key", func(t *testing.T, fx *fixture) error {
			sign(fx.req, fx.sess.Nonce, deviceKey("thief"), chainID)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureMismatch}},
		{"high-s signature", func(t *testing.T, fx *fixture) error {
			fx.req.DeviceSignature = highSTwin(fx.req.DeviceSignature)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureHighS}},
		{"signature with v = 5", func(t *testing.T, fx *fixture) error {
			fx.req.DeviceSignature = fx.req.DeviceSignature[:130] + "05"
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureInvalid}},
		{"signature under another chainId", func(t *testing.T, fx *fixture) error {
			sign(fx.req, fx.sess.Nonce, fx.key, 1)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureMismatch}},
		{"signature over another session's nonce", func(t *testing.T, fx *fixture) error {
			other := fx.h.start(t, veriland.Sandbox, holderA, "")
			sign(fx.req, other.Nonce, fx.key, chainID)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureMismatch}},
		{"merkle root changed after signing", func(t *testing.T, fx *fixture) error {
			fx.req.MerkleRoot = hexutil.Encode(make([]byte, 32))
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureMismatch}},
		{"timestamps not increasing", func(t *testing.T, fx *fixture) error {
			ts := fx.req.FrameTimestamps
			ts[10], ts[11] = ts[11], ts[10]
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTimestampsNotIncreasing}},
		{"repeated timestamp", func(t *testing.T, fx *fixture) error {
			fx.req.FrameTimestamps[5] = fx.req.FrameTimestamps[4]
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTimestampsNotIncreasing}},
		{"count differs from frameCount", func(t *testing.T, fx *fixture) error {
			*fx.req.Evidence.Timing.FrameCount++
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonFrameCountMismatch}},
		{"span more than 10% under sessionDurationMs", func(t *testing.T, fx *fixture) error {
			span := *fx.req.Evidence.Timing.SessionDurationMs
			fx.req.Evidence.Timing.SessionDurationMs = f(math.Round(span * 1.2)) // span is 1/1.2 of it
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonDurationMismatch}},
		{"span more than 10% over sessionDurationMs", func(t *testing.T, fx *fixture) error {
			span := *fx.req.Evidence.Timing.SessionDurationMs
			fx.req.Evidence.Timing.SessionDurationMs = f(math.Round(span * 0.8))
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonDurationMismatch}},
		{"frames before the session started", func(t *testing.T, fx *fixture) error {
			for i := range fx.req.FrameTimestamps {
				fx.req.FrameTimestamps[i] -= 10_000
			}
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTimestampsOutside}},
		{"frames after now", func(t *testing.T, fx *fixture) error {
			for i := range fx.req.FrameTimestamps {
				fx.req.FrameTimestamps[i] += 10_000
			}
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTimestampsOutside}},
		{"virtual camera", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Camera.VirtualSourceSuspected = b(true)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonVirtualCamera}},
		{"empty sensor id", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Camera.PhysicalSensorID = " "
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSensorMissing}},
		{"score above 1", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Sensor.ParallaxScore = f(1.5)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange}},
		{"negative score", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Challenge.HueScore = f(-0.1)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonHueTooLow}},
		{"negative duration", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Timing.FrameJitterMs = f(-1)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange}},
		{"imu correlation below 0", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Sensor.IMUCorrelation = f(-0.5) // a score, not a coefficient
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonIMUTooLow}},
		{"imu correlation above 1", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Sensor.IMUCorrelation = f(1.01)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange}},
		{"fractional timestamps out of order", func(t *testing.T, fx *fixture) error {
			fx.req.FrameTimestamps[7] = fx.req.FrameTimestamps[6] - 0.001
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTimestampsNotIncreasing}},
		{"NaN score (library call)", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Sensor.ParallaxScore = f(math.NaN())
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonParallaxTooLow}},
		{"infinite latency (library call)", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Challenge.LatencyMs = f(math.Inf(1))
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonLatencyTooHigh}},
		{"L2 parallax too low", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Sensor.ParallaxScore = f(0.64)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonParallaxTooLow}},
		{"L2 without hue score", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.Challenge.HueScore = nil
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonHueTooLow}},
		{"L2 every threshold missed", func(t *testing.T, fx *fixture) error {
			ev := fx.req.Evidence
			ev.Challenge = &liveness.ChallengeEvidence{HueScore: f(0.1), LatencyMs: f(1501)}
			ev.Sensor = &liveness.SensorEvidence{ParallaxScore: f(0.1), IMUCorrelation: f(0.1)}
			ev.Timing.FrameJitterMs = f(51)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonParallaxTooLow, liveness.ReasonHueTooLow, liveness.ReasonLatencyTooHigh,
			liveness.ReasonIMUTooLow, liveness.ReasonJitterTooHigh}},
		{"L2 with 29 frames", func(t *testing.T, fx *fixture) error {
			fx.req = proof(fx.sess, fx.key, 29, deviceattest.Mock)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonTooFewFrames}},
		{"every failure collected", func(t *testing.T, fx *fixture) error {
			fx.h.clock.Advance(200 * time.Second)
			fx.req.DeviceSignature = highSTwin(fx.req.DeviceSignature)
			fx.req.FrameTimestamps[1] = fx.req.FrameTimestamps[0]
			fx.req.Evidence.Camera = &liveness.CameraEvidence{VirtualSourceSuspected: b(true)}
			fx.req.Evidence.Sensor.ParallaxScore = f(2)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSessionExpired, liveness.ReasonSignatureHighS, liveness.ReasonTimestampsNotIncreasing,
			liveness.ReasonEvidenceOutOfRange, liveness.ReasonVirtualCamera, liveness.ReasonSensorMissing}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t, liveness.L2)
			err := tc.run(t, fx)
			var e *veriland.Error
			if !errors.As(err, &e) || e.Code != veriland.CodeLivenessRejected {
				t.Fatalf("err = %v, want liveness_rejected", err)
			}
			if got := liveness.Reasons(err); !slices.Equal(got, tc.want) {
				t.Fatalf("reasons = %v, want %v", got, tc.want)
			}
			if _, ok := e.Meta["reasons"].([]string); !ok {
				t.Fatalf("meta reasons %T", e.Meta["reasons"])
			}
			if ev := fx.h.lastEvent(); ev.Action != liveness.ActionRejected || !slices.Equal(ev.Reasons, tc.want) {
				t.Fatalf("last event %+v", ev)
			}
		})
	}
}

func TestVerifyPassesPerLevel(t *testing.T) {
	for _, tc := range []struct {
		level  liveness.Level
		frames int
		strong bool
	}{{liveness.L1, 10, false}, {liveness.L2, 30, false}, {liveness.L3, 60, true}} {
		t.Run(string(tc.level), func(t *testing.T) {
			h := newHarness(t)
			key := deviceKey("phone " + string(tc.level))
			typ := deviceattest.Mock
			var dev *liveness.Device
			if tc.strong {
				dev, typ = h.enrollStrong(t, veriland.Sandbox, holderA, key), deviceattest.KeyAttestation
			} else {
				dev = h.enrollMock(t, holderA, key)
			}
			sess := h.start(t, veriland.Sandbox, holderA, tc.level)
			req := proof(sess, key, tc.frames, typ)
			if tc.level == liveness.L1 { // L1 needs only parallax and jitter
				req.Evidence.Challenge = nil
				req.Evidence.Sensor = &liveness.SensorEvidence{ParallaxScore: f(0.5)}
				req.Evidence.Timing.FrameJitterMs = f(80)
			}
			h.clock.Advance(3 * time.Second)
			res, err := h.svc.Verify(context.Background(), veriland.Sandbox, holderA, req)
			if err != nil {
				t.Fatal(err)
			}
			att := res.Attestation
			if res.Status != "VERIFIED" || res.Level != tc.level || att.Kind != attestation.KindLiveness ||
				att.Subject != holderA || att.Verifier != "" || att.Status != attestation.StatusValid {
				t.Fatalf("result %+v", res)
			}
			if att.EvidenceHash != common.HexToHash(req.MerkleRoot) {
				t.Fatalf("evidenceHash %s, want the merkle root %s", att.EvidenceHash, req.MerkleRoot)
			}
			if att.ExpiresAt == nil || att.ExpiresAt.Sub(att.IssuedAt) != 365*24*time.Hour {
				t.Fatalf("validity %v..%v", att.IssuedAt, att.ExpiresAt)
			}
			var claims liveness.Claims
			if err := json.Unmarshal(att.Claims, &claims); err != nil {
				t.Fatal(err)
			}
			if claims.Level != tc.level || claims.PolicyVersion != liveness.DefaultPolicy().Version ||
				claims.DeviceTrust != dev.Trust || claims.FrameCount != int64(tc.frames) ||
				claims.SessionDurationMs != int64(*req.Evidence.Timing.SessionDurationMs) ||
				claims.Scores.ParallaxScore == nil || *claims.Scores.ParallaxScore != *req.Evidence.Sensor.ParallaxScore {
				t.Fatalf("claims %s", att.Claims)
			}
			// The attestation verifies offline against the issuer.
			if err := attestation.Verify(att, attestation.VerifyOptions{
				TrustedIssuers: []common.Address{h.atts.issuer.Address()}, ChainID: chainID, Now: h.clock.Now(),
			}); err != nil {
				t.Fatalf("attestation does not verify: %v", err)
			}
			if ev := h.lastEvent(); ev.Action != liveness.ActionVerified || ev.AttestationID != att.ID ||
				ev.DeviceID != dev.ID || ev.Level != tc.level || ev.SessionID != sess.ID {
				t.Fatalf("event %+v", ev)
			}
			// Consumed.
			_, err = h.svc.Verify(context.Background(), veriland.Sandbox, holderA, req)
			if got := liveness.Reasons(err); !slices.Equal(got, []liveness.Reason{liveness.ReasonSessionUsed}) {
				t.Fatalf("second verify: %v", err)
			}
		})
	}
}

func TestVerifyAnotherHoldersAttemptDoesNotConsume(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	_, err := fx.h.svc.Verify(context.Background(), veriland.Sandbox, holderB, fx.req)
	if liveness.Reasons(err) == nil {
		t.Fatalf("another holder: %v", err)
	}
	if _, err := fx.verify(); err != nil {
		t.Fatalf("owner's verify after another holder's attempt: %v", err)
	}
}

func TestVerifyL3NeedsStrongDevice(t *testing.T) {
	fx := newFixture(t, liveness.L3)
	fx.req = proof(fx.sess, fx.key, 60, deviceattest.Mock)
	_, err := fx.verify()
	if got := liveness.Reasons(err); !slices.Equal(got, []liveness.Reason{liveness.ReasonDeviceTrustTooLow}) {
		t.Fatalf("L3 with a BASIC device: %v", err)
	}
}

func TestVerifyPolicyIsReplaceable(t *testing.T) {
	fx := newFixture(t, liveness.L1)
	p := liveness.DefaultPolicy()
	p.Version = "strict-1"
	th := p.Levels[liveness.L1]
	th.MinFrames = 100
	p.Levels[liveness.L1] = th
	fx.h.svc.Policy = &p
	_, err := fx.verify()
	if got := liveness.Reasons(err); !slices.Equal(got, []liveness.Reason{liveness.ReasonTooFewFrames}) {
		t.Fatalf("strict policy: %v", err)
	}

	fx = newFixture(t, liveness.L1)
	fx.h.svc.Policy = &liveness.Policy{Version: "empty"}
	_, err = fx.verify()
	if got := liveness.Reasons(err); !slices.Equal(got, []liveness.Reason{liveness.ReasonLevelNotInPolicy}) {
		t.Fatalf("empty policy: %v", err)
	}
}

func TestVerifyClockSkew(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	for i := range fx.req.FrameTimestamps {
		fx.req.FrameTimestamps[i] -= 1000 // the phone's clock runs a second behind
	}
	fx.h.svc.ClockSkew = 2 * time.Second
	if _, err := fx.verify(); err != nil {
		t.Fatal(err)
	}
}

// cloneRequest deep-copies a verification body, so that a case may edit it.
func cloneRequest(t *testing.T, r *liveness.VerifyRequest) *liveness.VerifyRequest {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out liveness.VerifyRequest
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestVerifyShape(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	cases := []struct {
		name    string
		edit    func(r *liveness.VerifyRequest)
		pointer string
	}{
		{"10001 timestamps", func(r *liveness.VerifyRequest) { r.FrameTimestamps = make(liveness.Timestamps, 10001) }, "/frameTimestamps"},
		{"no timestamps", func(r *liveness.VerifyRequest) { r.FrameTimestamps = nil }, "/frameTimestamps"},
		{"negative timestamp", func(r *liveness.VerifyRequest) { r.FrameTimestamps[3] = -0.5 }, "/frameTimestamps/3"},
		{"NaN timestamp (library call)", func(r *liveness.VerifyRequest) { r.FrameTimestamps[2] = math.NaN() }, "/frameTimestamps/2"},
		{"infinite timestamp (library call)", func(r *liveness.VerifyRequest) { r.FrameTimestamps[4] = math.Inf(1) }, "/frameTimestamps/4"},
		{"no session id", func(r *liveness.VerifyRequest) { r.SessionID = "" }, "/sessionId"},
		{"device key not an address", func(r *liveness.VerifyRequest) { r.DevicePublicKey = "0x1234" }, "/devicePublicKey"},
		{"no attestation", func(r *liveness.VerifyRequest) { r.Attestation = nil }, "/attestation"},
		{"unknown attestation type", func(r *liveness.VerifyRequest) { r.Attestation.Type = "" }, "/attestation/type"},
		{"7-character token", func(r *liveness.VerifyRequest) { r.Attestation.Token = "1234567" }, "/attestation/token"},
		{"16385-character token", func(r *liveness.VerifyRequest) { r.Attestation.Token = strings.Repeat("t", 16385) }, "/attestation/token"},
		{"64-byte signature", func(r *liveness.VerifyRequest) { r.DeviceSignature = r.DeviceSignature[:130] }, "/deviceSignature"},
		{"signature not hex", func(r *liveness.VerifyRequest) { r.DeviceSignature = "0x" + strings.Repeat("zz", 65) }, "/deviceSignature"},
		{"short merkle root", func(r *liveness.VerifyRequest) { r.MerkleRoot = "0x00" }, "/merkleRoot"},
		{"no evidence", func(r *liveness.VerifyRequest) { r.Evidence = nil }, "/evidence"},
		{"no timing", func(r *liveness.VerifyRequest) { r.Evidence.Timing = nil }, "/evidence/timing"},
		{"no frameCount", func(r *liveness.VerifyRequest) { r.Evidence.Timing.FrameCount = nil }, "/evidence/timing/frameCount"},
		{"negative frameCount", func(r *liveness.VerifyRequest) { r.Evidence.Timing.FrameCount = f(-1) }, "/evidence/timing/frameCount"},
		{"fractional frameCount", func(r *liveness.VerifyRequest) { r.Evidence.Timing.FrameCount = f(40.5) }, "/evidence/timing/frameCount"},
		{"frameCount past 2^53", func(r *liveness.VerifyRequest) { r.Evidence.Timing.FrameCount = f(1 << 53) }, "/evidence/timing/frameCount"},
		{"no duration", func(r *liveness.VerifyRequest) { r.Evidence.Timing.SessionDurationMs = nil }, "/evidence/timing/sessionDurationMs"},
		{"negative duration", func(r *liveness.VerifyRequest) { r.Evidence.Timing.SessionDurationMs = f(-1) }, "/evidence/timing/sessionDurationMs"},
		{"fractional duration", func(r *liveness.VerifyRequest) { r.Evidence.Timing.SessionDurationMs = f(1296.75) }, "/evidence/timing/sessionDurationMs"},
		{"no camera", func(r *liveness.VerifyRequest) { r.Evidence.Camera = nil }, "/evidence/camera"},
		{"no virtualSourceSuspected", func(r *liveness.VerifyRequest) { r.Evidence.Camera.VirtualSourceSuspected = nil }, "/evidence/camera/virtualSourceSuspected"},
		{"huge sensor id", func(r *liveness.VerifyRequest) { r.Evidence.Camera.PhysicalSensorID = strings.Repeat("x", 257) }, "/evidence/camera/physicalSensorId"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := cloneRequest(t, fx.req)
			tc.edit(req)
			_, err := fx.h.svc.Verify(context.Background(), veriland.Sandbox, holderA, req)
			if codeOf(err) != veriland.CodeValidationFailed || pointerOf(err) != tc.pointer {
				t.Fatalf("err = %v (pointer %q), want validation_failed at %s", err, pointerOf(err), tc.pointer)
			}
		})
	}
	// A shape error touches nothing: the session is still unused.
	if _, err := fx.verify(); err != nil {
		t.Fatalf("after shape errors: %v", err)
	}
	// The edges that are valid shapes: 1 and 10000 timestamps, tokens of 8 and 16384
	// characters (multi-byte characters count once), a whole number written 40.0.
	for name, edit := range map[string]func(r *liveness.VerifyRequest){
		"1 timestamp":       func(r *liveness.VerifyRequest) { r.FrameTimestamps = r.FrameTimestamps[:1] },
		"10000 timestamps":  func(r *liveness.VerifyRequest) { r.FrameTimestamps = make(liveness.Timestamps, 10000) },
		"8-character token": func(r *liveness.VerifyRequest) { r.Attestation.Token = "12345678" },
		"16384 characters":  func(r *liveness.VerifyRequest) { r.Attestation.Token = strings.Repeat("é", 16384) },
		"whole float count": func(r *liveness.VerifyRequest) { r.Evidence.Timing.FrameCount = f(40.0) },
	} {
		req := cloneRequest(t, fx.req)
		edit(req)
		if err := req.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestVerifyHookFailureRollsBack(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	boom := errors.New("audit down")
	fx.h.svc.OnEvent = func(context.Context, storage.Tx, liveness.Event) error { return boom }
	if _, err := fx.verify(); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	fx.h.svc.OnEvent = nil
	if _, err := fx.verify(); err != nil {
		t.Fatalf("session should be unused after the rollback: %v", err)
	}
	atts, err := fx.h.svc.ListAttestations(context.Background(), veriland.Sandbox, holderA)
	if err != nil || len(atts) != 1 {
		t.Fatalf("%d attestations, %v", len(atts), err)
	}
}

func TestDecodeVerifyRequest(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	body, err := json.Marshal(fx.req)
	if err != nil {
		t.Fatal(err)
	}
	req, err := liveness.DecodeVerifyRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	fx.req = req
	if _, err := fx.verify(); err != nil {
		t.Fatalf("decoded body: %v", err)
	}
	for _, tc := range []struct {
		body string
		code veriland.Code
	}{
		{`{"sessionId": "lvs_x", "frameImage": "iVBORw0…"}`, veriland.CodeUnknownField},
		{`{"evidence": {"faceTemplate": [0.1, 0.2]}}`, veriland.CodeUnknownField},
		{`{"evidence": {"sensor": {"depthMap": [0.1, 0.2]}}}`, veriland.CodeUnknownField},
		{`{"attestationType": "MOCK", "attestationToken": "mock-token"}`, veriland.CodeUnknownField},
		{`{"signature": "0x00"}`, veriland.CodeUnknownField},
		{`{"frameTimestamps": ["1"]}`, veriland.CodeValidationFailed},
		{`{"evidence": {"challenge": {"hueScore": NaN}}}`, veriland.CodeInvalidJSON},
		{`{} {}`, veriland.CodeInvalidJSON},
		{`[]`, veriland.CodeInvalidJSON},
		{`{"evidence": {"timing": {"frameCount": 1.5}}}`, veriland.CodeValidationFailed},
		{`{}`, veriland.CodeValidationFailed},
	} {
		if _, err := liveness.DecodeVerifyRequest([]byte(tc.body)); codeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.body, err, tc.code)
		}
	}
}
