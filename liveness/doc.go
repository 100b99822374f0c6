// Package liveness proves that a live person held an enrolled phone during a short,
// scripted camera session, without the service ever receiving what the camera saw
// (SPEC S4).
//
// # Flow
//
//  1. Enrolment (Service.Enroll, POST /liveness/device/enroll): the phone sends the EVM
//     address of its secp256k1 signing key (publicKey), its platform and a device
//     attestation (deviceattest) over EnrollChallenge(holderDID, publicKey). The device
//     is stored with the trust its attestation earned (BASIC or STRONG).
//  2. Session (Service.StartSession, POST /liveness/session): a one-time nonce, a
//     level (L1, L2 or L3) and a random script of steps (HOLD_STILL; BLINK,
//     TURN_HEAD_LEFT, TURN_HEAD_RIGHT, SMILE, COLOR_FLASH with its colours), valid for
//     SessionLifetime (120 s).
//  3. Verification (Service.Verify, POST /liveness/verify): the phone runs its own
//     liveness model on the frames, keeps the frames, and sends only a signed summary —
//     a LivenessProof (EIP-712, domain "Identity Liveness" v1 with the configured
//     chainId) over the session id, the nonce, the Merkle root of the frames and the
//     capture's frame count and duration, plus the frame timestamps, the model's
//     scores and a camera report. Every check runs and every failure is reported as
//     a Reason in one liveness_rejected error; a pass issues a LIVENESS attestation
//     (SPEC S7, valid 365 days) whose evidenceHash is the Merkle root. The session is
//     consumed by its first verification either way.
//  4. Use: Service.ListAttestations lists a holder's current LIVENESS attestations;
//     Gate answers consent (requireLiveness) and chip binding whether a subject passed
//     at a given level within a given age.
//
// # Request bodies
//
// EnrollRequest, SessionRequest and VerifyRequest document their JSON members. The
// verification body is
//
//	{sessionId, devicePublicKey, attestationType, signature, merkleRoot,
//	 frameTimestamps: [unix ms…], timing: {frameCount, sessionDurationMs},
//	 evidence: {parallaxScore?, hueScore?, latencyMs?, imuCorrelation?, frameJitterMs?},
//	 camera: {virtualSourceSuspected, physicalSensorId}}
//
// Shape problems (missing members, bad hex, more than MaxFrameTimestamps timestamps)
// are validation_failed with JSON pointers; everything else is a Reason. An unknown
// session is the reason session_not_found rather than a 404, so that one answer lists
// every problem of a proof.
//
// # The Merkle root
//
// merkleRoot is the root of OpenZeppelin's standard Merkle tree (@openzeppelin/merkle-tree
// StandardMerkleTree: leaves double-hashed, keccak256(keccak256(abi.encode(values))),
// pairs sorted before hashing) over one leaf per captured frame, in capture order, of
// the ABI types (uint256 index, uint256 timestamp, bytes32 frameDigest), where
// frameDigest is the device's hash of the frame. It lets the device later prove to an
// auditor that a given frame was part of the session, while the service records only
// the root (as the attestation's evidenceHash) and never sees a frame.
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
