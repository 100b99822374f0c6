// Package ethsig holds the Ethereum signature rules that every veriland signature
// shares: consent decisions, liveness proofs, Sign-In with Ethereum, attestations and
// revocation lists (SPEC S5 "Signature rules everywhere").
//
// A signature is exactly 65 bytes r ‖ s ‖ v. v may be 27/28 (what wallets produce) or
// 0/1; anything else is refused. A signature whose s lies in the upper half of the curve
// order is refused too: go-ethereum's recovery alone accepts that malleable twin, so
// Recover checks crypto.ValidateSignatureValues with the homestead rule first.
//
// RecoverAs gives the same answers as Recover for a signature expected from a trusted
// address, faster once that address's key has been seen (precomputed tables,
// internal/secpcomb).
//
// Digests are EIP-712 (TypedDataDigest over a Domain separator and a struct hash built
// with the helpers in encode.go) or EIP-191 personal messages (PersonalDigest). The
// domain is always a value fixed by configuration, never one taken from a client.
//
// Every failure is a *veriland.Error with code invalid_signature whose Cause is one of
// the sentinels ErrSignatureLength, ErrBadV, ErrHighS or ErrRecover, so that callers can
// tell them apart with errors.Is.
package ethsig
