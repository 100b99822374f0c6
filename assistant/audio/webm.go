package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"
)

// ebmlMagic is the EBML header's element ID, the first bytes of every WebM and
// Matroska file.
var ebmlMagic = []byte{0x1A, 0x45, 0xDF, 0xA3}

// EBML element IDs (Matroska specification, RFC 9559) that Probe reads.
const (
	idEBML          = 0x1A45DFA3
	idDocType       = 0x4282
	idSegment       = 0x18538067
	idInfo          = 0x1549A966
	idTimecodeScale = 0x2AD7B1
	idDuration      = 0x4489
	idTracks        = 0x1654AE6B
	idTrackEntry    = 0xAE
	idTrackType     = 0x83
	idCodecID       = 0x86
	idAudio         = 0xE1
	idSamplingFreq  = 0xB5
	idChannels      = 0x9F
	idCluster       = 0x1F43B675
	idTimecode      = 0xE7
	idSimpleBlock   = 0xA3
	idBlockGroup    = 0xA0
	idBlock         = 0xA1
	idCues          = 0x1C53BB6B
	idTags          = 0x1254C367
	idChapters      = 0x1043A770
	idAttachments   = 0x1941A469
	idSeekHead      = 0x114D9B74
)

// segmentChildren are the top-level elements of a Segment; one of them ends a
// Cluster written with an unknown size (a live recording).
var segmentChildren = map[uint64]bool{
	idInfo: true, idTracks: true, idCluster: true, idCues: true, idTags: true,
	idChapters: true, idAttachments: true, idSeekHead: true,
}

const (
	// maxElements bounds the element walk: well above the blocks of 25 MiB of
	// speech, far below what would make Probe slow.
	maxElements = 1 << 20
	// unknownSize marks an element whose size field is all ones.
	unknownSize = -1
)

// ebmlElement is one parsed element header.
type ebmlElement struct {
	id     uint64
	size   int // unknownSize, or bytes of data, at most what b holds
	header int // bytes of ID and size
	at     int // offset of the element in the walked slice
}

// readVint reads an EBML variable-length integer of at most maxLen bytes. With
// keepMarker the length marker stays in the value (element IDs); otherwise it is
// removed (sizes). allOnes reports the reserved "unknown" value.
func readVint(b []byte, maxLen int, keepMarker bool) (v uint64, n int, allOnes bool, ok bool) {
	if len(b) == 0 || b[0] == 0 {
		return 0, 0, false, false
	}
	n = 1
	for mask := byte(0x80); b[0]&mask == 0; mask >>= 1 {
		n++
	}
	if n > maxLen || n > len(b) {
		return 0, 0, false, false
	}
	v = uint64(b[0])
	if !keepMarker {
		v &= uint64(0xFF >> n)
	}
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	allOnes = !keepMarker && v == 1<<(7*uint(n))-1
	return v, n, allOnes, true
}

// readElement reads an element header at the start of b. A size past the end of
// b is cut to what b holds, since files are often truncated recordings.
func readElement(b []byte) (ebmlElement, bool) {
	id, idLen, _, ok := readVint(b, 4, true)
	if !ok {
		return ebmlElement{}, false
	}
	size, sizeLen, unknown, ok := readVint(b[idLen:], 8, false)
	if !ok {
		return ebmlElement{}, false
	}
	e := ebmlElement{id: id, header: idLen + sizeLen}
	rest := uint64(len(b) - e.header)
	switch {
	case unknown:
		e.size = unknownSize
	case size > rest:
		e.size = int(rest)
	default:
		e.size = int(size)
	}
	return e, true
}

// ebmlVisit is called for each element of a walk with its data (to the end of
// the walked slice for an unknown size). It returns how many bytes of data it
// consumed, which matters only when the size is unknown, and false to stop.
type ebmlVisit func(e ebmlElement, data []byte) (consumed int, more bool)

// walkEBML visits the elements of b in order. Every step moves forward by at
// least an element header, and budget bounds the steps of the whole probe.
func walkEBML(b []byte, budget *int, fn ebmlVisit) error {
	for off := 0; off < len(b); {
		if *budget--; *budget < 0 {
			return fmt.Errorf("%w: WebM: more than %d elements", ErrMalformed, maxElements)
		}
		e, ok := readElement(b[off:])
		if !ok {
			return fmt.Errorf("%w: WebM: bad element header at offset %d", ErrMalformed, off)
		}
		e.at = off
		data := b[off+e.header:]
		if e.size != unknownSize {
			data = data[:e.size]
		}
		used, more := fn(e, data)
		if !more {
			return nil
		}
		if e.size == unknownSize {
			off += e.header + used
		} else {
			off += e.header + e.size
		}
	}
	return nil
}

// isWebM reads the EBML header's DocType.
func isWebM(b []byte) bool {
	e, ok := readElement(b)
	if !ok || e.id != idEBML || e.size == unknownSize {
		return false
	}
	budget := 64
	var docType string
	_ = walkEBML(b[e.header:e.header+e.size], &budget, func(c ebmlElement, data []byte) (int, bool) {
		if c.id == idDocType {
			docType = strings.TrimRight(string(data), "\x00")
			return 0, false
		}
		return 0, c.size != unknownSize
	})
	return docType == "webm" || docType == "matroska"
}

// webmProbe accumulates what the walk of a Segment finds.
type webmProbe struct {
	info          Info
	timecodeScale uint64 // nanoseconds per tick
	duration      float64
	haveDuration  bool
	haveTrack     bool
	lastTick      int64 // latest block timestamp, in ticks
	haveBlock     bool
	budget        int
}

// probeWebM reads Segment → Info (TimecodeScale, Duration) and the first audio
// track (CodecID, SamplingFrequency, Channels). When Info has no Duration — a
// MediaRecorder file written live has none — the duration is the timestamp of the
// last block, which is short of the true length by one frame (about 20 ms of
// Opus).
func probeWebM(b []byte) (Info, error) {
	hdr, ok := readElement(b)
	if !ok || hdr.size == unknownSize {
		return Info{}, fmt.Errorf("%w: WebM: bad EBML header", ErrMalformed)
	}
	p := &webmProbe{
		info:          Info{Format: WebM, MediaType: mediaTypes[WebM]},
		timecodeScale: 1000000,
		budget:        maxElements,
	}
	rest := b[hdr.header+hdr.size:]
	var segErr error
	err := walkEBML(rest, &p.budget, func(e ebmlElement, data []byte) (int, bool) {
		if e.id != idSegment {
			return len(data), true
		}
		segErr = p.segment(data)
		return len(data), false
	})
	if err == nil {
		err = segErr
	}
	if err != nil {
		if errors.Is(err, ErrMalformed) {
			return Info{}, err
		}
		return Info{}, fmt.Errorf("%w: WebM: %v", ErrMalformed, err)
	}
	switch {
	case p.haveDuration:
		d, ok := durationFromSeconds(p.duration * float64(p.timecodeScale) / 1e9)
		if !ok {
			return Info{}, fmt.Errorf("%w: WebM: duration %v", ErrMalformed, p.duration)
		}
		p.info.Duration, p.info.DurationKnown = d, true
	case p.haveBlock:
		ticks := uint64(max(p.lastTick, 0))
		if hi, ns := bits.Mul64(ticks, p.timecodeScale); hi != 0 || ns > math.MaxInt64 {
			p.info.Duration = math.MaxInt64
		} else {
			p.info.Duration = time.Duration(ns)
		}
		p.info.DurationKnown = true
	}
	return p.info, nil
}

func (p *webmProbe) segment(seg []byte) error {
	var inner error
	err := walkEBML(seg, &p.budget, func(e ebmlElement, data []byte) (int, bool) {
		switch e.id {
		case idInfo:
			inner = p.readInfo(data)
		case idTracks:
			inner = p.readTracks(data)
		case idCluster:
			used, err := p.readCluster(data, e.size == unknownSize)
			if err != nil {
				inner = err
			}
			return used, inner == nil
		}
		if e.size == unknownSize {
			// Only Segment and Cluster are written live; anything else of unknown
			// size cannot be skipped.
			inner = fmt.Errorf("element 0x%X of unknown size", e.id)
		}
		return 0, inner == nil
	})
	if inner != nil {
		return inner
	}
	return err
}

func (p *webmProbe) readInfo(b []byte) error {
	var inner error
	err := walkEBML(b, &p.budget, func(e ebmlElement, data []byte) (int, bool) {
		switch e.id {
		case idTimecodeScale:
			v, ok := ebmlUint(data)
			if !ok || v == 0 {
				inner = fmt.Errorf("bad TimecodeScale")
				return 0, false
			}
			p.timecodeScale = v
		case idDuration:
			v, ok := ebmlFloat(data)
			if !ok || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				inner = fmt.Errorf("bad Duration")
				return 0, false
			}
			p.duration, p.haveDuration = v, true
		}
		return 0, e.size != unknownSize
	})
	if inner != nil {
		return inner
	}
	return err
}

func (p *webmProbe) readTracks(b []byte) error {
	return walkEBML(b, &p.budget, func(e ebmlElement, data []byte) (int, bool) {
		if e.id != idTrackEntry || p.haveTrack || e.size == unknownSize {
			return 0, e.size != unknownSize
		}
		var t Info
		var kind uint64
		_ = walkEBML(data, &p.budget, func(c ebmlElement, v []byte) (int, bool) {
			switch c.id {
			case idTrackType:
				kind, _ = ebmlUint(v)
			case idCodecID:
				t.Codec = matroskaCodec(string(v))
			case idAudio:
				_ = walkEBML(v, &p.budget, func(a ebmlElement, av []byte) (int, bool) {
					switch a.id {
					case idSamplingFreq:
						if f, ok := ebmlFloat(av); ok && f >= 1 && f <= 1e6 {
							t.SampleRate = int(f)
						}
					case idChannels:
						if n, ok := ebmlUint(av); ok && n <= 255 {
							t.Channels = int(n)
						}
					}
					return 0, a.size != unknownSize
				})
			}
			return 0, c.size != unknownSize
		})
		if kind == 2 { // audio
			p.info.Codec, p.info.SampleRate, p.info.Channels = t.Codec, t.SampleRate, t.Channels
			p.haveTrack = true
		}
		return 0, true
	})
}

// readCluster records the latest block timestamp. For a cluster of unknown size
// it returns where the cluster ends: at the next Segment-level element.
func (p *webmProbe) readCluster(b []byte, unknown bool) (int, error) {
	var base int64
	end := len(b)
	err := walkEBML(b, &p.budget, func(e ebmlElement, data []byte) (int, bool) {
		if unknown && segmentChildren[e.id] {
			end = e.at
			return 0, false
		}
		switch e.id {
		case idTimecode:
			v, _ := ebmlUint(data)
			base = int64(min(v, math.MaxInt64/2))
		case idSimpleBlock:
			p.block(base, data)
		case idBlockGroup:
			_ = walkEBML(data, &p.budget, func(c ebmlElement, v []byte) (int, bool) {
				if c.id == idBlock {
					p.block(base, v)
				}
				return 0, c.size != unknownSize
			})
		}
		return 0, e.size != unknownSize
	})
	return end, err
}

// block reads a (Simple)Block's timestamp: a track number (vint) then a signed
// 16-bit offset from the cluster's timestamp.
func (p *webmProbe) block(base int64, b []byte) {
	_, n, _, ok := readVint(b, 8, false)
	if !ok || len(b) < n+2 {
		return
	}
	t := base + int64(int16(binary.BigEndian.Uint16(b[n:])))
	if !p.haveBlock || t > p.lastTick {
		p.lastTick, p.haveBlock = t, true
	}
}

func matroskaCodec(id string) string {
	switch {
	case id == "A_OPUS":
		return "opus"
	case id == "A_VORBIS":
		return "vorbis"
	case id == "A_FLAC":
		return "flac"
	case strings.HasPrefix(id, "A_AAC"):
		return "aac"
	case id == "A_MPEG/L3":
		return "mp3"
	case strings.HasPrefix(id, "A_PCM"):
		return "pcm"
	}
	return ""
}

// ebmlUint reads an unsigned integer element (0 to 8 bytes, big-endian).
func ebmlUint(b []byte) (uint64, bool) {
	if len(b) > 8 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, true
}

// ebmlFloat reads a float element (0, 4 or 8 bytes).
func ebmlFloat(b []byte) (float64, bool) {
	switch len(b) {
	case 0:
		return 0, true
	case 4:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(b))), true
	case 8:
		return math.Float64frombits(binary.BigEndian.Uint64(b)), true
	}
	return 0, false
}
