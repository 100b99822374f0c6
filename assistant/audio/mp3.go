package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	mp3 "github.com/hajimehoshi/go-mp3"
)

// MPEG audio versions as coded in the frame header.
const (
	mpeg25 = 0
	mpeg2  = 2
	mpeg1  = 3
)

// frameHeader is an MPEG Layer III frame header (ISO/IEC 11172-3, 13818-3 and the
// unofficial MPEG 2.5 extension).
type frameHeader struct {
	version    int // mpeg1, mpeg2 or mpeg25
	bitrate    int // bits per second
	sampleRate int
	channels   int
	protected  bool // a 16-bit CRC follows the header
	size       int  // bytes in the frame, header included
	samples    int  // samples per channel in the frame
}

var (
	bitratesV1 = [16]int{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1}
	bitratesV2 = [16]int{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1}
	rates      = map[int][3]int{
		mpeg1:  {44100, 48000, 32000},
		mpeg2:  {22050, 24000, 16000},
		mpeg25: {11025, 12000, 8000},
	}
)

// parseFrameHeader reads a Layer III frame header at the start of b. It refuses
// every reserved or unusable value (version 01, layers other than III, the "bad"
// bitrate, free format, reserved sample rate and emphasis), which is what keeps
// random bytes from passing for MP3.
func parseFrameHeader(b []byte) (frameHeader, bool) {
	if len(b) < 4 || b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		return frameHeader{}, false
	}
	version := int(b[1]>>3) & 3
	layer := int(b[1]>>1) & 3
	brIndex := int(b[2] >> 4)
	srIndex := int(b[2]>>2) & 3
	emphasis := int(b[3]) & 3
	if version == 1 || layer != 1 || brIndex == 0 || brIndex == 15 || srIndex == 3 || emphasis == 2 {
		return frameHeader{}, false
	}
	h := frameHeader{
		version:    version,
		sampleRate: rates[version][srIndex],
		protected:  b[1]&1 == 0,
		channels:   2,
	}
	if b[3]>>6 == 3 {
		h.channels = 1
	}
	padding := int(b[2]>>1) & 1
	if version == mpeg1 {
		h.bitrate = bitratesV1[brIndex] * 1000
		h.samples = 1152
		h.size = 144*h.bitrate/h.sampleRate + padding
	} else {
		h.bitrate = bitratesV2[brIndex] * 1000
		h.samples = 576
		h.size = 72*h.bitrate/h.sampleRate + padding
	}
	return h, true
}

// sideInfoSize is the size of a Layer III frame's side information, after which
// encoders put the Xing/Info tag.
func (h frameHeader) sideInfoSize() int {
	switch {
	case h.version == mpeg1 && h.channels == 1:
		return 17
	case h.version == mpeg1:
		return 32
	case h.channels == 1:
		return 9
	default:
		return 17
	}
}

// mp3Layout locates the audio of an MP3 file: the offset of the first frame
// (after any ID3v2 tag) and the end of the audio (before an ID3v1 tag).
func mp3Layout(b []byte) (start, end int, h frameHeader, err error) {
	end = len(b)
	if tagEnd, ok := id3v2End(b); ok {
		off, ok := findFrameAfterTag(b[tagEnd:])
		if !ok {
			return 0, 0, h, fmt.Errorf("%w: no MPEG frame after the ID3 tag", ErrMalformed)
		}
		start = tagEnd + off
	}
	h, ok := parseFrameHeader(b[start:])
	if !ok {
		return 0, 0, h, fmt.Errorf("%w: invalid MPEG frame header at offset %d", ErrMalformed, start)
	}
	if end-start >= 128 && string(b[end-128:end-125]) == "TAG" {
		end -= 128
	}
	return start, end, h, nil
}

// probeMP3 reads the duration from a Xing/Info or VBRI tag in the first frame
// (exact for VBR files), else estimates it from the first frame's bitrate over
// the audio bytes (exact for CBR files).
func probeMP3(b []byte) (Info, error) {
	start, end, h, err := mp3Layout(b)
	if err != nil {
		return Info{}, err
	}
	info := Info{
		Format: MP3, MediaType: "audio/mpeg", Codec: "mp3",
		SampleRate: h.sampleRate, Channels: h.channels, DurationKnown: true,
	}
	frame := b[start:min(start+h.size, end)]
	if frames, ok := vbrFrames(frame, h); ok {
		info.Duration = durationOf(uint64(frames)*uint64(h.samples), uint64(h.sampleRate))
		return info, nil
	}
	info.Duration = durationOf(uint64(end-start)*8, uint64(h.bitrate))
	return info, nil
}

// vbrFrames returns the frame count of a Xing/Info tag (after the side
// information, with or without the CRC) or a VBRI tag (at a fixed offset). A
// count of zero is a broken tag, and the bitrate estimate is used instead.
func vbrFrames(frame []byte, h frameHeader) (uint32, bool) {
	for _, off := range []int{4 + h.sideInfoSize(), 6 + h.sideInfoSize()} {
		if off+12 > len(frame) {
			continue
		}
		tag := string(frame[off : off+4])
		if tag != "Xing" && tag != "Info" {
			continue
		}
		flags := binary.BigEndian.Uint32(frame[off+4:])
		if flags&1 == 0 {
			return 0, false
		}
		n := binary.BigEndian.Uint32(frame[off+8:])
		return n, n > 0
	}
	if len(frame) >= 36+18 && string(frame[36:40]) == "VBRI" {
		n := binary.BigEndian.Uint32(frame[36+14:])
		return n, n > 0
	}
	return 0, false
}

// decodeMP3 decodes with go-mp3, which always yields 16-bit stereo; the two
// channels are averaged. The ID3 tag is skipped here, and the decoder gets a
// reader that cannot seek, so it neither allocates the tag's declared size nor
// scans the whole file before the first sample.
func decodeMP3(b []byte, max time.Duration) (pcm *PCM, err error) {
	start, end, h, err := mp3Layout(b)
	if err != nil {
		return nil, err
	}
	defer func() {
		// go-mp3 indexes tables with values read from the stream; a crafted frame
		// must become an error, not a crash of the server.
		if r := recover(); r != nil {
			pcm, err = nil, fmt.Errorf("%w: MP3 decoder: %v", ErrMalformed, r)
		}
	}()
	d, err := mp3.NewDecoder(struct{ io.Reader }{bytes.NewReader(b[start:end])})
	if err != nil {
		return nil, fmt.Errorf("%w: MP3: %v", ErrMalformed, err)
	}
	limit := sampleLimit(max, d.SampleRate())
	// The frame count at the first frame's size only sizes the first allocation;
	// the limit and 16 Mi samples cap it whatever the file says.
	hint := min(int64((end-start)/h.size+1)*int64(h.samples), 1<<24)
	if limit < hint {
		hint = limit + 1
	}
	out := &PCM{SampleRate: d.SampleRate(), Samples: make([]float32, 0, hint)}
	buf := make([]byte, 4*1152*4)
	for {
		n, rerr := io.ReadFull(d, buf)
		n -= n % 4
		for i := 0; i < n; i += 4 {
			l := int16(binary.LittleEndian.Uint16(buf[i:]))
			r := int16(binary.LittleEndian.Uint16(buf[i+2:]))
			out.Samples = append(out.Samples, (float32(l)+float32(r))/65536)
		}
		if int64(len(out.Samples)) > limit {
			return nil, fmt.Errorf("%w: MP3 longer than %v", ErrTooLong, max)
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
				return out, nil
			}
			if len(out.Samples) > 0 {
				// A damaged frame after good audio: keep what decoded, as players do.
				return out, nil
			}
			return nil, fmt.Errorf("%w: MP3: %v", ErrMalformed, rerr)
		}
	}
}
