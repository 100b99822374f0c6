package audio

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// WAVE format tags (RFC 2361, mmreg.h).
const (
	wavePCM        = 0x0001
	waveFloat      = 0x0003
	waveALaw       = 0x0006
	waveMuLaw      = 0x0007
	waveExtensible = 0xFFFE
)

var waveCodecs = map[uint16]string{
	wavePCM: "pcm", waveFloat: "pcm_float", waveALaw: "alaw", waveMuLaw: "mulaw",
	0x0002: "adpcm", 0x0011: "ima_adpcm", 0x0031: "gsm610", 0x0055: "mp3",
}

// maxChunks bounds the chunk walk; a real WAV has a handful.
const maxChunks = 1024

// wavFile is what the chunk walk finds in a WAV file.
type wavFile struct {
	format     uint16 // after resolving WAVE_FORMAT_EXTENSIBLE
	channels   int
	sampleRate int
	byteRate   int
	blockAlign int
	bits       int
	data       []byte // the sample bytes present in the file
}

// parseWAV walks the RIFF chunks. Chunks other than fmt, data and ds64 are
// skipped (with the pad byte after odd sizes). A data size of 0 or 0xFFFFFFFF is
// a streaming writer's placeholder: the data then runs to the end of the file. A
// data size larger than the file means a truncated file: the bytes present count.
func parseWAV(b []byte) (*wavFile, error) {
	var (
		w       wavFile
		haveFmt bool
		data    []byte
		ds64    uint64 // RF64 data size
	)
	rf64 := string(b[0:4]) == "RF64"
	off := 12
	for n := 0; off+8 <= len(b); n++ {
		if n == maxChunks {
			return nil, fmt.Errorf("%w: WAV: more than %d chunks", ErrMalformed, maxChunks)
		}
		id := string(b[off : off+4])
		size := uint64(binary.LittleEndian.Uint32(b[off+4:]))
		body := off + 8
		avail := uint64(len(b) - body)
		switch id {
		case "ds64":
			if size < 24 || avail < 24 {
				return nil, fmt.Errorf("%w: WAV: short ds64 chunk", ErrMalformed)
			}
			ds64 = binary.LittleEndian.Uint64(b[body+8:])
		case "fmt ":
			if size < 16 || avail < 16 {
				return nil, fmt.Errorf("%w: WAV: short fmt chunk", ErrMalformed)
			}
			if err := w.readFmt(b[body : body+int(min(size, avail))]); err != nil {
				return nil, err
			}
			haveFmt = true
		case "data":
			if rf64 && size == 0xFFFFFFFF && ds64 != 0 {
				size = ds64
			}
			if size == 0 || size == 0xFFFFFFFF || size > avail {
				size = avail
			}
			data = b[body : body+int(size)]
		}
		if data != nil && haveFmt {
			break
		}
		next := uint64(body) + size + size&1
		if next > uint64(len(b)) {
			break
		}
		off = int(next)
	}
	if !haveFmt {
		return nil, fmt.Errorf("%w: WAV without a fmt chunk", ErrMalformed)
	}
	if data == nil {
		return nil, fmt.Errorf("%w: WAV without a data chunk", ErrMalformed)
	}
	w.data = data
	return &w, nil
}

// readFmt reads a fmt chunk body, resolving WAVE_FORMAT_EXTENSIBLE to the
// sub-format's tag (the first two bytes of its GUID).
func (w *wavFile) readFmt(f []byte) error {
	w.format = binary.LittleEndian.Uint16(f[0:])
	w.channels = int(binary.LittleEndian.Uint16(f[2:]))
	w.sampleRate = int(binary.LittleEndian.Uint32(f[4:]))
	w.byteRate = int(binary.LittleEndian.Uint32(f[8:]))
	w.blockAlign = int(binary.LittleEndian.Uint16(f[12:]))
	w.bits = int(binary.LittleEndian.Uint16(f[14:]))
	if w.format == waveExtensible {
		if len(f) < 40 {
			return fmt.Errorf("%w: WAV: short WAVE_FORMAT_EXTENSIBLE fmt chunk", ErrMalformed)
		}
		w.format = binary.LittleEndian.Uint16(f[24:])
	}
	if w.channels < 1 || w.channels > 32 {
		return fmt.Errorf("%w: WAV: %d channels", ErrMalformed, w.channels)
	}
	if w.sampleRate < 1000 || w.sampleRate > 768000 {
		return fmt.Errorf("%w: WAV: sample rate %d", ErrMalformed, w.sampleRate)
	}
	if w.blockAlign < 1 {
		return fmt.Errorf("%w: WAV: block align 0", ErrMalformed)
	}
	if w.linear() {
		if w.blockAlign != w.channels*w.bits/8 {
			return fmt.Errorf("%w: WAV: block align %d for %d channels of %d bits", ErrMalformed, w.blockAlign, w.channels, w.bits)
		}
		// The byte rate is redundant for linear PCM; computing it keeps a wrong
		// header from distorting the duration.
		w.byteRate = w.sampleRate * w.blockAlign
	}
	return nil
}

// linear reports whether the samples are integer or float PCM of a width Decode
// handles.
func (w *wavFile) linear() bool {
	switch w.format {
	case wavePCM:
		return w.bits == 8 || w.bits == 16 || w.bits == 24 || w.bits == 32
	case waveFloat:
		return w.bits == 32 || w.bits == 64
	}
	return false
}

func probeWAV(b []byte) (Info, error) {
	w, err := parseWAV(b)
	if err != nil {
		return Info{}, err
	}
	info := Info{
		Format: WAV, MediaType: mediaTypes[WAV], Codec: waveCodecs[w.format],
		SampleRate: w.sampleRate, Channels: w.channels,
	}
	if w.byteRate > 0 {
		info.Duration = durationOf(uint64(len(w.data)), uint64(w.byteRate))
		info.DurationKnown = true
	}
	return info, nil
}

// decodeWAV converts the samples to mono float. The length is known from the data
// size before any sample is converted, so an overlong file costs nothing.
func decodeWAV(b []byte, max time.Duration) (*PCM, error) {
	w, err := parseWAV(b)
	if err != nil {
		return nil, err
	}
	if !w.linear() {
		return nil, fmt.Errorf("%w: WAV with %s samples (format 0x%04X, %d bits)", ErrCannotDecode, codecName(waveCodecs[w.format]), w.format, w.bits)
	}
	frames := len(w.data) / w.blockAlign
	if int64(frames) > sampleLimit(max, w.sampleRate) {
		return nil, fmt.Errorf("%w: WAV longer than %v", ErrTooLong, max)
	}
	out := &PCM{SampleRate: w.sampleRate, Samples: make([]float32, frames)}
	width := w.bits / 8
	read := sampleReader(w.format, w.bits)
	scale := 1 / float64(w.channels)
	for i := range frames {
		frame := w.data[i*w.blockAlign:]
		var sum float64
		for c := range w.channels {
			sum += read(frame[c*width:])
		}
		out.Samples[i] = float32(sum * scale)
	}
	return out, nil
}

func codecName(c string) string {
	if c == "" {
		return "unknown"
	}
	return c
}

// sampleReader returns the function that reads one little-endian sample as a
// value in [-1, 1] (float samples clipped, NaN as silence).
func sampleReader(format uint16, bits int) func([]byte) float64 {
	switch {
	case format == waveFloat && bits == 32:
		return func(p []byte) float64 {
			return finite(float64(math.Float32frombits(binary.LittleEndian.Uint32(p))))
		}
	case format == waveFloat:
		return func(p []byte) float64 {
			return finite(math.Float64frombits(binary.LittleEndian.Uint64(p)))
		}
	case bits == 8: // unsigned, centred on 128
		return func(p []byte) float64 { return (float64(p[0]) - 128) / 128 }
	case bits == 16:
		return func(p []byte) float64 { return float64(int16(binary.LittleEndian.Uint16(p))) / (1 << 15) }
	case bits == 24:
		return func(p []byte) float64 {
			v := int32(uint32(p[0])<<8|uint32(p[1])<<16|uint32(p[2])<<24) >> 8
			return float64(v) / (1 << 23)
		}
	default:
		return func(p []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(p))) / (1 << 31) }
	}
}

// finite keeps float samples in [-1, 1]: NaN becomes silence, the rest clips.
func finite(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v > 1:
		return 1
	case v < -1:
		return -1
	}
	return v
}
