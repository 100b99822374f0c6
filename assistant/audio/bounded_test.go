package audio

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// TestProbeBounded feeds files built to make a careless parser slow or hungry:
// each must be answered quickly, with the expected error.
func TestProbeBounded(t *testing.T) {
	const size = 4 << 20
	fill := func(prefix, unit []byte) []byte {
		b := append([]byte(nil), prefix...)
		for len(b) < size {
			b = append(b, unit...)
		}
		return b
	}
	// A fake Ogg page header that declares 255 segments of 255 bytes each.
	fakePage := append([]byte("OggS\x00\x00"), make([]byte, 20)...)
	fakePage = append(fakePage, 255)
	fakePage = append(fakePage, bytes.Repeat([]byte{255}, 255)...)
	webmHead := append(ebml(idEBML, ebml(idDocType, []byte("webm"))), ebmlSized(idSegment, -1, nil)...)
	tests := []struct {
		name string
		file []byte
		want error
	}{
		{"ogg fake capture patterns", fill(oggPageBytes(0x02, 0, 1, 0, append([]byte("OpusHead\x01\x01\x38\x01"), make([]byte, 7)...)), fakePage), ErrMalformed},
		{"webm millions of Void elements", fill(webmHead, []byte{0xEC, 0x80}), ErrMalformed},
		{"webm nested unknown sizes", fill(webmHead, ebmlSized(idCluster, -1, nil)), nil},
		{"m4a endless free boxes", fill(box("ftyp", []byte("M4A \x00\x00\x00\x00")), box("free")), ErrMalformed},
		{"wav thousands of chunks", fill([]byte("RIFF\xFF\xFF\xFF\xFFWAVE"), []byte("junk\x00\x00\x00\x00")), ErrMalformed},
		{"id3 then zeros", fill([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), []byte{0}), ErrUnknownFormat},
		{"wav declaring samples it lacks", patch(pcm16WAV(8000, sine(100, 8000, 1, 0))[:44], 40, 0xFF, 0xFF, 0xFF, 0x7F), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Probe(tt.file)
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("Probe took %v", elapsed)
			}
			if !errors.Is(err, tt.want) && !(tt.want == nil && err == nil) {
				t.Fatalf("Probe: %v, want %v", err, tt.want)
			}
			start = time.Now()
			_, _ = Decode(tt.file, 10*time.Minute)
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("Decode took %v", elapsed)
			}
		})
	}
}
