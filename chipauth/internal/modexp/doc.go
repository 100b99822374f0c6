// Package modexp computes s^e mod N for RSA public-key operations: a public
// modulus N of 1024 to 8192 bits, a small public exponent e (65537 or 3 in
// practice, at most 2³¹-1) and a public s, the signature.
//
// # Why it exists
//
// Passive authentication of an RSA ePassport makes two RSA verifications per
// document, one with the Document Signer key, which is new for every
// document, and one with the CSCA key. crypto/rsa recomputes N's Montgomery
// constants on every call with constant-time doublings; filippo.io/bigmod
// (its public copy) does the same once per key, which a DS key still pays
// per document, and has assembly for 1024, 1536 and 2048 bits only; math/big
// exponentiates with squaring and division. This package:
//
//   - prepares a Modulus with one math/big division (R² mod N, a few µs);
//   - exponentiates left to right in the Montgomery domain, with a dedicated
//     squaring (each cross product x[i]·x[j] computed once and doubled), which
//     makes 16 of the 17 steps of e = 65537;
//   - finishes with a multiplication by s itself rather than by s·R, which
//     leaves the Montgomery domain without a separate reduction;
//   - runs its inner loop (z += x·y over a vector) in amd64 assembly, for any
//     number of limbs: where the CPU has BMI2 and ADX, with MULX and two
//     carry chains (ADCX, ADOX), and all the rows of a product, a squaring or
//     a reduction in one call; otherwise one call per row, with MULQ/ADCQ; and
//     in portable Go (math/bits) on other platforms or with the purego build
//     tag. Tests switch between the three on one machine.
//
// # Variable time: public data only
//
// Everything here runs in time that depends on the values: the modulus, the
// exponent and the base. That is fine for verification, where all three are
// public (a public key and a signature anyone can read off a passport), and
// wrong for anything secret: never use this package with a private key, a
// secret exponent or a secret base.
//
// # What is measured
//
// BenchmarkExp compares Exp with e = 65537 at 2048, 3072 and 4096 bits with
// each inner-loop kernel, math/big's Exp and (at 2048 bits) bigmod's
// ExpShortVarTime; BenchmarkNewModulus compares the preparation with bigmod's.
// The tests compare Exp with math/big on random and edge-case inputs for
// sizes from 1024 to 8192 bits, limb counts that are not multiples of the
// unrolling, several exponents and every kernel the CPU can run; FuzzExp does
// the same on fuzzed moduli, bases and exponents.
//
// On the 2-core AMD EPYC (BMI2, ADX) this was written on, e = 65537, in µs:
//
//	bits   adx    mulq  generic  math/big  bigmod
//	2048   17.3   32.8  35.7     37        21.1
//	3072   34.4   68.2  74.5     64        -
//	4096   61.7  120    128      107       -
//
// and NewModulus takes 2.5 µs at 2048 bits (bigmod.NewModulus: 9.9 µs), 4.2
// at 3072 and 6.4 at 4096. The MULQ and generic kernels are slower than
// math/big's own assembly (which uses ADX itself here); Accelerated tells
// callers which case they are in.
package modexp
