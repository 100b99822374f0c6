package audio

import (
	"errors"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	tone := sine(8000, 8000, 440, 0.5) // 1 s at 8 kHz
	stereo16 := wavSpec{format: wavePCM, rate: 8000, channels: 2, bits: 16, dataSize: -1}
	streaming := stereo16
	streaming.dataSize = 0
	streamingFF := stereo16
	streamingFF.dataSize = 0xFFFFFFFF
	overlong := stereo16
	overlong.dataSize = 1 << 30
	junk := stereo16
	junk.junk = 7
	ext := wavSpec{format: waveFloat, extensible: true, rate: 8000, channels: 1, bits: 32, dataSize: -1}
	rf64 := wavSpec{format: wavePCM, rate: 8000, channels: 1, bits: 24, dataSize: -1, rf64: true}

	tests := []struct {
		name     string
		file     []byte
		format   Format
		media    string
		codec    string
		rate     int
		channels int
		duration time.Duration // -1: unknown
	}{
		{"wav 16-bit stereo", makeWAV(stereo16, tone), WAV, "audio/wav", "pcm", 8000, 2, time.Second},
		{"wav streaming size 0", makeWAV(streaming, tone), WAV, "audio/wav", "pcm", 8000, 2, time.Second},
		{"wav streaming size FFFFFFFF", makeWAV(streamingFF, tone), WAV, "audio/wav", "pcm", 8000, 2, time.Second},
		{"wav truncated data", makeWAV(overlong, tone), WAV, "audio/wav", "pcm", 8000, 2, time.Second},
		{"wav odd chunk before fmt", makeWAV(junk, tone), WAV, "audio/wav", "pcm", 8000, 2, time.Second},
		{"wav extensible float", makeWAV(ext, tone), WAV, "audio/wav", "pcm_float", 8000, 1, time.Second},
		{"rf64 24-bit", makeWAV(rf64, tone), WAV, "audio/wav", "pcm", 8000, 1, time.Second},
		{"flite", fliteWAV(t), WAV, "audio/wav", "pcm", 8000, 1, 2351375 * time.Microsecond},
		{"flac", makeFLAC(t, 8000, 1, tone, true), FLAC, "audio/flac", "flac", 8000, 1, time.Second},
		{"flac stereo", makeFLAC(t, 16000, 2, sine(24000, 16000, 440, 0.5), true), FLAC, "audio/flac", "flac", 16000, 2, 1500 * time.Millisecond},
		{"flac unknown total", makeFLAC(t, 8000, 1, tone, false), FLAC, "audio/flac", "flac", 8000, 1, -1},
		{"ogg opus", makeOggOpus(312, 48000*3), OGG, "audio/ogg", "opus", 48000, 1, 3 * time.Second},
		{"ogg vorbis", makeOggVorbis(44100, 44100*2+22050), OGG, "audio/ogg", "vorbis", 44100, 2, 2500 * time.Millisecond},
		{"webm duration", makeWebM(webmSpec{docType: "webm", duration: 2500, scale: 1e6, codec: "A_OPUS", blocks: 125}), WebM, "audio/webm", "opus", 48000, 1, 2500 * time.Millisecond},
		{"webm live", makeWebM(webmSpec{docType: "webm", duration: -1, scale: 1e6, codec: "A_OPUS", live: true, blocks: 125}), WebM, "audio/webm", "opus", 48000, 1, 2480 * time.Millisecond},
		{"webm sized, no duration", makeWebM(webmSpec{docType: "webm", duration: -1, scale: 1e6, codec: "A_VORBIS", blocks: 60}), WebM, "audio/webm", "vorbis", 48000, 1, 1180 * time.Millisecond},
		{"matroska", makeWebM(webmSpec{docType: "matroska", duration: 1000, scale: 1e6, codec: "A_AAC", blocks: 3}), WebM, "audio/webm", "aac", 48000, 1, time.Second},
		{"mp3 cbr", makeMP3(mp3Spec{frames: 100}), MP3, "audio/mpeg", "mp3", 44100, 1, 100 * 417 * 8 * time.Second / 128000},
		{"mp3 id3 xing id3v1", makeMP3(mp3Spec{id3: 300, xing: true, frames: 100, id3v1: true}), MP3, "audio/mpeg", "mp3", 44100, 1, durationOf(100*1152, 44100)},
		{"mp3 xing without count", makeMP3(mp3Spec{xing: true}), MP3, "audio/mpeg", "mp3", 44100, 1, 417 * 8 * time.Second / 128000},
		{"mp3 vbri", makeMP3(mp3Spec{vbri: true, frames: 50}), MP3, "audio/mpeg", "mp3", 44100, 1, durationOf(50*1152, 44100)},
		{"mp3 mpeg2 xing", makeMP3(mp3Spec{xing: true, frames: 40, mpeg2: true}), MP3, "audio/mpeg", "mp3", 22050, 1, durationOf(40*576, 22050)},
		{"m4a v0", makeM4A(m4aSpec{brand: "M4A ", timescale: 1000, duration: 4321}), M4A, "audio/mp4", "aac", 44100, 2, 4321 * time.Millisecond},
		{"m4a v1 moov last", makeM4A(m4aSpec{brand: "mp42", version: 1, timescale: 600, duration: 900, mdatFirst: true}), M4A, "audio/mp4", "aac", 44100, 2, 1500 * time.Millisecond},
		{"m4a fragmented", makeM4A(m4aSpec{brand: "iso5", timescale: 1000, duration: 0}), M4A, "audio/mp4", "aac", 44100, 2, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := Probe(tt.file)
			if err != nil {
				t.Fatalf("Probe: %v", err)
			}
			if info.Format != tt.format || info.MediaType != tt.media || info.Codec != tt.codec {
				t.Errorf("got %s %s %q, want %s %s %q", info.Format, info.MediaType, info.Codec, tt.format, tt.media, tt.codec)
			}
			if info.SampleRate != tt.rate || info.Channels != tt.channels {
				t.Errorf("got %d Hz × %d, want %d Hz × %d", info.SampleRate, info.Channels, tt.rate, tt.channels)
			}
			if tt.duration < 0 {
				if info.DurationKnown || info.Duration != 0 {
					t.Errorf("duration %v (known %v), want unknown", info.Duration, info.DurationKnown)
				}
				return
			}
			if !info.DurationKnown || info.Duration != tt.duration {
				t.Errorf("duration %v (known %v), want %v", info.Duration, info.DurationKnown, tt.duration)
			}
		})
	}
}

// TestProbeBroken checks that each broken file fails for the right reason.
func TestProbeBroken(t *testing.T) {
	wav := pcm16WAV(8000, sine(800, 8000, 440, 0.5))
	flacFile := makeFLAC(t, 8000, 1, sine(800, 8000, 440, 0.5), true)
	opus := makeOggOpus(312, 48000)
	webm := makeWebM(webmSpec{docType: "webm", duration: 1000, scale: 1e6, codec: "A_OPUS", blocks: 5})
	m4a := makeM4A(m4aSpec{brand: "M4A ", timescale: 1000, duration: 1000})
	mp3 := makeMP3(mp3Spec{id3: 20, frames: 3})

	tests := []struct {
		name string
		file []byte
		want error
	}{
		{"empty", nil, ErrUnknownFormat},
		{"text", []byte("what is the status of my parcel?"), ErrUnknownFormat},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ErrUnknownFormat},
		{"ebml not webm", ebml(idEBML, ebml(idDocType, []byte("mkvx"))), ErrUnknownFormat},
		{"mp4 video brand", box("ftyp", []byte("qt  \x00\x00\x00\x00qt  ")), ErrUnknownFormat},
		{"wav without data", wav[:36], ErrMalformed},
		{"wav without fmt", append([]byte("RIFF\x00\x00\x00\x00WAVEdata\x04\x00\x00\x00"), 1, 2, 3, 4), ErrMalformed},
		{"wav zero channels", patch(wav, 22, 0, 0), ErrMalformed},
		{"wav zero rate", patch(wav, 24, 0, 0, 0, 0), ErrMalformed},
		{"wav bad block align", patch(wav, 32, 7, 0), ErrMalformed},
		{"wav short fmt", patch(wav, 16, 8, 0, 0, 0), ErrMalformed},
		{"flac truncated", flacFile[:20], ErrMalformed},
		{"flac first block not streaminfo", patch(flacFile, 4, 0x84), ErrMalformed},
		{"flac zero rate", patch(flacFile, 18, 0, 0, 0x02), ErrMalformed},
		{"ogg bad crc", patch(opus, 22, 0, 0, 0, 0), ErrMalformed},
		{"ogg truncated first page", opus[:40], ErrMalformed},
		{"ogg bad OpusHead", oggPageBytes(0x02, 0, 1, 0, []byte("OpusHead\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")), ErrMalformed},
		{"webm bad element", append(webm[:len(ebml(idEBML, ebml(idDocType, []byte("webm"))))], 0x00, 0x00), ErrMalformed},
		{"webm nan duration", makeWebM(webmSpec{docType: "webm", duration: nan(), scale: 1e6, codec: "A_OPUS"}), ErrMalformed},
		{"webm zero timecode scale", makeWebM(webmSpec{docType: "webm", duration: 1, scale: 0, codec: "A_OPUS"}), ErrMalformed},
		{"m4a box smaller than header", append(m4a[:24:24], 0, 0, 0, 4, 'm', 'o', 'o', 'v'), ErrMalformed},
		{"m4a mvhd version 7", patchFind(m4a, "mvhd", 4, 7), ErrMalformed},
		{"mp3 id3 then garbage", append(mp3[:30:30], 0x12, 0x34, 0x56, 0x78), ErrUnknownFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := Probe(tt.file)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Probe = %+v, %v; want %v", info, err, tt.want)
			}
		})
	}
}

// patch returns a copy of b with bytes replaced at off.
func patch(b []byte, off int, with ...byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[off:], with)
	return out
}

// patchFind patches at an offset relative to the first occurrence of marker.
func patchFind(b []byte, marker string, off int, with ...byte) []byte {
	for i := 0; i+len(marker) <= len(b); i++ {
		if string(b[i:i+len(marker)]) == marker {
			return patch(b, i+off, with...)
		}
	}
	panic("marker not found: " + marker)
}
