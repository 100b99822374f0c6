// Package siwe is wallet login by Sign-In with Ethereum (EIP-4361, SPEC S2.3): it
// hands out single-use nonces and verifies signed sign-in messages.
//
// Parse reads a message strictly by the EIP's ABNF, itself, with no dependency on a
// SIWE library. Service.Verify then checks what makes a message good for this server
// and now: its domain and URI are on the configured public origin (scheme, host and
// port), its chain id is the configured one, it is not issued in the future or
// expired, the signature (EIP-191 personal_sign over the exact text; 65 bytes, v 0/1 or
// 27/28, high s refused, by internal/ethsig) recovers to its address, and its nonce —
// issued by NewNonce, valid 5 minutes, good for a login into either environment (the
// login names it) — is consumed in one transaction, so that a message logs in once,
// into one environment.
//
// What it trusts: the configured origin and chain id, never the message's word for
// them. What it stores: nonces and their expiry, in global buckets shared by both
// environments (a nonce is not an environment's record); nothing about the signer. What it does not do: mint the session token, or map the address to an
// identity — the caller does both, with identity.Service.ByWallet, falling back to
// identity.PKHDID.
//
// Errors are *veriland.Error: validation_failed for malformed input (pointer /message or
// /signature), unauthenticated for a well-formed sign-in that is refused, with a named
// reason (ErrExpired, ErrUnknownNonce, …) as its cause.
package siwe
