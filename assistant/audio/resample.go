package audio

import (
	"math"
	"sync"
)

// The resampling filter: a Kaiser-windowed sinc with 64 zero crossings on each
// side. With β = 8 the stopband is about 80 dB down and the transition band about
// 4% of the output Nyquist frequency wide, so at 16 kHz everything up to 7.3 kHz
// passes and everything above 7.9 kHz is removed before it can alias.
const (
	zeroCrossings = 64
	kaiserBeta    = 8.0
	// rolloff places the cutoff just below the lower Nyquist frequency, so that
	// the transition band ends before it.
	rolloff = 0.95
	// tableDensity is how many kernel values are tabulated per zero crossing;
	// linear interpolation between them keeps the error about 100 dB down.
	tableDensity = 512
)

// kernel is the tabulated windowed sinc, k(x) for x in [0, zeroCrossings] in
// steps of 1/tableDensity. It is computed once and never written again.
var kernel = sync.OnceValue(func() []float64 {
	n := zeroCrossings*tableDensity + 2
	t := make([]float64, n)
	i0beta := besselI0(kaiserBeta)
	for i := range t {
		x := float64(i) / tableDensity
		r := x / zeroCrossings
		if r > 1 {
			continue
		}
		sinc := 1.0
		if x != 0 {
			sinc = math.Sin(math.Pi*x) / (math.Pi * x)
		}
		t[i] = sinc * besselI0(kaiserBeta*math.Sqrt(1-r*r)) / i0beta
	}
	return t
})

// besselI0 is the modified Bessel function of the first kind, order 0, by its
// power series (which converges fast for the arguments of a Kaiser window).
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 64; k++ {
		term *= (x / 2 / float64(k)) * (x / 2 / float64(k))
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

// Resample converts p to rate samples per second with a band-limited
// (windowed-sinc) interpolator that works for any pair of rates, 8000→16000 as
// well as 44100→16000. When downsampling, the filter's cutoff sits just below the
// new Nyquist frequency, so tones that cannot be represented are removed instead
// of folding back as aliases. The result has round(n·rate/p.SampleRate) samples.
//
// Resample returns p itself when the rates are equal, and nil when p is nil or a
// rate is not positive.
func Resample(p *PCM, rate int) *PCM {
	if p == nil || rate <= 0 || p.SampleRate <= 0 {
		return nil
	}
	in, out := int64(p.SampleRate), int64(rate)
	if in == out {
		return p
	}
	n := int64(len(p.Samples))
	m := (n*out + in/2) / in
	res := &PCM{SampleRate: rate, Samples: make([]float32, m)}
	// fc is the cutoff relative to the input Nyquist frequency; x = fc·t maps a
	// distance of t input samples onto the kernel's argument.
	fc := rolloff * math.Min(1, float64(out)/float64(in))
	f := newFilter(in, out, fc)
	if f.bank != nil {
		f.polyphase(p.Samples, res.Samples)
	} else {
		f.direct(p.Samples, res.Samples)
	}
	return res
}

// filter is one resampling filter: for output sample i, the input position is
// i·in/out, split into a whole sample and a phase.
type filter struct {
	in, out int64
	half    float64 // kernel half-width in input samples
	step    float64 // kernel table entries per input sample
	// bank holds, when the ratio has few enough phases (8000→16000 has 2,
	// 44100→16000 has 160), every phase's weights precomputed and normalised, so
	// the inner loop is a plain dot product.
	bank   []float32
	phases int64 // out / gcd(in, out)
	taps   int
	first  int64 // offset of tap 0 from the whole input sample
}

// maxBank bounds the precomputed weights (4 MiB of float32); ratios such as
// 32000→16001 have too many phases and use the direct path.
const maxBank = 1 << 20

func newFilter(in, out int64, fc float64) *filter {
	f := &filter{in: in, out: out, half: zeroCrossings / fc, step: fc * tableDensity}
	g := gcd(in, out)
	f.phases = out / g
	h := int64(math.Ceil(f.half))
	f.first, f.taps = -h, int(2*h+2)
	if f.phases*int64(f.taps) > maxBank {
		return f
	}
	k := kernel()
	f.bank = make([]float32, f.phases*int64(f.taps))
	for ph := range f.phases {
		frac := float64(ph) / float64(f.phases)
		w := f.bank[ph*int64(f.taps) : (ph+1)*int64(f.taps)]
		var norm float64
		ws := make([]float64, f.taps)
		for t := range ws {
			ws[t] = f.weight(k, math.Abs(frac-float64(f.first+int64(t))))
			norm += ws[t]
		}
		for t := range ws {
			// Normalising each phase to unit sum gives exactly unit gain at DC.
			w[t] = float32(ws[t] / norm)
		}
	}
	return f
}

// weight is the kernel at a distance of d input samples, linearly interpolated
// in the table; 0 outside the window.
func (f *filter) weight(k []float64, d float64) float64 {
	x := d * f.step
	idx := int(x)
	if idx+1 >= len(k) {
		return 0
	}
	return k[idx] + (k[idx+1]-k[idx])*(x-float64(idx))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// polyphase filters with the precomputed bank. Away from the edges the taps are
// a contiguous run of input samples; at the edges, samples before the start and
// after the end count as silence.
func (f *filter) polyphase(src, dst []float32) {
	n := int64(len(src))
	taps := int64(f.taps)
	for i := range int64(len(dst)) {
		whole := i * f.in / f.out
		ph := (i * f.in % f.out) * f.phases / f.out
		w := f.bank[ph*taps : (ph+1)*taps]
		base := whole + f.first
		var acc float32
		if base >= 0 && base+taps <= n {
			acc = dot(w, src[base:base+taps])
		} else {
			for t := range taps {
				if j := base + t; j >= 0 && j < n {
					acc += w[t] * src[j]
				}
			}
		}
		dst[i] = max(-1, min(1, acc))
	}
}

// dot is the inner product of two equally long slices, with four accumulators so
// that the additions do not wait on each other.
func dot(w, s []float32) float32 {
	s = s[:len(w)]
	var a0, a1, a2, a3 float32
	i := 0
	for ; i+4 <= len(w); i += 4 {
		a0 += w[i] * s[i]
		a1 += w[i+1] * s[i+1]
		a2 += w[i+2] * s[i+2]
		a3 += w[i+3] * s[i+3]
	}
	for ; i < len(w); i++ {
		a0 += w[i] * s[i]
	}
	return a0 + a1 + a2 + a3
}

// direct evaluates the kernel for every tap, for ratios with too many phases to
// precompute.
func (f *filter) direct(src, dst []float32) {
	k := kernel()
	n := int64(len(src))
	for i := range int64(len(dst)) {
		// The position is computed exactly in integers, so long inputs do not
		// drift.
		whole := i * f.in / f.out
		pos := float64(whole) + float64(i*f.in%f.out)/float64(f.out)
		lo := int64(math.Ceil(pos - f.half))
		hi := int64(math.Floor(pos + f.half))
		var acc, norm float64
		for j := lo; j <= hi; j++ {
			w := f.weight(k, math.Abs(pos-float64(j)))
			norm += w
			if j >= 0 && j < n {
				acc += w * float64(src[j])
			}
		}
		if norm != 0 {
			// Dividing by the full window's weight (not only the samples present)
			// gives exactly unit gain at DC, and fades the edges as silence would.
			acc /= norm
		}
		dst[i] = float32(math.Max(-1, math.Min(1, acc)))
	}
}
