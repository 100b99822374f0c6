// Package eccurve holds the elliptic curves ICAO Doc 9303 part 12 allows that Go
// can verify on, with the domain parameters explicit-parameter keys are matched
// against. It is shared by chipauth (parsing keys) and chipauth/sandbox (writing them).
package eccurve
