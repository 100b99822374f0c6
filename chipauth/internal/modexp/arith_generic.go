//go:build !amd64 || purego

package modexp

// fastestKernel is the only kernel there is without assembly.
func fastestKernel() kernel { return kernelGeneric }

// kernels lists the kernels this build can run.
func kernels() []kernel { return []kernel{kernelGeneric} }

// addMulVVW sets z += x·y and returns the carry word; len(x) ≥ len(z).
func addMulVVW(z, x []uint64, y uint64) uint64 { return addMulVVWGeneric(z, x, y) }

// redcRows runs the rows of a Montgomery reduction of t (2·len(n) limbs) by
// n: each clears one low limb of t; it returns the carry bit out of the top.
func redcRows(t, n []uint64, m0inv uint64) uint64 { return redcRowsGeneric(t, n, m0inv) }

// mulRows adds x·y to t, whose low len(x) limbs must be zero (the high ones
// are overwritten); len(y) == len(x), len(t) ≥ 2·len(x).
func mulRows(t, x, y []uint64) { mulRowsGeneric(t, x, y) }

// sqrRows sets t, which must be zero, to the sum of the products x[i]·x[j]
// for i < j, each shifted by i+j limbs; len(t) ≥ 2·len(x).
func sqrRows(t, x []uint64) { sqrRowsGeneric(t, x) }

// addDoubleSquares sets t = 2t + Σ x[i]²·2^(128i); the result fits in
// len(t) = 2·len(x) limbs when t holds the off-diagonal half of x².
func addDoubleSquares(t, x []uint64) { addDoubleSquaresGeneric(t, x) }
