package audio

import (
	"testing"
	"time"
)

func BenchmarkProbe(b *testing.B) {
	tone := sine(8000*10, 8000, 440, 0.5)
	files := []struct {
		name string
		file []byte
	}{
		{"wav", pcm16WAV(8000, tone)},
		{"flac", makeFLAC(b, 8000, 1, tone, true)},
		{"ogg-opus-10s", makeOggOpus(312, 48000*10)},
		{"webm-live-10s", makeWebM(webmSpec{docType: "webm", duration: -1, scale: 1e6, codec: "A_OPUS", live: true, blocks: 500})},
		{"mp3-cbr", makeMP3(mp3Spec{frames: 383})},
		{"mp3-xing", makeMP3(mp3Spec{id3: 1000, xing: true, frames: 383})},
		{"m4a", makeM4A(m4aSpec{brand: "M4A ", timescale: 1000, duration: 10000, mdatFirst: true})},
	}
	for _, f := range files {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.file)))
			for b.Loop() {
				if _, err := Probe(f.file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeResample measures what the embedded transcriber does before
// recognition: 10 s of 8 kHz WAV decoded and brought to 16 kHz. It reports how
// many times faster than real time that runs.
func BenchmarkDecodeResample(b *testing.B) {
	for _, c := range []struct {
		name string
		rate int
	}{{"wav8k", 8000}, {"wav44k1", 44100}, {"wav48k", 48000}} {
		b.Run(c.name, func(b *testing.B) {
			file := pcm16WAV(c.rate, sine(c.rate*10, c.rate, 440, 0.5))
			start := time.Now()
			for b.Loop() {
				p, err := Decode(file, time.Minute)
				if err != nil {
					b.Fatal(err)
				}
				if Resample(p, 16000) == nil {
					b.Fatal("nil")
				}
			}
			per := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(float64(10*time.Second)/float64(per), "x-realtime")
		})
	}
}
