package liveness

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// Reason names one failed check of a verification. A liveness_rejected error lists
// every failed check's Reason in Meta["reasons"], in the order below.
type Reason string

// Session checks.
const (
	ReasonSessionNotFound Reason = "session_not_found" // no such session in this environment
	ReasonSessionNotOwned Reason = "session_not_owned" // another holder's session (it is not consumed)
	ReasonSessionExpired  Reason = "session_expired"   // verified at or after expiresAt
	ReasonSessionUsed     Reason = "session_used"      // already verified once, pass or fail
)

// Device and signature checks.
const (
	ReasonDeviceNotEnrolled       Reason = "device_not_enrolled"              // key not enrolled by this holder in this environment
	ReasonAttestationTypeMismatch Reason = "device_attestation_type_mismatch" // enrolled with another attestation type
	ReasonSignatureHighS          Reason = "signature_high_s"                 // malleable twin (s in the upper half)
	ReasonSignatureInvalid        Reason = "signature_invalid"                // bad v, r or s; nothing recovers
	ReasonSignatureMismatch       Reason = "signature_mismatch"               // recovers to another address
)

// Capture checks.
const (
	ReasonTimestampsNotIncreasing Reason = "timestamps_not_increasing"  // frameTimestamps not strictly increasing
	ReasonFrameCountMismatch      Reason = "frame_count_mismatch"       // len(frameTimestamps) ≠ evidence.timing.frameCount
	ReasonDurationMismatch        Reason = "duration_mismatch"          // span off evidence.timing.sessionDurationMs by more than 10%
	ReasonTimestampsOutside       Reason = "timestamps_outside_session" // a frame before the session started or after now
	ReasonEvidenceOutOfRange      Reason = "evidence_out_of_range"      // a score outside its range, or not finite
	ReasonVirtualCamera           Reason = "virtual_camera"             // evidence.camera.virtualSourceSuspected
	ReasonSensorMissing           Reason = "physical_sensor_missing"    // empty evidence.camera.physicalSensorId
)

// Level policy checks (Policy).
const (
	ReasonParallaxTooLow    Reason = "parallax_too_low"
	ReasonHueTooLow         Reason = "hue_too_low"
	ReasonLatencyTooHigh    Reason = "latency_too_high"
	ReasonIMUTooLow         Reason = "imu_correlation_too_low"
	ReasonJitterTooHigh     Reason = "frame_jitter_too_high"
	ReasonTooFewFrames      Reason = "too_few_frames"
	ReasonDeviceTrustTooLow Reason = "device_trust_too_low"
	ReasonLevelNotInPolicy  Reason = "level_not_in_policy" // the policy has no row for the session's level
)

// Reasons returns the reasons of a liveness_rejected error, or nil for any other error.
func Reasons(err error) []Reason {
	var e *veriland.Error
	if !errors.As(err, &e) || e.Code != veriland.CodeLivenessRejected {
		return nil
	}
	list, _ := e.Meta["reasons"].([]string)
	out := make([]Reason, len(list))
	for i, r := range list {
		out[i] = Reason(r)
	}
	return out
}

// verifyInput is everything one verification is judged on. session and device are
// nil when not found. signature, when set, is the precomputed signatureReason for
// session's nonce ("" for a good signature).
type verifyInput struct {
	req       *VerifyRequest
	holder    string
	session   *sessionRecord
	device    *Device
	now       time.Time
	chainID   uint64
	policy    *Policy
	skew      time.Duration
	signature *Reason
}

// verdict is the outcome of evaluate.
type verdict struct {
	owned   bool // the session exists and is the holder's
	reasons []Reason
	details map[string]string
}

func (v *verdict) fail(r Reason, format string, args ...any) {
	v.reasons = append(v.reasons, r)
	if v.details == nil {
		v.details = map[string]string{}
	}
	msg := fmt.Sprintf(format, args...)
	if prev, ok := v.details[string(r)]; ok {
		msg = prev + "; " + msg
	}
	v.details[string(r)] = msg
}

func (v *verdict) passed() bool { return v.owned && len(v.reasons) == 0 }

// err returns the liveness_rejected error of a failed verdict.
func (v *verdict) err() error {
	list := make([]string, len(v.reasons))
	for i, r := range v.reasons {
		list[i] = string(r)
	}
	e := veriland.Errorf(veriland.CodeLivenessRejected, "liveness rejected: %s", strings.Join(list, ", "))
	e.Meta = map[string]any{"reasons": list, "details": v.details}
	return e
}

// evaluate runs every check of SPEC S4 in order and collects each failure. It is pure:
// it reads only in and never stores anything.
func evaluate(in *verifyInput) verdict {
	var v verdict
	req, rec := in.req, in.session

	// Session.
	switch {
	case rec == nil:
		v.fail(ReasonSessionNotFound, "no session %s", req.SessionID)
	case rec.Holder != in.holder:
		v.fail(ReasonSessionNotOwned, "the session belongs to another holder")
		rec = nil // judge nothing else against another holder's session
	default:
		v.owned = true
		if !in.now.Before(rec.ExpiresAt) {
			v.fail(ReasonSessionExpired, "the session expired at %s", rec.ExpiresAt.Format(time.RFC3339))
		}
		if rec.UsedAt != nil {
			v.fail(ReasonSessionUsed, "the session was already verified")
		}
	}

	// Device.
	dev := in.device
	switch {
	case dev == nil || dev.Holder != in.holder:
		v.fail(ReasonDeviceNotEnrolled, "devicePublicKey is not enrolled by this holder")
		dev = nil
	case req.Attestation == nil || dev.AttestationType != req.Attestation.Type:
		v.fail(ReasonAttestationTypeMismatch, "the device was enrolled with %s", dev.AttestationType)
	}

	// Signature over the LivenessProof, which needs the session's nonce.
	if rec != nil {
		var reason Reason
		if in.signature != nil {
			reason = *in.signature
		} else {
			reason = signatureReason(req, rec.Nonce, in.chainID)
		}
		if reason != "" {
			v.fail(reason, "the signature does not prove devicePublicKey signed this session's LivenessProof")
		}
	}

	// Capture.
	ts := req.FrameTimestamps
	lo, hi, notIncreasing := scanTimestamps(ts)
	if notIncreasing > 0 {
		v.fail(ReasonTimestampsNotIncreasing, "frameTimestamps[%d] is not after frameTimestamps[%d]", notIncreasing, notIncreasing-1)
	}
	frameCount, duration, _ := req.signed() // 0 when absent: Validate refuses that
	if uint64(len(ts)) != frameCount {
		v.fail(ReasonFrameCountMismatch, "%d timestamps but frameCount is %d", len(ts), frameCount)
	}
	if len(ts) > 0 {
		// |span − duration| ≤ duration/10. Both are exact float64s (timestamps are
		// finite, durations whole numbers below 2^53), and so is the comparison.
		span := ts[len(ts)-1] - ts[0]
		if math.Abs(span-float64(duration)) > float64(duration)/10 {
			v.fail(ReasonDurationMismatch, "the frames span %s ms but sessionDurationMs is %d", formatMs(span), duration)
		}
		if rec != nil {
			from, to := sessionWindow(rec, in.now, in.skew)
			if lo < float64(from) || hi > float64(to) {
				v.fail(ReasonTimestampsOutside, "frames must be captured between the session's start and now")
			}
		}
	}
	scores := req.Evidence.Scores()
	checkRange(&v, "sensor.parallaxScore", scores.ParallaxScore, 0, 1)
	checkRange(&v, "challenge.hueScore", scores.HueScore, 0, 1)
	checkRange(&v, "challenge.latencyMs", scores.LatencyMs, 0, math.MaxFloat64)
	checkRange(&v, "sensor.imuCorrelation", scores.IMUCorrelation, 0, 1)
	checkRange(&v, "timing.frameJitterMs", scores.FrameJitterMs, 0, math.MaxFloat64)
	var cam *CameraEvidence
	if req.Evidence != nil {
		cam = req.Evidence.Camera
	}
	if cam != nil {
		if cam.VirtualSourceSuspected == nil || *cam.VirtualSourceSuspected {
			v.fail(ReasonVirtualCamera, "the device suspects a virtual camera")
		}
		if strings.TrimSpace(cam.PhysicalSensorID) == "" {
			v.fail(ReasonSensorMissing, "physicalSensorId is empty")
		}
	} else {
		v.fail(ReasonVirtualCamera, "no camera report")
		v.fail(ReasonSensorMissing, "no camera report")
	}

	// Level policy, for the session's level.
	if rec != nil {
		applyPolicy(&v, in.policy, rec.Level, &scores, len(ts), dev)
	}
	return v
}

func applyPolicy(v *verdict, p *Policy, level Level, ev *Scores, frames int, dev *Device) {
	th, ok := p.Levels[level]
	if !ok {
		v.fail(ReasonLevelNotInPolicy, "policy %s has no thresholds for %s", p.Version, level)
		return
	}
	// Comparisons are written so that a missing or NaN value fails.
	if th.MinParallaxScore > 0 && !atLeast(ev.ParallaxScore, th.MinParallaxScore) {
		v.fail(ReasonParallaxTooLow, "%s needs parallaxScore ≥ %g", level, th.MinParallaxScore)
	}
	if th.MinHueScore > 0 && !atLeast(ev.HueScore, th.MinHueScore) {
		v.fail(ReasonHueTooLow, "%s needs hueScore ≥ %g", level, th.MinHueScore)
	}
	if th.MaxLatencyMs > 0 && !atMost(ev.LatencyMs, th.MaxLatencyMs) {
		v.fail(ReasonLatencyTooHigh, "%s needs latencyMs ≤ %g", level, th.MaxLatencyMs)
	}
	if th.MinIMUCorrelation > 0 && !atLeast(ev.IMUCorrelation, th.MinIMUCorrelation) {
		v.fail(ReasonIMUTooLow, "%s needs imuCorrelation ≥ %g", level, th.MinIMUCorrelation)
	}
	if th.MaxFrameJitterMs > 0 && !atMost(ev.FrameJitterMs, th.MaxFrameJitterMs) {
		v.fail(ReasonJitterTooHigh, "%s needs frameJitterMs ≤ %g", level, th.MaxFrameJitterMs)
	}
	if frames < th.MinFrames {
		v.fail(ReasonTooFewFrames, "%s needs at least %d frames, got %d", level, th.MinFrames, frames)
	}
	if th.RequireStrongDevice && dev != nil && dev.Trust != deviceattest.TrustStrong {
		v.fail(ReasonDeviceTrustTooLow, "%s needs a device enrolled with STRONG trust", level)
	}
}

func atLeast(x *float64, min float64) bool { return x != nil && *x >= min }
func atMost(x *float64, max float64) bool  { return x != nil && *x <= max }

// checkRange fails evidence_out_of_range for a present value outside [lo, hi] or not
// finite.
func checkRange(v *verdict, name string, x *float64, lo, hi float64) {
	if x == nil {
		return
	}
	if math.IsNaN(*x) || math.IsInf(*x, 0) || *x < lo || *x > hi {
		v.fail(ReasonEvidenceOutOfRange, "evidence.%s must be a finite number in %g..%g", name, lo, hi)
	}
}

// signatureReason checks req.DeviceSignature over the session's LivenessProof and
// returns "" when it recovers to req.DevicePublicKey, else the reason it fails.
func signatureReason(req *VerifyRequest, nonceHex string, chainID uint64) Reason {
	nonce, ok := decodeHex32(nonceHex)
	root, ok2 := decodeHex32(req.MerkleRoot)
	frames, duration, ok3 := req.signed()
	if !ok || !ok2 || !ok3 || !isHexBytes(req.DeviceSignature, 65) {
		return ReasonSignatureInvalid
	}
	sig, err := hex.DecodeString(req.DeviceSignature[2:])
	if err != nil {
		return ReasonSignatureInvalid
	}
	proof := LivenessProof{
		SessionID:         req.SessionID,
		Nonce:             nonce,
		MerkleRoot:        root,
		FrameCount:        frames,
		SessionDurationMs: duration,
	}
	got, err := ethsig.Recover(proof.Digest(chainID), sig)
	switch {
	case errors.Is(err, ethsig.ErrHighS):
		return ReasonSignatureHighS
	case err != nil:
		return ReasonSignatureInvalid
	case got != addressOf(req.DevicePublicKey):
		return ReasonSignatureMismatch
	}
	return ""
}

// decodeHex32 decodes "0x" + 64 hex digits.
func decodeHex32(s string) ([32]byte, bool) {
	var out [32]byte
	if !isHexBytes(s, 32) {
		return out, false
	}
	if _, err := hex.Decode(out[:], []byte(s[2:])); err != nil {
		return out, false
	}
	return out, true
}

// formatMs writes a span of milliseconds without a needless fraction.
func formatMs(ms float64) string { return strconv.FormatFloat(ms, 'f', -1, 64) }

// scanTimestamps returns, in one pass, the smallest and largest timestamp and the
// first index i > 0 with ts[i] ≤ ts[i-1] (0 when strictly increasing).
func scanTimestamps(ts []float64) (lo, hi float64, notIncreasing int) {
	if len(ts) == 0 {
		return 0, 0, 0
	}
	lo, hi = ts[0], ts[0]
	prev := ts[0]
	for i, t := range ts[1:] {
		if t <= prev && notIncreasing == 0 {
			notIncreasing = i + 1
		}
		lo, hi, prev = min(lo, t), max(hi, t), t
	}
	return lo, hi, notIncreasing
}
