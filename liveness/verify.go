package liveness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// VerifyRequest is the body of POST /liveness/verify. It holds a signature, a Merkle
// root, timestamps and a handful of scores the device computed — never a frame, an
// image, a template or any raw biometric; unknown members are refused by the server.
//
//	{
//	  "sessionId": "lvs_…",
//	  "devicePublicKey": "0x…",            // the enrolled device key's address
//	  "attestationType": "KEY_ATTESTATION", // the type the device was enrolled with
//	  "signature": "0x…",                   // 65 bytes over LivenessProof typed data
//	  "merkleRoot": "0x…",                  // 32 bytes
//	  "frameTimestamps": [1763770000000, …], // unix ms, capture order, 1..10000
//	  "timing": {"frameCount": 30, "sessionDurationMs": 2900},
//	  "evidence": {"parallaxScore": 0.9, "hueScore": 0.9, "latencyMs": 420,
//	               "imuCorrelation": 0.8, "frameJitterMs": 12},
//	  "camera": {"virtualSourceSuspected": false, "physicalSensorId": "0"}
//	}
type VerifyRequest struct {
	// SessionID is the id StartSession returned (required).
	SessionID string `json:"sessionId"`
	// DevicePublicKey is the enrolled device key's 0x address, any case (required).
	DevicePublicKey string `json:"devicePublicKey"`
	// AttestationType is the type the device was enrolled with (required).
	AttestationType deviceattest.Type `json:"attestationType"`
	// Signature is 0x + 65 bytes r ‖ s ‖ v (v 27/28 or 0/1, low s) over the
	// LivenessProof typed data (required).
	Signature string `json:"signature"`
	// MerkleRoot is 0x + 32 bytes: the root over the frames (required; see the
	// package documentation).
	MerkleRoot string `json:"merkleRoot"`
	// FrameTimestamps are the capture times of the frames in unix milliseconds, in
	// capture order: 1..MaxFrameTimestamps of them (required).
	FrameTimestamps Timestamps `json:"frameTimestamps"`
	// Timing is the signed frame count and duration (required).
	Timing *Timing `json:"timing"`
	// Evidence is the device's scores (required, members optional).
	Evidence *Evidence `json:"evidence"`
	// Camera is the device's camera report (required).
	Camera *Camera `json:"camera"`
}

// Timing is what the device measured of the capture; both members are signed in the
// LivenessProof.
type Timing struct {
	// FrameCount must equal len(frameTimestamps); ≥ 0.
	FrameCount int64 `json:"frameCount"`
	// SessionDurationMs must be within 10% of the span of frameTimestamps; ≥ 0.
	SessionDurationMs int64 `json:"sessionDurationMs"`
}

// Evidence holds the scores the device's on-board liveness model computed. Members
// are optional; a member the level's policy needs but the body lacks fails that
// policy check. Scores lie in 0..1, imuCorrelation in -1..1 (a correlation
// coefficient), durations are ≥ 0 ms; all are finite.
type Evidence struct {
	// ParallaxScore: how well the face's motion parallax matches a 3-D head.
	ParallaxScore *float64 `json:"parallaxScore,omitempty"`
	// HueScore: how well the face's reflected hue followed the COLOR_FLASH colours.
	HueScore *float64 `json:"hueScore,omitempty"`
	// LatencyMs: reaction time from a prompt to the matching movement.
	LatencyMs *float64 `json:"latencyMs,omitempty"`
	// IMUCorrelation: correlation of the phone's motion sensors with the camera motion.
	IMUCorrelation *float64 `json:"imuCorrelation,omitempty"`
	// FrameJitterMs: standard deviation of the inter-frame interval.
	FrameJitterMs *float64 `json:"frameJitterMs,omitempty"`
}

// Camera is what the device knows of the camera that captured the frames.
type Camera struct {
	// VirtualSourceSuspected is required; true fails the verification.
	VirtualSourceSuspected *bool `json:"virtualSourceSuspected"`
	// PhysicalSensorID names the physical camera sensor; empty fails the verification.
	PhysicalSensorID string `json:"physicalSensorId"`
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
	if !r.AttestationType.Valid() {
		errs = append(errs, veriland.Invalid("/attestationType", "attestationType must be KEY_ATTESTATION, APP_ATTEST, PLAY_INTEGRITY or MOCK"))
	}
	if !isHexBytes(r.Signature, 65) {
		errs = append(errs, veriland.Invalid("/signature", "signature must be 0x + 130 hex digits (65 bytes r ‖ s ‖ v)"))
	}
	if !isHexBytes(r.MerkleRoot, 32) {
		errs = append(errs, veriland.Invalid("/merkleRoot", "merkleRoot must be 0x + 64 hex digits"))
	}
	switch n := len(r.FrameTimestamps); {
	case n == 0:
		errs = append(errs, veriland.Invalid("/frameTimestamps", "frameTimestamps must not be empty"))
	case n > MaxFrameTimestamps:
		errs = append(errs, veriland.Invalid("/frameTimestamps", "at most %d frame timestamps, got %d", MaxFrameTimestamps, n).
			WithMeta("max", MaxFrameTimestamps))
	default:
		for i, ts := range r.FrameTimestamps {
			if ts < 0 {
				errs = append(errs, veriland.Invalid(fmt.Sprintf("/frameTimestamps/%d", i), "timestamps are unix milliseconds, never negative"))
				break
			}
		}
	}
	if r.Timing == nil {
		errs = append(errs, veriland.Invalid("/timing", "timing is required"))
	} else {
		if r.Timing.FrameCount < 0 {
			errs = append(errs, veriland.Invalid("/timing/frameCount", "frameCount must not be negative"))
		}
		if r.Timing.SessionDurationMs < 0 {
			errs = append(errs, veriland.Invalid("/timing/sessionDurationMs", "sessionDurationMs must not be negative"))
		}
	}
	if r.Evidence == nil {
		errs = append(errs, veriland.Invalid("/evidence", "evidence is required"))
	}
	if r.Camera == nil {
		errs = append(errs, veriland.Invalid("/camera", "camera is required"))
	} else {
		if r.Camera.VirtualSourceSuspected == nil {
			errs = append(errs, veriland.Invalid("/camera/virtualSourceSuspected", "virtualSourceSuspected is required"))
		}
		if len(r.Camera.PhysicalSensorID) > maxSensorIDLen || !utf8.ValidString(r.Camera.PhysicalSensorID) {
			errs = append(errs, veriland.Invalid("/camera/physicalSensorId", "physicalSensorId must be at most %d characters", maxSensorIDLen))
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
type Claims struct {
	Level             Level              `json:"level"`             // the level passed
	PolicyVersion     string             `json:"policyVersion"`     // Policy.Version applied
	DeviceTrust       deviceattest.Trust `json:"deviceTrust"`       // BASIC or STRONG
	AttestationType   deviceattest.Type  `json:"attestationType"`   // how the device was enrolled
	FrameCount        int64              `json:"frameCount"`        // timing.frameCount
	SessionDurationMs int64              `json:"sessionDurationMs"` // timing.sessionDurationMs
	Scores            Evidence           `json:"scores"`            // the evidence members sent
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

		claimsV = Claims{
			Level:             rec.Level,
			PolicyVersion:     pol.Version,
			DeviceTrust:       dev.Trust,
			AttestationType:   dev.AttestationType,
			FrameCount:        req.Timing.FrameCount,
			SessionDurationMs: req.Timing.SessionDurationMs,
			Scores:            *req.Evidence,
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
