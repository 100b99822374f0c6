// Package secpcomb checks secp256k1 signatures against a known public key with
// precomputed comb tables: the fast path of ethsig.RecoverAs for the handful of
// trusted issuer keys a verifier sees again and again.
//
// A Key holds, for its point Q and for the generator G, the multiples j·2^(8i)·P
// (i < 32, j < 256) in affine form, so that u1·G + u2·Q is 64 mixed additions and no
// doubling. Key.Recovers reports whether recovering a signature would give exactly
// Q; false is not a verdict (the caller then recovers the slow way), so a mistake
// here can cost time but never accept a signature that recovery refuses.
//
// Arithmetic is variable-time: it only ever handles public data (signatures, public
// keys, digests).
package secpcomb
