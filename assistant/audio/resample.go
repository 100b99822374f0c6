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
	// linear interpolation between them costs less than 100 dB of accuracy.
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
	k := kernel()
	// fc is the cutoff relative to the input Nyquist frequency; x = fc·t maps a
	// distance of t input samples onto the kernel's argument.
	fc := rolloff * math.Min(1, float64(out)/float64(in))
	half := zeroCrossings / fc // kernel half-width in input samples
	step := fc * tableDensity
	src := p.Samples
	for i := range m {
		// The output sample i sits at input position i·in/out, computed exactly in
		// integers so that long inputs do not drift.
		whole := i * in / out
		frac := float64(i*in%out) / float64(out)
		pos := float64(whole) + frac
		lo := int64(math.Ceil(pos - half))
		hi := int64(math.Floor(pos + half))
		var acc, norm float64
		for j := lo; j <= hi; j++ {
			x := math.Abs(pos-float64(j)) * step
			idx := int(x)
			if idx+1 >= len(k) {
				continue
			}
			w := k[idx] + (k[idx+1]-k[idx])*(x-float64(idx))
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
		res.Samples[i] = float32(math.Max(-1, math.Min(1, acc)))
	}
	return res
}
