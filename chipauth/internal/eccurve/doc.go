// Package eccurve holds the elliptic curves ICAO Doc 9303 part 12 allows that Go
// can verify on, with the domain parameters explicit-parameter keys are matched
// against. It is shared by chipauth (parsing keys) and chipauth/sandbox (writing them).
//
// Verify and VerifyASN1 check ECDSA signatures on the brainpool curves with
// fixed-size Montgomery arithmetic (field.go, field_mul.go), Jacobian
// coordinates with generic a (point.go) and an interleaved width-5 wNAF
// double-scalar multiplication; they agree with crypto/ecdsa's generic big.Int
// path on every input (verify_test.go, FuzzVerify) without its allocations.
package eccurve
