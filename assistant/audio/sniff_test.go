package audio

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func TestSniff(t *testing.T) {
	flacFile := makeFLAC(t, 8000, 1, sine(100, 8000, 440, 0.5), true)
	id3 := []byte("ID3\x04\x00\x00\x00\x00\x00\x05hello")
	tests := []struct {
		name string
		file []byte
		want Format
	}{
		{"wav", fliteWAV(t), WAV},
		{"rf64", makeWAV(wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 16, rf64: true}, sine(10, 8000, 1, 0)), WAV},
		{"flac", flacFile, FLAC},
		{"flac behind id3", append(append([]byte(nil), id3...), flacFile...), FLAC},
		{"ogg", makeOggOpus(312, 960), OGG},
		{"webm", makeWebM(webmSpec{docType: "webm", duration: 1, scale: 1e6, codec: "A_OPUS"}), WebM},
		{"matroska", makeWebM(webmSpec{docType: "matroska", duration: 1, scale: 1e6, codec: "A_OPUS"}), WebM},
		{"mp3 bare", makeMP3(mp3Spec{frames: 2}), MP3},
		{"mp3 single frame", makeMP3(mp3Spec{frames: 1}), MP3},
		{"mp3 id3", makeMP3(mp3Spec{id3: 40, frames: 1}), MP3},
		{"m4a", makeM4A(m4aSpec{brand: "M4A ", timescale: 1, duration: 1}), M4A},
		{"m4a compatible brand", makeM4A(m4aSpec{brand: "qt  ", timescale: 1, duration: 1}), M4A},
		{"3gp", makeM4A(m4aSpec{brand: "3gp4", timescale: 1, duration: 1}), M4A},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sniff(tt.file)
			if err != nil || got != tt.want {
				t.Fatalf("Sniff = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestSniffRefuses(t *testing.T) {
	frame := makeMP3(mp3Spec{frames: 2})
	tests := []struct {
		name string
		file []byte
	}{
		{"empty", nil},
		{"riff avi", []byte("RIFF\x00\x00\x00\x00AVI LIST")},
		{"ogg version 1", patch(makeOggOpus(312, 960), 4, 1)},
		{"mp3 layer II", patch(frame, 1, 0xFD)},
		{"mp3 reserved version", patch(frame, 1, 0xEB)},
		{"mp3 bad bitrate", patch(frame, 2, 0xF0)},
		{"mp3 free format", patch(frame, 2, 0x00)},
		{"mp3 reserved rate", patch(frame, 2, 0x9C)},
		{"mp3 second header missing", patch(frame, 417, 0)},
		{"mp3 truncated single frame", frame[:300]},
		{"id3 size past end", []byte("ID3\x03\x00\x00\x00\x00\x7F\x7F")},
		{"ftyp too short", []byte("\x00\x00\x00\x08ftypM4A ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Sniff(tt.file); !errors.Is(err, ErrUnknownFormat) {
				t.Fatalf("Sniff = %q, %v; want ErrUnknownFormat", got, err)
			}
		})
	}
}

// TestSniffRandomBytes checks that noise is not taken for MP3: the frame-header
// checks and the second-frame requirement must reject nearly all of it.
func TestSniffRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 2048)
	hits := 0
	const trials = 50000
	for range trials {
		for i := range b[:8] {
			b[i] = byte(r.Uint32())
		}
		// Force a frame sync so every trial exercises the MP3 checks.
		b[0], b[1] = 0xFF, b[1]|0xE0
		for i := 8; i < len(b); i++ {
			b[i] = byte(r.Uint32())
		}
		if f, err := Sniff(b); err == nil && f == MP3 {
			hits++
		}
	}
	if hits > trials/10000 {
		t.Fatalf("%d of %d random buffers starting with a frame sync sniffed as MP3", hits, trials)
	}
}
