package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// maxOggResyncs and maxOggWasted bound how many damaged stretches probeOgg
// skips, and how many bytes it checksums in pages that turn out damaged.
const (
	maxOggResyncs = 1024
	maxOggWasted  = 4 << 20
)

// oggPage is one page of an Ogg bitstream (RFC 3533).
type oggPage struct {
	headerType byte
	granule    int64
	serial     uint32
	body       []byte
	size       int // header, segment table and body
}

// oggCRC is the Ogg checksum table: CRC-32 with polynomial 0x04C11DB7, not
// reflected, initial value 0.
var oggCRC = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04C11DB7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

// parseOggPage reads the page at the start of b and checks its CRC, which is what
// makes resynchronising on a stray "OggS" inside packet data safe.
func parseOggPage(b []byte) (oggPage, bool) {
	if len(b) < 27 || string(b[0:4]) != "OggS" || b[4] != 0 {
		return oggPage{}, false
	}
	nseg := int(b[26])
	if len(b) < 27+nseg {
		return oggPage{}, false
	}
	bodyLen := 0
	for _, s := range b[27 : 27+nseg] {
		bodyLen += int(s)
	}
	size := 27 + nseg + bodyLen
	if len(b) < size {
		return oggPage{}, false
	}
	p := oggPage{
		headerType: b[5],
		granule:    int64(binary.LittleEndian.Uint64(b[6:14])),
		serial:     binary.LittleEndian.Uint32(b[14:18]),
		body:       b[27+nseg : size],
		size:       size,
	}
	var crc uint32
	for i, c := range b[:size] {
		if i >= 22 && i < 26 {
			c = 0 // the checksum field counts as zero
		}
		crc = crc<<8 ^ oggCRC[byte(crc>>24)^c]
	}
	// A page that fails its checksum still reports its size: the caller counts
	// the bytes it cost.
	return p, crc == binary.LittleEndian.Uint32(b[22:26])
}

// probeOgg reads the codec from the first page's identification header and the
// duration from the granule position of the last complete page of that logical
// stream. Damaged stretches are skipped by searching for the next valid page;
// every step moves forward, so the walk ends.
func probeOgg(b []byte) (Info, error) {
	first, ok := parseOggPage(b)
	if !ok || first.size == 0 {
		return Info{}, fmt.Errorf("%w: OGG: first page is damaged or truncated", ErrMalformed)
	}
	if first.headerType&0x02 == 0 {
		return Info{}, fmt.Errorf("%w: OGG: first page does not begin a stream", ErrMalformed)
	}
	info := Info{Format: OGG, MediaType: mediaTypes[OGG]}
	var preSkip int64
	var rate int64
	id := first.body
	switch {
	case bytes.HasPrefix(id, []byte("OpusHead")):
		if len(id) < 19 || id[8]>>4 != 0 || id[9] == 0 {
			return Info{}, fmt.Errorf("%w: OGG: bad OpusHead", ErrMalformed)
		}
		// Opus granule positions count 48 kHz samples whatever the input rate.
		info.Codec, info.Channels, info.SampleRate = "opus", int(id[9]), 48000
		preSkip, rate = int64(binary.LittleEndian.Uint16(id[10:12])), 48000
	case bytes.HasPrefix(id, []byte("\x01vorbis")):
		if len(id) < 30 || id[11] == 0 || binary.LittleEndian.Uint32(id[12:16]) == 0 {
			return Info{}, fmt.Errorf("%w: OGG: bad Vorbis identification header", ErrMalformed)
		}
		info.Codec, info.Channels = "vorbis", int(id[11])
		rate = int64(binary.LittleEndian.Uint32(id[12:16]))
		info.SampleRate = int(min(rate, 1<<31-1))
	case bytes.HasPrefix(id, []byte("\x7fFLAC")) && len(id) >= 13:
		si, err := parseFLACHeader(id[9:])
		if err != nil {
			return Info{}, err
		}
		info.Codec, info.Channels, info.SampleRate = "flac", si.channels, si.sampleRate
		rate = int64(si.sampleRate)
	case bytes.HasPrefix(id, []byte("Speex   ")) && len(id) >= 80:
		info.Codec = "speex"
		rate = int64(binary.LittleEndian.Uint32(id[36:40]))
		info.SampleRate = int(min(rate, 1<<31-1))
		info.Channels = int(min(binary.LittleEndian.Uint32(id[48:52]), 255))
	default:
		// An unknown codec: the container is valid but says nothing of time.
		return info, nil
	}
	last := int64(-1)
	resyncs, wasted := 0, 0
	for off := 0; off < len(b); {
		p, ok := parseOggPage(b[off:])
		if !ok {
			// Each failed candidate may cost a checksum over 64 KiB; bounding
			// their number and the bytes they cost keeps a file of fake capture
			// patterns from making the walk quadratic.
			resyncs, wasted = resyncs+1, wasted+p.size
			if resyncs > maxOggResyncs || wasted > maxOggWasted {
				return Info{}, fmt.Errorf("%w: OGG: too many damaged pages", ErrMalformed)
			}
			next := bytes.Index(b[off+1:], []byte("OggS"))
			if next < 0 {
				break
			}
			off += 1 + next
			continue
		}
		if p.serial == first.serial && p.granule >= 0 {
			last = p.granule
		}
		off += p.size
	}
	if last < 0 || rate <= 0 {
		return info, nil
	}
	info.Duration = durationOf(uint64(max(last-preSkip, 0)), uint64(rate))
	info.DurationKnown = true
	return info, nil
}
