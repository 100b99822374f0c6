package audio

import (
	"fmt"
	"math"
	"testing"
)

func toPCM(rate int, s []float64) *PCM {
	p := &PCM{SampleRate: rate, Samples: make([]float32, len(s))}
	for i, v := range s {
		p.Samples[i] = float32(v)
	}
	return p
}

// amplitude is the peak amplitude of the component at freq, by correlating the
// middle of the signal (away from the edges) with a sine and a cosine.
func amplitude(p *PCM, freq float64) float64 {
	n := len(p.Samples)
	lo, hi := n/8, n-n/8
	var re, im float64
	for i := lo; i < hi; i++ {
		ph := 2 * math.Pi * freq * float64(i) / float64(p.SampleRate)
		re += float64(p.Samples[i]) * math.Cos(ph)
		im += float64(p.Samples[i]) * math.Sin(ph)
	}
	return 2 * math.Hypot(re, im) / float64(hi-lo)
}

// zeroCrossingFreq estimates the frequency of a pure tone from its rising zero
// crossings, interpolated between samples.
func zeroCrossingFreq(p *PCM) float64 {
	var first, last float64
	count := -1
	n := len(p.Samples)
	for i := n / 8; i+1 < n-n/8; i++ {
		a, b := float64(p.Samples[i]), float64(p.Samples[i+1])
		if a < 0 && b >= 0 {
			at := float64(i) + a/(a-b)
			if count < 0 {
				first = at
			}
			last = at
			count++
		}
	}
	return float64(count) * float64(p.SampleRate) / (last - first)
}

func TestResampleTone(t *testing.T) {
	for _, rates := range [][2]int{{8000, 16000}, {44100, 16000}, {48000, 16000}, {22050, 16000}, {16000, 8000}, {11025, 16000}, {16000, 44100}, {32000, 16001}} {
		in, out := rates[0], rates[1]
		t.Run(fmt.Sprintf("%d→%d", in, out), func(t *testing.T) {
			n := in * 2
			p := Resample(toPCM(in, sine(n, in, 440, 0.5)), out)
			want := int(math.Round(float64(n) * float64(out) / float64(in)))
			if p.SampleRate != out || len(p.Samples) < want-1 || len(p.Samples) > want+1 {
				t.Fatalf("got %d samples at %d Hz, want %d at %d", len(p.Samples), p.SampleRate, want, out)
			}
			if f := zeroCrossingFreq(p); math.Abs(f-440) > 0.5 {
				t.Errorf("tone at %.2f Hz, want 440", f)
			}
			if a := amplitude(p, 440); math.Abs(a-0.5) > 0.005 {
				t.Errorf("amplitude %.4f, want 0.5", a)
			}
		})
	}
}

func TestResampleBand(t *testing.T) {
	tests := []struct {
		name      string
		in, out   int
		freq      float64
		min, max  float64 // bounds of the output amplitude for an input of 0.5
		measureAt float64 // where the tone (or its alias) lands in the output
	}{
		{"7 kHz kept 48k→16k", 48000, 16000, 7000, 0.495, 0.505, 7000},
		{"3.4 kHz kept 8k→16k", 8000, 16000, 3400, 0.495, 0.505, 3400},
		{"7 kHz kept 44.1k→16k", 44100, 16000, 7000, 0.495, 0.505, 7000},
		{"10 kHz removed 48k→16k (alias at 6 kHz)", 48000, 16000, 10000, 0, 0.0005, 6000},
		{"9 kHz removed 44.1k→16k (alias at 7 kHz)", 44100, 16000, 9000, 0, 0.0005, 7000},
		{"10 kHz removed 48k→16001, direct path (alias at 6001 Hz)", 48000, 16001, 10000, 0, 0.0005, 6001},
		{"10 kHz removed 22.05k→16k (alias at 6 kHz)", 22050, 16000, 10000, 0, 0.0005, 6000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			freq := tt.freq
			if freq >= float64(tt.in)/2 {
				t.Skip("not representable at the input rate")
			}
			p := Resample(toPCM(tt.in, sine(tt.in, tt.in, freq, 0.5)), tt.out)
			a := amplitude(p, tt.measureAt)
			if a < tt.min || a > tt.max {
				t.Fatalf("amplitude at %v Hz = %.6f (%.1f dB), want in [%v, %v]", tt.measureAt, a, 20*math.Log10(a/0.5), tt.min, tt.max)
			}
			t.Logf("amplitude at %v Hz: %.1f dB", tt.measureAt, 20*math.Log10(a/0.5))
		})
	}
}

// TestResamplePathsAgree checks the precomputed polyphase bank against direct
// evaluation of the kernel, on the same signal and ratio.
func TestResamplePathsAgree(t *testing.T) {
	for _, r := range [][2]int64{{8000, 16000}, {44100, 16000}, {22050, 16000}} {
		src := toPCM(int(r[0]), sine(int(r[0]), int(r[0]), 1234, 0.9)).Samples
		fc := rolloff * math.Min(1, float64(r[1])/float64(r[0]))
		f := newFilter(r[0], r[1], fc)
		if f.bank == nil {
			t.Fatalf("%v: no bank", r)
		}
		a := make([]float32, r[1])
		b := make([]float32, r[1])
		f.polyphase(src, a)
		f.direct(src, b)
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > 1e-5 {
				t.Fatalf("%v: sample %d: polyphase %v, direct %v", r, i, a[i], b[i])
			}
		}
	}
}

func TestResampleEdges(t *testing.T) {
	p := toPCM(16000, sine(100, 16000, 440, 0.5))
	if Resample(p, 16000) != p {
		t.Error("equal rates must return p")
	}
	if Resample(nil, 16000) != nil || Resample(p, 0) != nil || Resample(&PCM{SampleRate: 0}, 16000) != nil {
		t.Error("invalid input must give nil")
	}
	if r := Resample(&PCM{SampleRate: 8000}, 16000); r == nil || len(r.Samples) != 0 {
		t.Error("empty input must give empty output")
	}
	// DC passes with unit gain and full scale does not overflow.
	dc := make([]float64, 8000)
	for i := range dc {
		dc[i] = 1
	}
	r := Resample(toPCM(8000, dc), 16000)
	for i := len(r.Samples) / 4; i < 3*len(r.Samples)/4; i++ {
		if math.Abs(float64(r.Samples[i])-1) > 1e-4 {
			t.Fatalf("DC sample %d = %v", i, r.Samples[i])
		}
	}
}
