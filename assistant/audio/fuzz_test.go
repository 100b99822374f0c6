package audio

import (
	"errors"
	"testing"
	"time"
)

// seeds is the fuzz corpus: a sample of every format, and truncated and
// corrupted variants of each.
func seeds(f *testing.F) [][]byte {
	f.Helper()
	tone := sine(1600, 8000, 440, 0.5)
	good := [][]byte{
		fliteWAV(f)[:4000],
		makeWAV(wavSpec{format: waveFloat, extensible: true, rate: 8000, channels: 2, bits: 32, dataSize: 0, junk: 3}, tone[:200]),
		makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 24, rf64: true}, tone[:200]),
		makeFLAC(f, 8000, 1, tone, true),
		makeFLAC(f, 8000, 2, tone[:300], false),
		makeOggOpus(312, 48000),
		makeOggVorbis(44100, 1000),
		makeWebM(webmSpec{docType: "webm", duration: 100, scale: 1e6, codec: "A_OPUS", blocks: 5}),
		makeWebM(webmSpec{docType: "webm", duration: -1, scale: 1e6, codec: "A_OPUS", live: true, blocks: 60}),
		makeMP3(mp3Spec{id3: 20, xing: true, frames: 3, id3v1: true}),
		makeMP3(mp3Spec{vbri: true, frames: 2, mpeg2: true}),
		makeM4A(m4aSpec{brand: "M4A ", version: 1, timescale: 1000, duration: 1000}),
	}
	out := [][]byte{nil, []byte("RIFF"), []byte("OggS"), []byte("fLaC"), []byte("ID3\x04"), ebmlMagic}
	for _, g := range good {
		out = append(out, g, g[:len(g)/2], g[:min(len(g), 64)])
		for _, off := range []int{4, 8, 12, 20, 30, 40, 60} {
			if off < len(g) {
				out = append(out, patch(g, off, 0xFF, 0xFF, 0xFF, 0xFF))
				out = append(out, patch(g, off, 0x00, 0x00))
			}
		}
	}
	return out
}

func FuzzProbe(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		start := time.Now()
		info, err := Probe(b)
		if elapsed := time.Since(start); elapsed > time.Second {
			t.Fatalf("Probe took %v on %d bytes", elapsed, len(b))
		}
		if err != nil {
			if !errors.Is(err, ErrUnknownFormat) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			if info != (Info{}) {
				t.Fatalf("error with info %+v", info)
			}
			return
		}
		if !info.DurationKnown && info.Duration != 0 {
			t.Fatalf("unknown duration %v", info.Duration)
		}
		if info.Duration < 0 || info.SampleRate < 0 || info.Channels < 0 {
			t.Fatalf("negative values in %+v", info)
		}
		if f, _ := Sniff(b); f != info.Format || mediaTypes[f] != info.MediaType {
			t.Fatalf("Probe says %s %s, Sniff %s", info.Format, info.MediaType, f)
		}
	})
}

func FuzzDecode(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	const limit = 2 * time.Second
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b, limit)
		if err != nil {
			for _, want := range []error{ErrUnknownFormat, ErrMalformed, ErrCannotDecode, ErrTooLong} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("error %v wraps no sentinel", err)
		}
		if p.SampleRate <= 0 {
			t.Fatalf("sample rate %d", p.SampleRate)
		}
		if p.Duration() > limit {
			t.Fatalf("decoded %v past the limit %v", p.Duration(), limit)
		}
		for i, s := range p.Samples {
			if !(s >= -1 && s <= 1) {
				t.Fatalf("sample %d = %v", i, s)
			}
		}
		// A slice of the samples is enough to exercise Resample on the decoded
		// rate; the whole file would make every execution slow.
		head := &PCM{SampleRate: p.SampleRate, Samples: p.Samples[:min(len(p.Samples), 256)]}
		if r := Resample(head, 16000); r == nil {
			t.Fatal("Resample of a decoded file gave nil")
		}
	})
}
