//go:build !purego

package modexp

import "golang.org/x/sys/cpu"

// hasADX reports whether the CPU has MULX (BMI2) and ADCX/ADOX (ADX).
var hasADX = cpu.X86.HasBMI2 && cpu.X86.HasADX

// fastestKernel is the ADX kernel when the CPU has it, MULQ otherwise.
func fastestKernel() kernel {
	if hasADX {
		return kernelADX
	}
	return kernelMULQ
}

// kernels lists the kernels this CPU can run, the generic one first (TestRows
// takes it as the reference).
func kernels() []kernel {
	if hasADX {
		return []kernel{kernelGeneric, kernelMULQ, kernelADX}
	}
	return []kernel{kernelGeneric, kernelMULQ}
}

// addMulVVW sets z += x·y and returns the carry word; len(x) ≥ len(z).
func addMulVVW(z, x []uint64, y uint64) uint64 {
	x = x[:len(z)]
	switch active {
	case kernelADX:
		return addMulVVWADX(z, x, y)
	case kernelMULQ:
		return addMulVVWMULQ(z, x, y)
	}
	return addMulVVWGeneric(z, x, y)
}

// addMulVVWADX is addMulVVW with MULX and two carry chains (ADCX, ADOX),
// unrolled by 8. It requires BMI2 and ADX.
//
//go:noescape
func addMulVVWADX(z, x []uint64, y uint64) (c uint64)

// addMulVVWMULQ is addMulVVW with MULQ and ADCQ, unrolled by 4.
//
//go:noescape
func addMulVVWMULQ(z, x []uint64, y uint64) (c uint64)

// redcRows runs the rows of a Montgomery reduction of t (2·len(n) limbs) by
// n: each clears one low limb of t; it returns the carry bit out of the top.
func redcRows(t, n []uint64, m0inv uint64) uint64 {
	if active == kernelADX {
		return redcRowsADX(t[:2*len(n)], n, m0inv)
	}
	return redcRowsGeneric(t, n, m0inv)
}

// mulRows adds x·y to t, whose low len(x) limbs must be zero (the high ones
// are overwritten); len(y) == len(x), len(t) ≥ 2·len(x).
func mulRows(t, x, y []uint64) {
	if active == kernelADX && len(x) > 0 {
		mulRowsADX(t[:2*len(x)], x, y[:len(x)])
		return
	}
	mulRowsGeneric(t, x, y)
}

// sqrRows sets t, which must be zero, to the sum of the products x[i]·x[j]
// for i < j, each shifted by i+j limbs; len(t) ≥ 2·len(x).
func sqrRows(t, x []uint64) {
	if active == kernelADX && len(x) > 1 {
		sqrRowsADX(t[:2*len(x)], x)
		return
	}
	sqrRowsGeneric(t, x)
}

// redcRowsADX is redcRows in assembly, one call for all rows; len(n) ≥ 1.
//
//go:noescape
func redcRowsADX(t, n []uint64, m0inv uint64) (cc uint64)

// mulRowsADX is mulRows in assembly, one call for all rows; len(x) ≥ 1.
//
//go:noescape
func mulRowsADX(t, x, y []uint64)

// sqrRowsADX is sqrRows in assembly, one call for all rows; len(x) ≥ 2.
//
//go:noescape
func sqrRowsADX(t, x []uint64)

// addDoubleSquares sets t = 2t + Σ x[i]²·2^(128i); the result fits in
// len(t) = 2·len(x) limbs when t holds the off-diagonal half of x².
func addDoubleSquares(t, x []uint64) {
	if active == kernelADX {
		addDoubleSquaresADX(t[:2*len(x)], x)
		return
	}
	addDoubleSquaresGeneric(t, x)
}

// addDoubleSquaresADX is addDoubleSquares in assembly.
//
//go:noescape
func addDoubleSquaresADX(t, x []uint64)
