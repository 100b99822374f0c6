package liveness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

// MaxFrameTimestamps is the most frame timestamps a verification may carry.
const MaxFrameTimestamps = 10000

// Limits on the strings of a verification body.
const (
	maxSessionIDLen = 128
	maxSensorIDLen  = 256
)

// VerifyRequest is the body of POST /liveness/verify, exactly the source document's.
// It holds a signature, a Merkle root, timestamps and a handful of scores the device
// computed — never a frame, an image, a template or any raw biometric; unknown
// members, nested ones included, are refused by the server.
//
//	{
//	  "sessionId": "lvs_…",
//	  "devicePublicKey": "0x…",                       // the enrolled device key's address
//	  "attestation": {"type": "MOCK", "token": "…"},  // the type the device enrolled with
//	  "merkleRoot": "0x…",                            // 32 bytes
//	  "frameTimestamps": [1763770000000.25, …],       // unix ms, capture order, 1..10000
//	  "deviceSignature": "0x…",                       // 65 bytes over LivenessProof typed data
//	  "evidence": {
//	    "challenge": {"hueScore": 0.9, "latencyMs": 420},
//	    "sensor": {"parallaxScore": 0.9, "imuCorrelation": 0.8},
//	    "camera": {"physicalSensorId": "0", "virtualSourceSuspected": false},
//	    "timing": {"frameJitterMs": 12, "sessionDurationMs": 2900, "frameCount": 30}
//	  }
//	}
type VerifyRequest struct {
	// SessionID is the id StartSession returned (required).
	SessionID string `json:"sessionId"`
	// DevicePublicKey is the enrolled device key's 0x address, any case (required).
	DevicePublicKey string `json:"devicePublicKey"`
	// Attestation is the device's integrity attestation (required): its type must be
	// the one the device enrolled with, its token 8..16384 characters. The token is
	// not verified again (see the package documentation).
	Attestation *DeviceAttestation `json:"attestation"`
	// MerkleRoot is 0x + 32 bytes: the root over the frames (required; see the
	// package documentation).
	MerkleRoot string `json:"merkleRoot"`
	// FrameTimestamps are the capture times of the frames in unix milliseconds,
	// fractions allowed, in capture order: 1..MaxFrameTimestamps of them (required).
	FrameTimestamps Timestamps `json:"frameTimestamps"`
	// DeviceSignature is 0x + 65 bytes r ‖ s ‖ v (v 27/28 or 0/1, low s) over the
	// LivenessProof typed data (required).
	DeviceSignature string `json:"deviceSignature"`
	// Evidence is the device's presentation-attack-detection evidence (required).
	Evidence *Evidence `json:"evidence"`
}

// Evidence is what the device's on-board liveness model measured, in four groups.
// camera and timing are required; challenge and sensor and every score in them are
// optional, and a score the level's policy needs but the body lacks fails that
// policy check. Scores lie in 0..1 and durations are ≥ 0 ms, all finite; a value out
// of range is the reason evidence_out_of_range, not a 400.
type Evidence struct {
	Challenge *ChallengeEvidence `json:"challenge,omitempty"` // the scripted challenge
	Sensor    *SensorEvidence    `json:"sensor,omitempty"`    // 3-D and motion sensors
	Camera    *CameraEvidence    `json:"camera"`              // the capturing camera (required)
	Timing    *TimingEvidence    `json:"timing"`              // the capture's timing (required)
}

// ChallengeEvidence is how the holder met the session's script.
type ChallengeEvidence struct {
	// HueScore (0..1): how well the face's reflected hue followed the COLOR_FLASH
	// colours.
	HueScore *float64 `json:"hueScore,omitempty"`
	// LatencyMs (≥ 0): reaction time from a prompt to the matching movement.
	LatencyMs *float64 `json:"latencyMs,omitempty"`
}

// SensorEvidence is what the depth and motion sensors make of the capture.
type SensorEvidence struct {
	// ParallaxScore (0..1): how well the face's motion parallax matches a 3-D head.
	ParallaxScore *float64 `json:"parallaxScore,omitempty"`
	// IMUCorrelation (0..1): how well the phone's motion sensors agree with the
	// camera's motion, a normalised score like the others.
	IMUCorrelation *float64 `json:"imuCorrelation,omitempty"`
}

// CameraEvidence is what the device knows of the camera that captured the frames.
type CameraEvidence struct {
	// PhysicalSensorID names the physical camera sensor; empty or blank fails the
	// verification (physical_sensor_missing).
	PhysicalSensorID string `json:"physicalSensorId"`
	// VirtualSourceSuspected is required; true fails the verification
	// (virtual_camera).
	VirtualSourceSuspected *bool `json:"virtualSourceSuspected"`
}

// TimingEvidence is the capture's timing. FrameCount and SessionDurationMs are signed
// in the LivenessProof as uint256, so they must be whole numbers (30 or 30.0, not
// 30.5) from 0 to 2^53−1 (required; 400 otherwise); FrameJitterMs is a score like
// the others (optional).
type TimingEvidence struct {
	// FrameJitterMs (≥ 0): standard deviation of the inter-frame interval.
	FrameJitterMs *float64 `json:"frameJitterMs,omitempty"`
	// SessionDurationMs must be within 10% of the span of frameTimestamps.
	SessionDurationMs *float64 `json:"sessionDurationMs"`
	// FrameCount must equal len(frameTimestamps).
	FrameCount *float64 `json:"frameCount"`
}

// maxWhole is the largest whole number FrameCount and SessionDurationMs may carry:
// 2^53−1, the largest integer every JSON implementation (a JavaScript client's
// included) represents exactly.
const maxWhole = 1<<53 - 1

// whole returns x as a uint64 when it is a whole number in 0..maxWhole.
func whole(x *float64) (uint64, bool) {
	if x == nil || !(*x >= 0 && *x <= maxWhole) || *x != math.Trunc(*x) {
		return 0, false
	}
	return uint64(*x), true
}

// Scores are the evidence values the level policy judges, gathered from the
// evidence groups; LIVENESS attestation claims carry them as "scores". A nil member
// was not sent.
// Its fields are in key order, as Claims'.
type Scores struct {
	FrameJitterMs  *float64 `json:"frameJitterMs,omitempty"`  // evidence.timing.frameJitterMs
	HueScore       *float64 `json:"hueScore,omitempty"`       // evidence.challenge.hueScore
	IMUCorrelation *float64 `json:"imuCorrelation,omitempty"` // evidence.sensor.imuCorrelation
	LatencyMs      *float64 `json:"latencyMs,omitempty"`      // evidence.challenge.latencyMs
	ParallaxScore  *float64 `json:"parallaxScore,omitempty"`  // evidence.sensor.parallaxScore
}

// Scores gathers the scores of e (nil-safe).
func (e *Evidence) Scores() Scores {
	var s Scores
	if e == nil {
		return s
	}
	if c := e.Challenge; c != nil {
		s.HueScore, s.LatencyMs = c.HueScore, c.LatencyMs
	}
	if x := e.Sensor; x != nil {
		s.ParallaxScore, s.IMUCorrelation = x.ParallaxScore, x.IMUCorrelation
	}
	if t := e.Timing; t != nil {
		s.FrameJitterMs = t.FrameJitterMs
	}
	return s
}

// signed returns the frame count and duration the LivenessProof signs, and whether
// both are present whole numbers.
func (r *VerifyRequest) signed() (frameCount, durationMs uint64, ok bool) {
	if r.Evidence == nil || r.Evidence.Timing == nil {
		return 0, 0, false
	}
	n, ok1 := whole(r.Evidence.Timing.FrameCount)
	d, ok2 := whole(r.Evidence.Timing.SessionDurationMs)
	return n, d, ok1 && ok2
}

// Validate checks the shape of r: members present, well-formed and of the right size.
// It returns validation_failed errors (400) with pointers. Everything that is
// well-formed but wrong (scores out of range included) is left to the verification,
// which reports it as a reason of liveness_rejected.
func (r *VerifyRequest) Validate() error {
	var errs veriland.Errors
	switch {
	case r.SessionID == "":
		errs = append(errs, veriland.Invalid("/sessionId", "sessionId is required"))
	case len(r.SessionID) > maxSessionIDLen || !utf8.ValidString(r.SessionID):
		errs = append(errs, veriland.Invalid("/sessionId", "sessionId must be at most %d characters", maxSessionIDLen))
	}
	if !isAddress(r.DevicePublicKey) {
		errs = append(errs, veriland.Invalid("/devicePublicKey", "devicePublicKey must be the device key's 0x address (40 hex digits)"))
	}
	errs = r.Attestation.validate("/attestation", errs)
	if !isHexBytes(r.MerkleRoot, 32) {
		errs = append(errs, veriland.Invalid("/merkleRoot", "merkleRoot must be 0x + 64 hex digits"))
	}
	switch n := len(r.FrameTimestamps); {
	case n == 0:
		errs = append(errs, veriland.Invalid("/frameTimestamps", "frameTimestamps must hold 1 to %d timestamps", MaxFrameTimestamps).
			WithMeta("min", 1).WithMeta("max", MaxFrameTimestamps))
	case n > MaxFrameTimestamps:
		errs = append(errs, veriland.Invalid("/frameTimestamps", "at most %d frame timestamps, got %d", MaxFrameTimestamps, n).
			WithMeta("min", 1).WithMeta("max", MaxFrameTimestamps))
	default:
		for i, ts := range r.FrameTimestamps {
			if !(ts >= 0) || math.IsInf(ts, 0) { // NaN too (a library caller's)
				errs = append(errs, veriland.Invalid(fmt.Sprintf("/frameTimestamps/%d", i), "timestamps are unix milliseconds, finite and never negative"))
				break
			}
		}
	}
	if !isHexBytes(r.DeviceSignature, 65) {
		errs = append(errs, veriland.Invalid("/deviceSignature", "deviceSignature must be 0x + 130 hex digits (65 bytes r ‖ s ‖ v)"))
	}
	ev := r.Evidence
	if ev == nil {
		return append(errs, veriland.Invalid("/evidence", "evidence {challenge, sensor, camera, timing} is required")).Err()
	}
	if cam := ev.Camera; cam == nil {
		errs = append(errs, veriland.Invalid("/evidence/camera", "evidence.camera {physicalSensorId, virtualSourceSuspected} is required"))
	} else {
		if len(cam.PhysicalSensorID) > maxSensorIDLen || !utf8.ValidString(cam.PhysicalSensorID) {
			errs = append(errs, veriland.Invalid("/evidence/camera/physicalSensorId", "physicalSensorId must be at most %d characters", maxSensorIDLen))
		}
		if cam.VirtualSourceSuspected == nil {
			errs = append(errs, veriland.Invalid("/evidence/camera/virtualSourceSuspected", "virtualSourceSuspected is required"))
		}
	}
	if tm := ev.Timing; tm == nil {
		errs = append(errs, veriland.Invalid("/evidence/timing", "evidence.timing {frameJitterMs, sessionDurationMs, frameCount} is required"))
	} else {
		for _, m := range []struct {
			name string
			v    *float64
		}{{"sessionDurationMs", tm.SessionDurationMs}, {"frameCount", tm.FrameCount}} {
			ptr := "/evidence/timing/" + m.name
			switch _, ok := whole(m.v); {
			case m.v == nil:
				errs = append(errs, veriland.Invalid(ptr, "%s is required", m.name))
			case !ok:
				errs = append(errs, veriland.Invalid(ptr, "%s must be a whole number from 0 to 2^53-1: the LivenessProof signs it as a uint256", m.name))
			}
		}
	}
	return errs.Err()
}

// isHexBytes reports whether s is "0x" followed by exactly 2n hex digits.
func isHexBytes(s string, n int) bool {
	return len(s) == 2+2*n && (s[:2] == "0x" || s[:2] == "0X") && isHex(s[2:])
}

// DecodeVerifyRequest decodes and validates a verification body the way the server
// does: one JSON object, unknown members refused (unknown_field), wrong types and bad
// shapes refused (invalid_json, validation_failed) with pointers.
func DecodeVerifyRequest(body []byte) (*VerifyRequest, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req VerifyRequest
	if err := dec.Decode(&req); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return nil, veriland.Invalid("/"+strings.ReplaceAll(typeErr.Field, ".", "/"), "wrong JSON type")
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return nil, veriland.Errorf(veriland.CodeUnknownField, "unknown member %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return nil, veriland.Errorf(veriland.CodeInvalidJSON, "the body is not a valid JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, veriland.Errorf(veriland.CodeInvalidJSON, "the body holds data after the JSON value")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return &req, nil
}

// VerifyResult is the answer to a passed verification.
type VerifyResult struct {
	Status      string                   `json:"status"`      // always "VERIFIED"
	Level       Level                    `json:"level"`       // the session's level
	Attestation *attestation.Attestation `json:"attestation"` // the LIVENESS attestation
}

// StatusVerified is VerifyResult.Status.
const StatusVerified = "VERIFIED"

// Claims are the claims of a LIVENESS attestation. They hold the level, the policy
// and device trust it was judged with, and the device's scores — never frames or
// biometric data. EvidenceHash of the attestation is the proof's Merkle root.
// Its fields are in key order, so that encoding/json writes them in RFC 8785 form
// and the attestation keeps those bytes without a transformation.
type Claims struct {
	AttestationType   deviceattest.Type  `json:"attestationType"`   // how the device was enrolled
	DeviceTrust       deviceattest.Trust `json:"deviceTrust"`       // BASIC or STRONG
	FrameCount        int64              `json:"frameCount"`        // evidence.timing.frameCount
	Level             Level              `json:"level"`             // the level passed
	PolicyVersion     string             `json:"policyVersion"`     // Policy.Version applied
	Scores            Scores             `json:"scores"`            // the scores sent (Evidence.Scores)
	SessionDurationMs int64              `json:"sessionDurationMs"` // evidence.timing.sessionDurationMs
}

// Verify checks a liveness proof for holder in env (POST /liveness/verify, holder) and,
// when every check passes, issues a LIVENESS attestation valid AttestationValidity.
//
// The session is consumed by its first verification by its holder, pass or fail, in
// the same transaction as the outcome, its attestation and OnEvent. Errors:
// validation_failed (400, with pointers) for a malformed body; liveness_rejected (422)
// with Meta["reasons"] ([]string of Reason) and Meta["details"] when any check fails.
// An unknown session is the reason session_not_found, not a 404.
func (s *Service) Verify(ctx context.Context, env veriland.Environment, holder string, req *VerifyRequest) (*VerifyResult, error) {
	if err := s.check(env, holder); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, veriland.Invalid("", "the body is required")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	lookup := ids.Valid(req.SessionID, SessionIDPrefix)
	deviceKey := normalAddress(req.DevicePublicKey)
	chainID := s.chainID()
	pol := s.policy()

	// Recover the signer outside the write transaction: it is the costly check, and
	// its only stored input, the session nonce, never changes.
	sigs := map[string]Reason{}
	if lookup {
		var nonce string
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			rec, err := repo(tx, env).session(req.SessionID)
			if rec != nil {
				nonce = rec.Nonce
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if nonce != "" {
			sigs[nonce] = signatureReason(req, nonce, chainID)
		}
	}

	var (
		out     verdict
		att     *attestation.Attestation
		devID   string
		claimsV Claims
	)
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		att, devID = nil, ""
		now := s.now()
		r := repo(tx, env)
		var rec *sessionRecord
		if lookup {
			var err error
			if rec, err = r.session(req.SessionID); err != nil {
				return err
			}
		}
		dev, err := r.deviceByKey(deviceKey)
		if err != nil {
			return err
		}
		in := &verifyInput{
			req: req, holder: holder, session: rec, device: dev, now: now,
			chainID: chainID, policy: pol, skew: s.ClockSkew,
		}
		if rec != nil {
			if reason, ok := sigs[rec.Nonce]; ok {
				in.signature = &reason
			}
		}
		out = evaluate(in)
		if dev != nil && dev.Holder == holder {
			devID = dev.ID
		}

		ev := Event{Env: env, Holder: holder, DeviceID: devID, SessionID: req.SessionID, At: now}
		if out.owned {
			ev.Level = rec.Level
			if rec.UsedAt == nil { // consume: pass or fail
				used := now
				rec.UsedAt = &used
				rec.Outcome = "REJECTED"
				if out.passed() {
					rec.Outcome = StatusVerified
				}
				if err := r.putSession(rec); err != nil {
					return err
				}
			}
		}
		if !out.passed() {
			ev.Action, ev.Reasons = ActionRejected, out.reasons
			return s.emit(ctx, tx, ev)
		}

		frames, duration, _ := req.signed() // whole numbers: Validate checked them
		claimsV = Claims{
			Level:             rec.Level,
			PolicyVersion:     pol.Version,
			DeviceTrust:       dev.Trust,
			AttestationType:   dev.AttestationType,
			FrameCount:        int64(frames),
			SessionDurationMs: int64(duration),
			Scores:            req.Evidence.Scores(),
		}
		root, _ := decodeHex32(req.MerkleRoot)
		att, err = s.Attestations.Issue(ctx, tx, env, attestation.Draft{
			Kind:         attestation.KindLiveness,
			Subject:      holder,
			Claims:       claimsV,
			EvidenceHash: root,
			ValidFor:     s.attestationValidity(),
		})
		if err != nil {
			return err
		}
		ev.Action, ev.AttestationID = ActionVerified, att.ID
		return s.emit(ctx, tx, ev)
	})
	if err != nil {
		return nil, err
	}
	if !out.passed() {
		s.logger().InfoContext(ctx, "liveness rejected", "env", env, "sessionId", req.SessionID, "reasons", out.reasons)
		return nil, out.err()
	}
	s.logger().InfoContext(ctx, "liveness verified", "env", env, "sessionId", req.SessionID,
		"level", claimsV.Level, "attestationId", att.ID)
	return &VerifyResult{Status: StatusVerified, Level: claimsV.Level, Attestation: att}, nil
}

// sessionWindow returns the instants between which frames may have been captured.
func sessionWindow(rec *sessionRecord, now time.Time, skew time.Duration) (from, to int64) {
	end := now
	if rec.ExpiresAt.Before(end) {
		end = rec.ExpiresAt
	}
	return rec.CreatedAt.Add(-skew).UnixMilli(), end.Add(skew).UnixMilli()
}
