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
			good := *fx.req
			fx.req.Camera = &liveness.Camera{VirtualSourceSuspected: b(true), PhysicalSensorID: "x"}
			if _, err := fx.verify(); liveness.Reasons(err) == nil {
				t.Fatalf("first verify: %v", err)
			}
			fx.req = &good
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
			fx.req.AttestationType = deviceattest.KeyAttestation
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonAttestationTypeMismatch}},
		{"signature by another key", func(t *testing.T, fx *fixture) error {
			sign(fx.req, fx.sess.Nonce, deviceKey("thief"), chainID)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureMismatch}},
		{"high-s signature", func(t *testing.T, fx *fixture) error {
			fx.req.Signature = highSTwin(fx.req.Signature)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSignatureHighS}},
		{"signature with v = 5", func(t *testing.T, fx *fixture) error {
			fx.req.Signature = fx.req.Signature[:130] + "05"
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
			fx.req.Timing.FrameCount++
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonFrameCountMismatch}},
		{"span more than 10% under sessionDurationMs", func(t *testing.T, fx *fixture) error {
			span := fx.req.Timing.SessionDurationMs
			fx.req.Timing.SessionDurationMs = span * 12 / 10 // span is 1/1.2 of it
			fx.resign()
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonDurationMismatch}},
		{"span more than 10% over sessionDurationMs", func(t *testing.T, fx *fixture) error {
			span := fx.req.Timing.SessionDurationMs
			fx.req.Timing.SessionDurationMs = span * 8 / 10
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
			fx.req.Camera.VirtualSourceSuspected = b(true)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonVirtualCamera}},
		{"empty sensor id", func(t *testing.T, fx *fixture) error {
			fx.req.Camera.PhysicalSensorID = " "
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonSensorMissing}},
		{"score above 1", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.ParallaxScore = f(1.5)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange}},
		{"negative score", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.HueScore = f(-0.1)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonHueTooLow}},
		{"negative duration", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.FrameJitterMs = f(-1)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange}},
		{"imu correlation below -1", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.IMUCorrelation = f(-2)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonIMUTooLow}},
		{"NaN score (library call)", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.ParallaxScore = f(math.NaN())
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonParallaxTooLow}},
		{"infinite latency (library call)", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.LatencyMs = f(math.Inf(1))
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonEvidenceOutOfRange, liveness.ReasonLatencyTooHigh}},
		{"L2 parallax too low", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.ParallaxScore = f(0.64)
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonParallaxTooLow}},
		{"L2 without hue score", func(t *testing.T, fx *fixture) error {
			fx.req.Evidence.HueScore = nil
			_, err := fx.verify()
			return err
		}, []liveness.Reason{liveness.ReasonHueTooLow}},
		{"L2 every threshold missed", func(t *testing.T, fx *fixture) error {
			*fx.req.Evidence = liveness.Evidence{
				ParallaxScore: f(0.1), HueScore: f(0.1), LatencyMs: f(1501), IMUCorrelation: f(0.1), FrameJitterMs: f(51),
			}
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
			fx.req.Signature = highSTwin(fx.req.Signature)
			fx.req.FrameTimestamps[1] = fx.req.FrameTimestamps[0]
			fx.req.Camera = &liveness.Camera{VirtualSourceSuspected: b(true)}
			fx.req.Evidence.ParallaxScore = f(2)
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
				req.Evidence = &liveness.Evidence{ParallaxScore: f(0.5), FrameJitterMs: f(80)}
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
				claims.Scores.ParallaxScore == nil || *claims.Scores.ParallaxScore != *req.Evidence.ParallaxScore {
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

func TestVerifyShape(t *testing.T) {
	fx := newFixture(t, liveness.L2)
	cases := []struct {
		name    string
		edit    func(r *liveness.VerifyRequest)
		pointer string
	}{
		{"10001 timestamps", func(r *liveness.VerifyRequest) { r.FrameTimestamps = make([]int64, 10001) }, "/frameTimestamps"},
		{"no timestamps", func(r *liveness.VerifyRequest) { r.FrameTimestamps = nil }, "/frameTimestamps"},
		{"negative timestamp", func(r *liveness.VerifyRequest) { r.FrameTimestamps[3] = -1 }, "/frameTimestamps/3"},
		{"no session id", func(r *liveness.VerifyRequest) { r.SessionID = "" }, "/sessionId"},
		{"device key not an address", func(r *liveness.VerifyRequest) { r.DevicePublicKey = "0x1234" }, "/devicePublicKey"},
		{"unknown attestation type", func(r *liveness.VerifyRequest) { r.AttestationType = "" }, "/attestationType"},
		{"64-byte signature", func(r *liveness.VerifyRequest) { r.Signature = r.Signature[:130] }, "/signature"},
		{"signature not hex", func(r *liveness.VerifyRequest) { r.Signature = "0x" + strings.Repeat("zz", 65) }, "/signature"},
		{"short merkle root", func(r *liveness.VerifyRequest) { r.MerkleRoot = "0x00" }, "/merkleRoot"},
		{"no timing", func(r *liveness.VerifyRequest) { r.Timing = nil }, "/timing"},
		{"negative frameCount", func(r *liveness.VerifyRequest) { r.Timing.FrameCount = -1 }, "/timing/frameCount"},
		{"negative duration", func(r *liveness.VerifyRequest) { r.Timing.SessionDurationMs = -1 }, "/timing/sessionDurationMs"},
		{"no evidence", func(r *liveness.VerifyRequest) { r.Evidence = nil }, "/evidence"},
		{"no camera", func(r *liveness.VerifyRequest) { r.Camera = nil }, "/camera"},
		{"no virtualSourceSuspected", func(r *liveness.VerifyRequest) { r.Camera.VirtualSourceSuspected = nil }, "/camera/virtualSourceSuspected"},
		{"huge sensor id", func(r *liveness.VerifyRequest) { r.Camera.PhysicalSensorID = strings.Repeat("x", 257) }, "/camera/physicalSensorId"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := *fx.req
			req.FrameTimestamps = slices.Clone(fx.req.FrameTimestamps)
			timing, camera := *fx.req.Timing, *fx.req.Camera
			req.Timing, req.Camera = &timing, &camera
			tc.edit(&req)
			_, err := fx.h.svc.Verify(context.Background(), veriland.Sandbox, holderA, &req)
			if codeOf(err) != veriland.CodeValidationFailed || pointerOf(err) != tc.pointer {
				t.Fatalf("err = %v (pointer %q), want validation_failed at %s", err, pointerOf(err), tc.pointer)
			}
		})
	}
	// A shape error touches nothing: the session is still unused.
	if _, err := fx.verify(); err != nil {
		t.Fatalf("after shape errors: %v", err)
	}
	// 10000 timestamps is a valid shape.
	req := *fx.req
	req.FrameTimestamps = make([]int64, 10000)
	if err := req.Validate(); err != nil {
		t.Fatalf("10000 timestamps: %v", err)
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
		{`{"frameTimestamps": ["1"]}`, veriland.CodeValidationFailed},
		{`{"evidence": {"hueScore": NaN}}`, veriland.CodeInvalidJSON},
		{`{} {}`, veriland.CodeInvalidJSON},
		{`[]`, veriland.CodeInvalidJSON},
		{`{"timing": {"frameCount": 1.5}}`, veriland.CodeValidationFailed},
		{`{}`, veriland.CodeValidationFailed},
	} {
		if _, err := liveness.DecodeVerifyRequest([]byte(tc.body)); codeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.body, err, tc.code)
		}
	}
}
