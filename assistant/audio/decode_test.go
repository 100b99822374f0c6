package audio

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestDecode(t *testing.T) {
	tone := sine(8000, 8000, 440, 0.5)
	tests := []struct {
		name    string
		file    []byte
		rate    int
		samples int
		tol     float64 // largest allowed difference from tone; < 0 to skip
	}{
		{"wav 8-bit", makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 8, dataSize: -1}, tone), 8000, 8000, 1.0 / 100},
		{"wav 16-bit stereo", makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 2, bits: 16, dataSize: -1}, tone), 8000, 8000, 1e-4},
		{"wav 24-bit", makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 24, dataSize: -1}, tone), 8000, 8000, 1e-6},
		{"wav 32-bit extensible", makeWAV(wavSpec{format: wavePCM, extensible: true, rate: 8000, channels: 1, bits: 32, dataSize: -1}, tone), 8000, 8000, 1e-6},
		{"wav float32", makeWAV(wavSpec{format: waveFloat, rate: 8000, channels: 1, bits: 32, dataSize: -1}, tone), 8000, 8000, 1e-7},
		{"wav float64 stereo", makeWAV(wavSpec{format: waveFloat, rate: 8000, channels: 2, bits: 64, dataSize: -1}, tone), 8000, 8000, 1e-7},
		{"wav streaming size", makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 16, dataSize: 0}, tone), 8000, 8000, 1e-4},
		{"flac mono", makeFLAC(t, 8000, 1, tone, true), 8000, 8000, 1e-4},
		{"flac stereo", makeFLAC(t, 8000, 2, tone, false), 8000, 8000, 1e-4},
		{"mp3 silence", makeMP3(mp3Spec{id3: 100, xing: true, frames: 20}), 44100, 21 * 1152, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.file, time.Minute)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if p.SampleRate != tt.rate || len(p.Samples) != tt.samples {
				t.Fatalf("got %d samples at %d Hz, want %d at %d", len(p.Samples), p.SampleRate, tt.samples, tt.rate)
			}
			for i, s := range p.Samples {
				if tt.tol < 0 {
					if s != 0 {
						t.Fatalf("sample %d = %v, want silence", i, s)
					}
					continue
				}
				if d := math.Abs(float64(s) - tone[i]); d > tt.tol {
					t.Fatalf("sample %d = %v, want %v ± %v", i, s, tone[i], tt.tol)
				}
			}
		})
	}
}

func TestDecodeFlite(t *testing.T) {
	p, err := Decode(fliteWAV(t), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if p.SampleRate != 8000 || p.Duration() != 2351375*time.Microsecond {
		t.Fatalf("got %v at %d Hz", p.Duration(), p.SampleRate)
	}
	var peak float32
	for _, s := range p.Samples {
		peak = max(peak, s, -s)
	}
	if peak < 0.05 || peak > 1 {
		t.Fatalf("peak %v: not speech", peak)
	}
}

func TestDecodeErrors(t *testing.T) {
	tone := sine(8000, 8000, 440, 0.5)
	alaw := makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 8, dataSize: -1}, tone)
	alaw = patch(alaw, 20, waveALaw)
	tests := []struct {
		name string
		file []byte
		max  time.Duration
		want error
	}{
		{"wav too long", pcm16WAV(8000, tone), 999 * time.Millisecond, ErrTooLong},
		{"wav exactly max", pcm16WAV(8000, tone), time.Second, nil},
		{"flac too long (header)", makeFLAC(t, 8000, 1, tone, true), 500 * time.Millisecond, ErrTooLong},
		{"flac too long (frames)", makeFLAC(t, 8000, 1, tone, false), 500 * time.Millisecond, ErrTooLong},
		{"mp3 too long", makeMP3(mp3Spec{frames: 100}), time.Second, ErrTooLong},
		{"ogg", makeOggOpus(312, 48000), time.Minute, ErrCannotDecode},
		{"webm", makeWebM(webmSpec{docType: "webm", duration: 1, scale: 1e6, codec: "A_OPUS"}), time.Minute, ErrCannotDecode},
		{"m4a", makeM4A(m4aSpec{brand: "M4A ", timescale: 1, duration: 1}), time.Minute, ErrCannotDecode},
		{"wav a-law", alaw, time.Minute, ErrCannotDecode},
		{"unknown", []byte("hello"), time.Minute, ErrUnknownFormat},
		{"flac corrupt frames", patch(makeFLAC(t, 8000, 1, tone, true), 50, 0xDE, 0xAD, 0xBE, 0xEF), time.Minute, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.file, tt.max)
			if !errors.Is(err, tt.want) && !(tt.want == nil && err == nil) {
				t.Fatalf("Decode: %v, want %v", err, tt.want)
			}
		})
	}
}

func TestDecodeNamesFormat(t *testing.T) {
	for _, tt := range []struct {
		file []byte
		want string
	}{
		{makeOggOpus(312, 48000), "OGG with opus"},
		{makeWebM(webmSpec{docType: "webm", duration: 1, scale: 1e6, codec: "A_VORBIS"}), "WEBM with vorbis"},
		{makeM4A(m4aSpec{brand: "M4A ", timescale: 1, duration: 1}), "M4A with aac"},
	} {
		if _, err := Decode(tt.file, time.Minute); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode: %v, want it to say %q", err, tt.want)
		}
	}
}

func TestPCM(t *testing.T) {
	p := &PCM{SampleRate: 4, Samples: []float32{0, 0.5, -0.5, 1, -1, 2, -2, float32(math.NaN())}}
	want := []int16{0, 16384, -16384, 32767, -32767, 32767, -32767, 0}
	got := p.Int16()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Int16()[%d] = %d, want %d", i, got[i], want[i])
		}
	}
	if d := p.Duration(); d != 2*time.Second {
		t.Fatalf("Duration = %v", d)
	}
	var nilPCM *PCM
	if nilPCM.Duration() != 0 || nilPCM.Int16() != nil || (&PCM{}).Duration() != 0 {
		t.Fatal("zero values")
	}
}
