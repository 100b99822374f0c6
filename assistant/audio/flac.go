package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mewkiz/flac"
)

// maxDecodeRate is the highest sample rate Decode accepts for FLAC: speech needs
// 16 kHz, and studio files reach 192 kHz.
const maxDecodeRate = 192000

// flacStreamInfo is the STREAMINFO metadata block, which FLAC requires first.
type flacStreamInfo struct {
	sampleRate   int
	channels     int
	bits         int
	totalSamples uint64 // per channel; 0 when the encoder did not know
}

// parseFLACHeader reads STREAMINFO after the "fLaC" marker (and after an ID3v2
// tag, which some taggers put in front).
func parseFLACHeader(b []byte) (flacStreamInfo, error) {
	if end, ok := id3v2End(b); ok {
		b = b[end:]
	}
	if len(b) < 4+4+34 || string(b[0:4]) != "fLaC" {
		return flacStreamInfo{}, fmt.Errorf("%w: FLAC: truncated before STREAMINFO", ErrMalformed)
	}
	hdr := b[4:8]
	if hdr[0]&0x7F != 0 {
		return flacStreamInfo{}, fmt.Errorf("%w: FLAC: first metadata block is type %d, not STREAMINFO", ErrMalformed, hdr[0]&0x7F)
	}
	if n := int(hdr[1])<<16 | int(hdr[2])<<8 | int(hdr[3]); n != 34 {
		return flacStreamInfo{}, fmt.Errorf("%w: FLAC: STREAMINFO of %d bytes", ErrMalformed, n)
	}
	si := b[8 : 8+34]
	// Bytes 10..17 pack sample rate (20 bits), channels-1 (3), bits-1 (5) and the
	// total sample count (36).
	v := binary.BigEndian.Uint64(si[10:18])
	info := flacStreamInfo{
		sampleRate:   int(v >> 44),
		channels:     int(v>>41&7) + 1,
		bits:         int(v>>36&31) + 1,
		totalSamples: v & (1<<36 - 1),
	}
	if info.sampleRate == 0 || info.sampleRate > 655350 {
		return flacStreamInfo{}, fmt.Errorf("%w: FLAC: sample rate %d", ErrMalformed, info.sampleRate)
	}
	if info.bits < 4 {
		return flacStreamInfo{}, fmt.Errorf("%w: FLAC: %d bits per sample", ErrMalformed, info.bits)
	}
	return info, nil
}

func probeFLAC(b []byte) (Info, error) {
	si, err := parseFLACHeader(b)
	if err != nil {
		return Info{}, err
	}
	info := Info{
		Format: FLAC, MediaType: mediaTypes[FLAC], Codec: "flac",
		SampleRate: si.sampleRate, Channels: si.channels,
	}
	if si.totalSamples > 0 {
		info.Duration = durationOf(si.totalSamples, uint64(si.sampleRate))
		info.DurationKnown = true
	}
	return info, nil
}

// decodeFLAC decodes frame by frame with mewkiz/flac and stops at the first frame
// that passes max, whatever STREAMINFO claims.
func decodeFLAC(b []byte, max time.Duration) (pcm *PCM, err error) {
	si, err := parseFLACHeader(b)
	if err != nil {
		return nil, err
	}
	if si.sampleRate > maxDecodeRate {
		// FLAC packs silence into a few bytes per frame, so the bytes present do
		// not bound the samples: the rate (with max) must.
		return nil, fmt.Errorf("%w: FLAC at %d Hz (decoding stops at %d Hz)", ErrCannotDecode, si.sampleRate, maxDecodeRate)
	}
	limit := sampleLimit(max, si.sampleRate)
	if si.totalSamples > 0 && si.totalSamples > uint64(limit) {
		return nil, fmt.Errorf("%w: FLAC longer than %v", ErrTooLong, max)
	}
	defer func() {
		// The decoder trusts some values read from the stream; a crafted frame must
		// become an error, not a crash of the server.
		if r := recover(); r != nil {
			pcm, err = nil, fmt.Errorf("%w: FLAC decoder: %v", ErrMalformed, r)
		}
	}()
	if end, ok := id3v2End(b); ok {
		b = b[end:] // skipped here so the decoder never sizes a buffer from the tag
	}
	stream, err := flac.New(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: FLAC: %v", ErrMalformed, err)
	}
	out := &PCM{SampleRate: si.sampleRate}
	for {
		f, err := stream.ParseNext()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: FLAC frame: %v", ErrMalformed, err)
		}
		if int(f.SampleRate) != si.sampleRate && f.SampleRate != 0 {
			return nil, fmt.Errorf("%w: FLAC frame at %d Hz in a %d Hz stream", ErrMalformed, f.SampleRate, si.sampleRate)
		}
		if len(f.Subframes) == 0 || f.BitsPerSample == 0 || f.BitsPerSample > 32 {
			return nil, fmt.Errorf("%w: FLAC frame without samples", ErrMalformed)
		}
		n := int(f.BlockSize)
		scale := 1 / (float64(uint64(1)<<(f.BitsPerSample-1)) * float64(len(f.Subframes)))
		for i := range n {
			var sum float64
			for _, sub := range f.Subframes {
				if i < len(sub.Samples) {
					sum += float64(sub.Samples[i])
				}
			}
			out.Samples = append(out.Samples, float32(finite(sum*scale)))
		}
		if int64(len(out.Samples)) > limit {
			return nil, fmt.Errorf("%w: FLAC longer than %v", ErrTooLong, max)
		}
	}
}
