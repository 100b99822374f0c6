package modexp

// kernel names an implementation of the inner loop addMulVVW.
type kernel int

const (
	kernelGeneric kernel = iota // math/bits, every platform
	kernelMULQ                  // amd64 MULQ/ADCQ
	kernelADX                   // amd64 MULX/ADCX/ADOX (BMI2 and ADX)
)

// String returns the kernel's name, as benchmarks and tests print it.
func (k kernel) String() string {
	switch k {
	case kernelMULQ:
		return "mulq"
	case kernelADX:
		return "adx"
	}
	return "generic"
}

// active is the kernel addMulVVW runs. It is set once at init to the fastest
// the CPU supports; tests and benchmarks switch it (never concurrently with
// other use) to cover every path.
var active = fastestKernel()

// Accelerated reports whether Exp runs its MULX/ADCX/ADOX assembly: on amd64
// CPUs with BMI2 and ADX, without the purego build tag. Elsewhere Exp is
// exact but runs in portable Go or with MULQ, which is slower than math/big's
// and filippo.io/bigmod's own assembly; callers may prefer those there.
func Accelerated() bool { return fastestKernel() == kernelADX }
