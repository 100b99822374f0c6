package audio

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"
)

// This file builds real, minimal files of every format for the tests, the fuzz
// seed corpus and the benchmarks; each builder says what it writes, so that the
// expected duration follows from the arguments.

// sine returns n samples of a tone at freq Hz sampled at rate, amplitude amp.
func sine(n, rate int, freq, amp float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate))
	}
	return s
}

// wavSpec describes a WAV file for makeWAV.
type wavSpec struct {
	format     uint16 // wavePCM or waveFloat
	extensible bool
	rate       int
	channels   int
	bits       int
	dataSize   int64 // declared data size; -1 for the real one
	junk       int   // bytes of a "LIST"-like chunk before fmt (odd sizes test padding)
	rf64       bool
}

// makeWAV writes samples (the same on every channel) as a WAV file.
func makeWAV(spec wavSpec, samples []float64) []byte {
	var data bytes.Buffer
	for _, s := range samples {
		for range spec.channels {
			switch {
			case spec.format == waveFloat && spec.bits == 32:
				binary.Write(&data, binary.LittleEndian, float32(s))
			case spec.format == waveFloat:
				binary.Write(&data, binary.LittleEndian, s)
			case spec.bits == 8:
				data.WriteByte(byte(int(math.Round(s*127)) + 128))
			case spec.bits == 16:
				binary.Write(&data, binary.LittleEndian, int16(math.Round(s*32767)))
			case spec.bits == 24:
				v := int32(math.Round(s * (1<<23 - 1)))
				data.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16)})
			default:
				binary.Write(&data, binary.LittleEndian, int32(math.Round(s*(1<<31-1))))
			}
		}
	}
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	if spec.rf64 {
		b.WriteString("RF64")
		le(uint32(0xFFFFFFFF))
		b.WriteString("WAVEds64")
		le(uint32(28))
		le(uint64(0))
		le(uint64(data.Len()))
		le(uint64(len(samples)))
		le(uint32(0))
	} else {
		b.WriteString("RIFF")
		le(uint32(0)) // patched below
		b.WriteString("WAVE")
	}
	if spec.junk > 0 {
		b.WriteString("LIST")
		le(uint32(spec.junk))
		b.Write(bytes.Repeat([]byte{'x'}, spec.junk))
		if spec.junk%2 == 1 {
			b.WriteByte(0)
		}
	}
	align := spec.channels * spec.bits / 8
	b.WriteString("fmt ")
	tag := spec.format
	if spec.extensible {
		le(uint32(40))
		tag = waveExtensible
	} else {
		le(uint32(16))
	}
	le(tag)
	le(uint16(spec.channels))
	le(uint32(spec.rate))
	le(uint32(spec.rate * align))
	le(uint16(align))
	le(uint16(spec.bits))
	if spec.extensible {
		le(uint16(22))
		le(uint16(spec.bits))
		le(uint32(0))
		le(spec.format)
		b.Write([]byte{0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71})
	}
	b.WriteString("data")
	switch {
	case spec.rf64:
		le(uint32(0xFFFFFFFF))
	case spec.dataSize >= 0:
		le(uint32(spec.dataSize))
	default:
		le(uint32(data.Len()))
	}
	b.Write(data.Bytes())
	out := b.Bytes()
	if !spec.rf64 {
		binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	}
	return out
}

// pcm16WAV is the common case: 16-bit mono PCM.
func pcm16WAV(rate int, samples []float64) []byte {
	return makeWAV(wavSpec{format: wavePCM, rate: rate, channels: 1, bits: 16, dataSize: -1}, samples)
}

// makeFLAC encodes samples (the same on every channel) as 16-bit FLAC with
// mewkiz/flac's encoder, in blocks of 4096.
func makeFLAC(t testing.TB, rate, channels int, samples []float64, declareTotal bool) []byte {
	t.Helper()
	info := &meta.StreamInfo{
		BlockSizeMin: 4096, BlockSizeMax: 4096,
		SampleRate: uint32(rate), NChannels: uint8(channels), BitsPerSample: 16,
	}
	if declareTotal {
		info.NSamples = uint64(len(samples))
	}
	var buf bytes.Buffer
	enc, err := flac.NewEncoder(&buf, info)
	if err != nil {
		t.Fatal(err)
	}
	chans := frame.ChannelsMono
	if channels == 2 {
		chans = frame.ChannelsLR
	}
	for start := 0; start < len(samples); start += 4096 {
		end := min(start+4096, len(samples))
		f := &frame.Frame{Header: frame.Header{
			HasFixedBlockSize: true, BlockSize: uint16(end - start),
			SampleRate: uint32(rate), Channels: chans, BitsPerSample: 16,
		}}
		for range channels {
			sub := &frame.Subframe{SubHeader: frame.SubHeader{Pred: frame.PredVerbatim}, NSamples: end - start}
			for _, s := range samples[start:end] {
				sub.Samples = append(sub.Samples, int32(math.Round(s*32767)))
			}
			f.Subframes = append(f.Subframes, sub)
		}
		if err := enc.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// oggPageBytes writes one Ogg page holding packet (at most 255*255 bytes) with a
// correct CRC.
func oggPageBytes(headerType byte, granule int64, serial, seq uint32, packet []byte) []byte {
	var segs []byte
	n := len(packet)
	for n >= 255 {
		segs = append(segs, 255)
		n -= 255
	}
	segs = append(segs, byte(n))
	var b bytes.Buffer
	b.WriteString("OggS")
	b.WriteByte(0)
	b.WriteByte(headerType)
	binary.Write(&b, binary.LittleEndian, granule)
	binary.Write(&b, binary.LittleEndian, serial)
	binary.Write(&b, binary.LittleEndian, seq)
	binary.Write(&b, binary.LittleEndian, uint32(0))
	b.WriteByte(byte(len(segs)))
	b.Write(segs)
	b.Write(packet)
	out := b.Bytes()
	var crc uint32
	for _, c := range out {
		crc = crc<<8 ^ oggCRC[byte(crc>>24)^c]
	}
	binary.LittleEndian.PutUint32(out[22:], crc)
	return out
}

// makeOggOpus writes OpusHead, OpusTags and audio pages of 20 ms packets (the
// payload is filler: Probe reads only the pages' granule positions), ending at
// granule preSkip+samples48k.
func makeOggOpus(preSkip uint16, samples48k int64) []byte {
	head := []byte("OpusHead\x01\x01")
	head = binary.LittleEndian.AppendUint16(head, preSkip)
	head = binary.LittleEndian.AppendUint32(head, 16000)
	head = append(head, 0, 0, 0)
	var b bytes.Buffer
	b.Write(oggPageBytes(0x02, 0, 7, 0, head))
	b.Write(oggPageBytes(0, 0, 7, 1, []byte("OpusTags\x07\x00\x00\x00veriland\x00\x00\x00\x00")))
	seq := uint32(2)
	for g := int64(0); g < samples48k+int64(preSkip); seq++ {
		g = min(g+50*960, samples48k+int64(preSkip)) // 50 packets of 20 ms per page
		typ := byte(0)
		if g == samples48k+int64(preSkip) {
			typ = 0x04
		}
		b.Write(oggPageBytes(typ, g, 7, seq, bytes.Repeat([]byte{0xF8, 0xFF, 0xFE}, 50)))
	}
	return b.Bytes()
}

// makeOggVorbis writes a Vorbis identification header page and one audio page at
// granule samples.
func makeOggVorbis(rate uint32, samples int64) []byte {
	id := []byte("\x01vorbis\x00\x00\x00\x00\x02")
	id = binary.LittleEndian.AppendUint32(id, rate)
	id = append(id, make([]byte, 12)...)
	id = append(id, 0xB8, 0x01)
	var b bytes.Buffer
	b.Write(oggPageBytes(0x02, 0, 9, 0, id))
	b.Write(oggPageBytes(0x04, samples, 9, 1, make([]byte, 100)))
	return b.Bytes()
}

// ebml encodes one element with an 8-byte size (or unknown size when size is
// -1, data then following as is).
func ebml(id uint64, data ...[]byte) []byte {
	var body []byte
	for _, d := range data {
		body = append(body, d...)
	}
	return ebmlSized(id, int64(len(body)), body)
}

func ebmlSized(id uint64, size int64, body []byte) []byte {
	var out []byte
	for shift := 24; shift >= 0; shift -= 8 {
		if c := byte(id >> shift); c != 0 || len(out) > 0 {
			out = append(out, c)
		}
	}
	if size < 0 {
		out = append(out, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	} else {
		out = append(out, 0x01) // an 8-byte size: the marker, then 7 bytes
		out = append(out, binary.BigEndian.AppendUint64(nil, uint64(size))[1:]...)
	}
	return append(out, body...)
}

func ebmlU(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
func ebmlF(v float64) []byte {
	return binary.BigEndian.AppendUint64(nil, math.Float64bits(v))
}

// webmSpec describes a WebM file for makeWebM.
type webmSpec struct {
	docType  string
	duration float64 // in ticks; < 0 for none (a live recording)
	scale    uint64
	codec    string
	live     bool  // unknown-size Segment and Clusters
	blocks   int64 // 20 ms Opus blocks, in clusters of 50
}

// makeWebM writes an EBML header, a Segment with Info and one audio track, and
// Clusters of SimpleBlocks every 20 ms.
func makeWebM(s webmSpec) []byte {
	hdr := ebml(idEBML, ebml(idDocType, []byte(s.docType)))
	info := []byte{}
	info = append(info, ebml(idTimecodeScale, ebmlU(s.scale))...)
	if !(s.duration < 0) { // NaN is written, to test that Probe refuses it
		info = append(info, ebml(idDuration, ebmlF(s.duration))...)
	}
	track := ebml(idTrackEntry,
		ebml(0xD7, []byte{1}),
		ebml(idTrackType, []byte{2}),
		ebml(idCodecID, []byte(s.codec)),
		ebml(idAudio, ebml(idSamplingFreq, ebmlF(48000)), ebml(idChannels, []byte{1})))
	seg := append(ebml(idInfo, info), ebml(idTracks, track)...)
	ticksPer20ms := int64(20_000_000 / max(s.scale, 1))
	for c := int64(0); c < s.blocks; c += 50 {
		var cl []byte
		cl = append(cl, ebml(idTimecode, ebmlU(uint64(c*ticksPer20ms)))...)
		for i := int64(0); i < 50 && c+i < s.blocks; i++ {
			blk := []byte{0x81, byte(i * ticksPer20ms >> 8), byte(i * ticksPer20ms), 0x80, 0xFC, 0xFF, 0xFE}
			cl = append(cl, ebml(idSimpleBlock, blk)...)
		}
		if s.live {
			seg = append(seg, ebmlSized(idCluster, -1, cl)...)
		} else {
			seg = append(seg, ebml(idCluster, cl)...)
		}
	}
	if s.live {
		return append(hdr, ebmlSized(idSegment, -1, seg)...)
	}
	return append(hdr, ebml(idSegment, seg)...)
}

// mp3Spec describes an MP3 file of silent Layer III frames for makeMP3.
type mp3Spec struct {
	id3    int  // bytes of ID3v2 tag body; 0 for none
	xing   bool // a Xing frame carrying the frame count
	vbri   bool // a VBRI frame carrying the frame count
	frames int
	mpeg2  bool // MPEG-2 at 22050 Hz instead of MPEG-1 at 44100 Hz
	id3v1  bool
}

// header is a Layer III header, mono, no CRC, no padding: 128 kbit/s MPEG-1 at
// 44.1 kHz or 128 kbit/s MPEG-2 at 22.05 kHz, both 417-byte frames.
func (s mp3Spec) header() []byte {
	if s.mpeg2 {
		return []byte{0xFF, 0xF3, 0xC0, 0xC0}
	}
	return []byte{0xFF, 0xFB, 0x90, 0xC0}
}

// makeMP3 writes frames whose side information is all zero: every granule has
// no Huffman data, which a decoder turns into silence.
func makeMP3(s mp3Spec) []byte {
	var b bytes.Buffer
	if s.id3 > 0 {
		b.WriteString("ID3\x03\x00\x00")
		b.Write([]byte{byte(s.id3 >> 21 & 0x7F), byte(s.id3 >> 14 & 0x7F), byte(s.id3 >> 7 & 0x7F), byte(s.id3 & 0x7F)})
		b.WriteString("TIT2")
		b.Write(make([]byte, s.id3-4))
	}
	frame := func() []byte {
		f := make([]byte, 417)
		copy(f, s.header())
		return f
	}
	if s.xing {
		f := frame()
		off := 4 + 17
		if s.mpeg2 {
			off = 4 + 9
		}
		copy(f[off:], "Xing\x00\x00\x00\x01")
		binary.BigEndian.PutUint32(f[off+8:], uint32(s.frames))
		b.Write(f)
	}
	if s.vbri {
		f := frame()
		copy(f[36:], "VBRI\x00\x01")
		binary.BigEndian.PutUint32(f[36+14:], uint32(s.frames))
		b.Write(f)
	}
	for range s.frames {
		b.Write(frame())
	}
	if s.id3v1 {
		b.WriteString("TAG")
		b.Write(make([]byte, 125))
	}
	return b.Bytes()
}

// m4aSpec describes an M4A file for makeM4A.
type m4aSpec struct {
	brand     string
	version   byte // mvhd and mdhd version
	timescale uint32
	duration  uint64
	mdatFirst bool
}

func box(typ string, body ...[]byte) []byte {
	var n int
	for _, p := range body {
		n += len(p)
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(8+n))
	out = append(out, typ...)
	for _, p := range body {
		out = append(out, p...)
	}
	return out
}

// times encodes the creation, modification, timescale and duration fields of an
// mvhd or mdhd box in the given version.
func times(version byte, scale uint32, dur uint64) []byte {
	out := []byte{version, 0, 0, 0}
	if version == 1 {
		out = append(out, make([]byte, 16)...)
		out = binary.BigEndian.AppendUint32(out, scale)
		return binary.BigEndian.AppendUint64(out, dur)
	}
	out = append(out, make([]byte, 8)...)
	out = binary.BigEndian.AppendUint32(out, scale)
	return binary.BigEndian.AppendUint32(out, uint32(dur))
}

// makeM4A writes ftyp, moov (mvhd, one sound trak with mdhd, hdlr and an mp4a
// sample entry at 44.1 kHz stereo) and an mdat of filler.
func makeM4A(s m4aSpec) []byte {
	ftyp := box("ftyp", []byte(s.brand), []byte{0, 0, 0, 0}, []byte("isomM4A "))
	entry := append(make([]byte, 6), 0, 1)         // reserved, data reference index
	entry = append(entry, make([]byte, 8)...)      // reserved
	entry = append(entry, 0, 2, 0, 16, 0, 0, 0, 0) // channels, sample size, pre-defined, reserved
	entry = binary.BigEndian.AppendUint32(entry, 44100<<16)
	stsd := box("stsd", []byte{0, 0, 0, 0, 0, 0, 0, 1}, box("mp4a", entry))
	hdlr := box("hdlr", []byte{0, 0, 0, 0, 0, 0, 0, 0}, []byte("soun"), make([]byte, 13))
	trak := box("trak", box("tkhd", make([]byte, 84)),
		box("mdia", box("mdhd", times(s.version, 44100, s.duration*44100/uint64(max(s.timescale, 1))), make([]byte, 4)), hdlr,
			box("minf", box("smhd", make([]byte, 8)), box("stbl", stsd))))
	moov := box("moov", box("mvhd", times(s.version, s.timescale, s.duration), make([]byte, 80)), trak)
	mdat := box("mdat", make([]byte, 1000))
	if s.mdatFirst {
		return append(append(ftyp, mdat...), moov...)
	}
	return append(append(ftyp, moov...), mdat...)
}

// fliteWAV is "what is the status of my parcel" spoken by flite (8 kHz, 16-bit,
// mono), kept in testdata so the tests do not need flite.
func fliteWAV(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/parcel.wav")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
