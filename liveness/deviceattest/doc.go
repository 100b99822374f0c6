// Package deviceattest verifies the device attestations a holder presents when enrolling
// a phone for liveness (SPEC S4): Android hardware key attestation (KEY_ATTESTATION),
// Apple App Attest (APP_ATTEST), Google Play Integrity verdicts (PLAY_INTEGRITY), and a
// sandbox stand-in (MOCK).
//
// Each type has one Verifier, configured with its own roots and keys, and all return
// the same Result. Verifiers maps types to verifiers, in the manner of go-webauthn's
// attestation formats, and refuses MOCK outside SANDBOX whatever is registered for it.
//
// # The challenge
//
// Phones cannot attest a secp256k1 key in hardware, so every attestation carries
// EnrollChallenge(holderDID, publicKey) = SHA-256("veriland-enroll:" + holderDID + ":" +
// lowercase(publicKey)), which binds the device's EVM address and the holder to the
// attested hardware key. It goes into the Android attestationChallenge, the App Attest
// clientDataHash and the Play Integrity nonce (base64url).
//
// # What it trusts
//
//   - KEY_ATTESTATION: Google's hardware attestation roots (the RSA-4096 root and the
//     ECDSA P-384 Key Attestation CA1 root by default; configurable), pinned by
//     SubjectPublicKeyInfo. Each certificate is checked against the next with its key
//     directly, because real intermediates are not always marked as CAs. The leaf's key
//     description must carry the challenge, a TEE or StrongBox security level, and a
//     hardware-enforced root of trust with verified boot and a locked bootloader.
//     Certificates are checked against an injected clock and revocation status list.
//   - APP_ATTEST: Apple's App Attestation root (embedded, pinned by its SHA-256
//     fingerprint; configurable), and every server-side check Apple lists for an
//     attestation object: nonce, key id, app id, counter, AAGUID and credential id.
//   - PLAY_INTEGRITY: the Play Console's response keys (offline decryption and
//     verification) or a configured decode endpoint, then the verdict: challenge,
//     package, PLAY_RECOGNIZED, MEETS_DEVICE_INTEGRITY, and an age of at most ten
//     minutes by the injected clock.
//   - MOCK: nothing. It exists so that sandbox integrations can enrol without a phone.
//
// Trust is STRONG for hardware-backed results (KEY_ATTESTATION in TEE or StrongBox,
// APP_ATTEST, MEETS_STRONG_INTEGRITY) and BASIC otherwise.
//
// # What it never does
//
// It never sees or stores images, biometrics or personal data: tokens hold device keys
// and verdicts only, and Result carries only non-personal facts about the device's
// security state. It never fetches roots, revocation lists or keys on its own (the
// embedder injects and refreshes them); the only network access is an HTTPDecoder the
// embedder configures. It never panics on bad input and never returns an error text
// that holds secrets.
//
// # Errors
//
// Verifiers return *veriland.Error: validation_failed when a token cannot be parsed,
// invalid_signature when it parses but fails a check, attestation_unsupported for MOCK
// outside SANDBOX or an unconfigured type, and unavailable when a decode endpoint fails.
// Cause wraps one of the Err* sentinels, so errors.Is(err, ErrDeviceUnlocked) works, and
// Meta["reason"] holds the sentinel's reason string (see Reason). Lower-level functions
// (VerifyChain, ParseKeyDescription, CheckKeyDescription, CheckPayload) return the
// sentinel-wrapped errors directly. Errors carry no JSON pointer: the caller knows
// which request member held the token.
package deviceattest
