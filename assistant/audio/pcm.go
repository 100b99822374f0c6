package audio

import (
	"math"
	"time"
)

// PCM is decoded mono audio.
type PCM struct {
	// SampleRate is in samples per second.
	SampleRate int
	// Samples are in [-1, 1].
	Samples []float32
}

// Duration is the playing time of the samples (0 when the rate is not positive).
func (p *PCM) Duration() time.Duration {
	if p == nil || p.SampleRate <= 0 {
		return 0
	}
	return durationOf(uint64(len(p.Samples)), uint64(p.SampleRate))
}

// Int16 returns the samples as 16-bit integers, which is what speech recognisers
// such as PocketSphinx take. Values outside [-1, 1] are clipped rather than
// wrapped, and NaN becomes silence.
func (p *PCM) Int16() []int16 {
	if p == nil {
		return nil
	}
	out := make([]int16, len(p.Samples))
	for i, s := range p.Samples {
		switch {
		case s != s:
			out[i] = 0
		case s >= 1:
			out[i] = math.MaxInt16
		case s <= -1:
			out[i] = -math.MaxInt16
		default:
			out[i] = int16(math.Round(float64(s) * math.MaxInt16))
		}
	}
	return out
}

// sampleLimit is the largest number of samples at rate that still fits in max;
// max <= 0 means no limit.
func sampleLimit(max time.Duration, rate int) int64 {
	if max <= 0 || rate <= 0 {
		return math.MaxInt64
	}
	secs := int64(max / time.Second)
	rest := int64(max % time.Second)
	return secs*int64(rate) + rest*int64(rate)/int64(time.Second)
}
