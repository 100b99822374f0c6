package audio

import (
	"encoding/binary"
	"fmt"
)

const (
	// maxBoxDepth and maxBoxes bound the ISO BMFF walk; moov/trak/mdia/minf/stbl/
	// stsd is six levels deep.
	maxBoxDepth = 8
	maxBoxes    = 10000
)

// bmffBox is one ISO BMFF box (ISO/IEC 14496-12 §4.2).
type bmffBox struct {
	typ  string
	body []byte
}

// walkBoxes calls fn for each box in b. A size of 0 runs to the end of b; a size
// of 1 is followed by a 64-bit size; a size past the end of b is a truncated
// file, and the box ends with b.
func walkBoxes(b []byte, count *int, fn func(bmffBox) error) error {
	for off := 0; off+8 <= len(b); {
		if *count++; *count > maxBoxes {
			return fmt.Errorf("%w: M4A: more than %d boxes", ErrMalformed, maxBoxes)
		}
		size := uint64(binary.BigEndian.Uint32(b[off:]))
		typ := string(b[off+4 : off+8])
		hdr := 8
		switch size {
		case 0:
			size = uint64(len(b) - off)
		case 1:
			if off+16 > len(b) {
				return fmt.Errorf("%w: M4A: truncated box %q", ErrMalformed, typ)
			}
			size, hdr = binary.BigEndian.Uint64(b[off+8:]), 16
		}
		if size < uint64(hdr) {
			return fmt.Errorf("%w: M4A: box %q of %d bytes", ErrMalformed, typ, size)
		}
		end := uint64(len(b))
		if size <= end-uint64(off) {
			end = uint64(off) + size
		}
		if err := fn(bmffBox{typ: typ, body: b[off+hdr : end]}); err != nil {
			return err
		}
		off = int(end)
	}
	return nil
}

// m4aProbe accumulates what the box walk finds.
type m4aProbe struct {
	info       Info
	timescale  uint64
	duration   uint64
	haveMvhd   bool
	trackScale uint64 // mdhd of the sound track, used when mvhd has no duration
	trackDur   uint64
	count      int
}

// probeM4A reads moov/mvhd (timescale and duration, versions 0 and 1) and, from
// the first sound track (hdlr "soun"), its mdhd and its stsd sample entry (codec,
// channels, rate). A fragmented file whose mvhd says 0 falls back to the track's
// mdhd; when both say 0 or all ones, the duration is unknown.
func probeM4A(b []byte) (Info, error) {
	p := &m4aProbe{info: Info{Format: M4A, MediaType: mediaTypes[M4A]}}
	err := walkBoxes(b, &p.count, func(box bmffBox) error {
		if box.typ == "moov" {
			return p.moov(box.body)
		}
		return nil
	})
	if err != nil {
		return Info{}, err
	}
	switch {
	case p.haveMvhd && p.duration != 0 && p.timescale != 0:
		p.info.Duration, p.info.DurationKnown = durationOf(p.duration, p.timescale), true
	case p.trackDur != 0 && p.trackScale != 0:
		p.info.Duration, p.info.DurationKnown = durationOf(p.trackDur, p.trackScale), true
	}
	return p.info, nil
}

func (p *m4aProbe) moov(b []byte) error {
	return walkBoxes(b, &p.count, func(box bmffBox) error {
		switch box.typ {
		case "mvhd":
			scale, dur, err := readTimes(box.body, "mvhd")
			if err != nil {
				return err
			}
			p.timescale, p.duration, p.haveMvhd = scale, dur, true
		case "trak":
			if p.info.Codec == "" {
				return p.trak(box.body)
			}
		}
		return nil
	})
}

// readTimes reads the timescale and duration of an mvhd or mdhd box. The
// all-ones duration means "unknown" and becomes 0.
func readTimes(b []byte, name string) (scale, dur uint64, err error) {
	if len(b) < 4 {
		return 0, 0, fmt.Errorf("%w: M4A: short %s", ErrMalformed, name)
	}
	switch b[0] {
	case 0:
		if len(b) < 20 {
			return 0, 0, fmt.Errorf("%w: M4A: short %s", ErrMalformed, name)
		}
		scale, dur = uint64(binary.BigEndian.Uint32(b[12:])), uint64(binary.BigEndian.Uint32(b[16:]))
		if dur == 0xFFFFFFFF {
			dur = 0
		}
	case 1:
		if len(b) < 32 {
			return 0, 0, fmt.Errorf("%w: M4A: short %s", ErrMalformed, name)
		}
		scale, dur = uint64(binary.BigEndian.Uint32(b[20:])), binary.BigEndian.Uint64(b[24:])
		if dur == 1<<64-1 {
			dur = 0
		}
	default:
		return 0, 0, fmt.Errorf("%w: M4A: %s version %d", ErrMalformed, name, b[0])
	}
	return scale, dur, nil
}

// trak reads one track; only a sound track's values are kept.
func (p *m4aProbe) trak(b []byte) error {
	var (
		sound        bool
		scale, dur   uint64
		entry        Info
		sawMdhd      bool
		depthReached bool
	)
	var visit func(box bmffBox, depth int) error
	visit = func(box bmffBox, depth int) error {
		if depth > maxBoxDepth {
			depthReached = true
			return nil
		}
		switch box.typ {
		case "mdia", "minf", "stbl":
			return walkBoxes(box.body, &p.count, func(c bmffBox) error { return visit(c, depth+1) })
		case "hdlr":
			sound = len(box.body) >= 12 && string(box.body[8:12]) == "soun"
		case "mdhd":
			s, d, err := readTimes(box.body, "mdhd")
			if err != nil {
				return err
			}
			scale, dur, sawMdhd = s, d, true
		case "stsd":
			entry = readSampleEntry(box.body)
		}
		return nil
	}
	if err := walkBoxes(b, &p.count, func(c bmffBox) error { return visit(c, 1) }); err != nil {
		return err
	}
	if depthReached {
		return fmt.Errorf("%w: M4A: boxes nested deeper than %d", ErrMalformed, maxBoxDepth)
	}
	if !sound {
		return nil
	}
	p.info.Codec, p.info.Channels, p.info.SampleRate = entry.Codec, entry.Channels, entry.SampleRate
	if p.info.Codec == "" {
		p.info.Codec = "unknown"
	}
	if sawMdhd {
		p.trackScale, p.trackDur = scale, dur
		if p.info.SampleRate == 0 && scale <= 768000 {
			p.info.SampleRate = int(scale) // audio tracks use the sample rate as timescale
		}
	}
	return nil
}

// readSampleEntry reads the first AudioSampleEntry of an stsd box: version and
// flags, an entry count, then the entry (size, format, 6 reserved bytes, data
// reference index, 8 reserved bytes, channel count, sample size, 4 bytes, and the
// rate as 16.16 fixed point).
func readSampleEntry(b []byte) Info {
	if len(b) < 8+36 {
		return Info{}
	}
	e := b[8:]
	var info Info
	switch string(e[4:8]) {
	case "mp4a":
		info.Codec = "aac"
	case "alac":
		info.Codec = "alac"
	case "Opus":
		info.Codec = "opus"
	case "fLaC":
		info.Codec = "flac"
	case ".mp3":
		info.Codec = "mp3"
	case "samr":
		info.Codec = "amr_nb"
	case "sawb":
		info.Codec = "amr_wb"
	case "ulaw":
		info.Codec = "mulaw"
	case "alaw":
		info.Codec = "alaw"
	default:
		return Info{}
	}
	info.Channels = int(binary.BigEndian.Uint16(e[24:]))
	info.SampleRate = int(binary.BigEndian.Uint32(e[32:]) >> 16)
	return info
}
