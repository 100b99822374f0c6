// Package liveness proves that a live person held an enrolled phone during a short,
// scripted camera session, without the service ever receiving what the camera saw
// (SPEC S4).
//
// # Flow
//
//  1. Enrolment (Service.Enroll, POST /liveness/device/enroll): the device sends its
//     platform, the EVM address of its secp256k1 signing key (publicKey) and a device
//     attestation {type, token} (deviceattest) over EnrollChallenge(holderDID,
//     publicKey). The device is stored with the trust its attestation earned (BASIC
//     or STRONG).
//  2. Session (Service.StartSession, POST /liveness/session): a one-time nonce, a
//     level (L1, L2 or L3; L2 when the request names none or has no body at all) and
//     a random script of steps (HOLD_STILL; BLINK, TURN_HEAD_LEFT, TURN_HEAD_RIGHT,
//     SMILE, COLOR_FLASH with its colours), valid for SessionLifetime (120 s).
//  3. Verification (Service.Verify, POST /liveness/verify): the phone runs its own
//     liveness model on the frames, keeps the frames, and sends only a signed summary —
//     a LivenessProof (EIP-712, domain "Identity Liveness" v1 with the configured
//     chainId) over the session id, the nonce, the Merkle root of the frames and the
//     capture's frame count and duration, plus the frame timestamps and the model's
//     evidence. Every check runs and every failure is reported as a Reason in one
//     liveness_rejected error; a pass issues a LIVENESS attestation (SPEC S7, valid 365
//     days) whose evidenceHash is the Merkle root. The session is consumed by its
//     first verification either way (a 400 does not consume it).
//  4. Use: Service.ListAttestations lists a holder's current LIVENESS attestations;
//     Gate answers consent (requireLiveness) and chip binding whether a subject passed
//     at a given level within a given age.
//
// # Request bodies
//
// EnrollRequest, SessionRequest and VerifyRequest are exactly the bodies of the
// source document (seed 001 §2); every member of it and no other is accepted, nested
// ones included. Enrolment:
//
//	{"platform": "ANDROID" | "IOS" | "WEB", "publicKey": "0x<40 hex>",
//	 "attestation": {"type": "PLAY_INTEGRITY" | "KEY_ATTESTATION" | "APP_ATTEST" | "MOCK",
//	                 "token": "<8 to 16384 characters>"}}
//
// The token bound holds for every type. The platform must be able to present the
// type (PlatformFits): ANDROID with KEY_ATTESTATION or PLAY_INTEGRITY, IOS with
// APP_ATTEST, and any platform with MOCK. A browser has no platform attestation among
// the four types, so a WEB device enrols with MOCK only — that is, in SANDBOX only:
// MOCK is refused in PRODUCTION (422 attestation_unsupported). A platform that cannot
// present the type is validation_failed at /platform.
//
// Session: {"requestedLevel": "L1" | "L2" | "L3"}, optional, as is the body itself.
//
// Verification:
//
//	{"sessionId": "lvs_…", "devicePublicKey": "0x<40 hex>",
//	 "attestation": {"type": …, "token": …},
//	 "merkleRoot": "0x<64 hex>",
//	 "frameTimestamps": [unix ms, fractions allowed, 1 to 10000 of them],
//	 "deviceSignature": "0x<130 hex>",
//	 "evidence": {"challenge": {"hueScore", "latencyMs"},
//	              "sensor": {"parallaxScore", "imuCorrelation"},
//	              "camera": {"physicalSensorId", "virtualSourceSuspected"},
//	              "timing": {"frameJitterMs", "sessionDurationMs", "frameCount"}}}
//
// Decisions where the source document is silent:
//
//   - frameTimestamps are JSON numbers: fractional milliseconds are valid. A member
//     that is not a number (null included) is validation_failed at its own pointer,
//     /frameTimestamps/3. Timestamps are decoded by a scanner of their own
//     (Timestamps), as fast as the integer one it replaced.
//   - evidence.timing.frameCount and sessionDurationMs are signed as uint256 in the
//     LivenessProof, so they must be whole numbers (36 or 36.0, not 36.5) from 0 to
//     2^53−1, and both are required: validation_failed otherwise. The frames' span,
//     fractional, must lie within 10% of sessionDurationMs.
//   - hueScore, parallaxScore and imuCorrelation are scores in 0..1 (imuCorrelation
//     too, not a −1..1 coefficient); latencyMs and frameJitterMs are ≥ 0. evidence.camera
//     and evidence.timing are required; challenge, sensor and the scores are optional,
//     and a score the level's Policy needs but the body lacks fails that check. A
//     value out of range is the reason evidence_out_of_range, not a 400.
//   - attestation.type must be the type the device enrolled with (the reason
//     device_attestation_type_mismatch otherwise); attestation.token must be 8 to
//     16384 characters, and is not verified again. The device's integrity was
//     verified once, at enrolment, against a challenge bound to the holder and the
//     key; each proof is then bound to that enrolled key by deviceSignature over the
//     session's nonce. A per-session platform verdict (a Play Integrity token over the
//     nonce, an App Attest assertion) is another protocol than the enrolment
//     attestation this member carries, and re-running the enrolment checks on every
//     proof would prove nothing new about the session.
//
// Shape problems (missing members, bad hex, bounds, wrong JSON types) are
// validation_failed with JSON pointers; everything else is a Reason. An unknown
// session is the reason session_not_found rather than a 404, so that one answer lists
// every problem of a proof.
//
// # The Merkle root
//
// merkleRoot is the root of OpenZeppelin's standard Merkle tree (@openzeppelin/merkle-tree
// StandardMerkleTree: leaves double-hashed, keccak256(keccak256(abi.encode(values))),
// pairs sorted before hashing) over one leaf per captured frame, in capture order, of
// the ABI types (uint256 index, uint256 timestampMicros, bytes32 frameDigest), where
// timestampMicros is the frame's timestamp in whole microseconds (round(t × 1000):
// timestamps may carry fractions of a millisecond, uint256 cannot) and frameDigest is
// the device's hash of the frame. It lets the device later prove to an auditor that a
// given frame was part of the session, while the service records only the root (as
// the attestation's evidenceHash) and never sees a frame.
//
// # What it trusts
//
//   - The device attestation verifiers and their pinned roots (deviceattest), once, at
//     enrolment; afterwards the enrolled device key, through the signature on each
//     LivenessProof.
//   - The device's own liveness model for the evidence scores and camera report. The
//     service cannot recompute them; it checks that they are in range, signed-for
//     (through the session nonce binding and the device key) and above the Policy's
//     thresholds for the level. Device trust STRONG (hardware-backed attestation) is
//     required for L3 by the default policy.
//   - Its own clock (Service.Now) for session expiry and the capture window.
//
// # What it never receives
//
// No images, no video, no face templates or embeddings, no raw biometrics, and no
// personal data: the request types have no member that could hold them and the server
// refuses unknown members. It stores the device (key address, platform, attestation
// type, trust) and the session (nonce, script, times, outcome); evidence values appear
// only in the attestation's claims, and events carry reason codes only.
//
// # Errors
//
// Every method returns *veriland.Error codes: validation_failed (400),
// already_exists (409, a key enrolled by another holder), invalid_signature and
// attestation_unsupported (422, enrolment), liveness_rejected (422, with
// Meta["reasons"] and Meta["details"]; see Reasons), liveness_required (422, Gate).
package liveness
